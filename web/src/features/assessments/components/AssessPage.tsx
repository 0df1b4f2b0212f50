// /instructor/assessments/records/:recordId: one learner's record. A draft is edited and signed off
// (RecordEditor); a signed record is shown as it is, with "Verify" (a second assessor, when the module
// needs one) and "Correct this record" (a new draft that supersedes it once signed).
import { useRef } from 'react';
import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AssessmentRecord } from '@shared/assessments.ts';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { PageMeta } from '@/lib/page/page-meta';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useLocalise } from '@/components/Localised';
import { useAssessmentRecord, useModuleAssessment, useModuleTitle, useStartRecord, useVerifyRecord } from '../api/assessments';
import { RecordEditor } from './RecordEditor';
import { RecordSummary } from './RecordSummary';

function SignedActions({ record, needsVerifier, onDone }: { record: AssessmentRecord; needsVerifier: boolean; onDone: () => void }) {
  const { t } = useTranslation('assessments');
  const navigate = useNavigate();
  const verify = useVerifyRecord(record.id);
  const correct = useStartRecord(record.moduleId);
  const canVerify = needsVerifier && record.state === 'signed';
  const canCorrect = record.state === 'signed' || record.state === 'verified';
  if (!canVerify && !canCorrect) return null;
  return (
    <Group>
      {canVerify ? (
        <Button
          loading={verify.isPending}
          onClick={() =>
            verify.mutate(undefined, {
              onSuccess: () => {
                notifySuccess(t('signed.verifiedTitle'), t('signed.verifiedMessage'));
                onDone();
              },
              onError: (error) => notifyFailure(t('signed.verifyError'), errorDescription(error, t('tryAgain'))),
            })
          }
        >
          {t('signed.verify')}
        </Button>
      ) : null}
      {canCorrect ? (
        <Button
          variant="default"
          loading={correct.isPending}
          onClick={() =>
            correct.mutate({ learnerId: record.learnerId, supersedesId: record.id }, {
              onSuccess: (draft) => navigate(`/instructor/assessments/records/${draft.id}`, { state: { focusHeading: true } }),
              onError: (error) => notifyFailure(t('signed.correctError'), errorDescription(error, t('tryAgain'))),
            })
          }
        >
          {t('signed.correct')}
        </Button>
      ) : null}
    </Group>
  );
}

export function AssessPage({ recordId }: { recordId: string }) {
  const { t } = useTranslation('assessments');
  const navigate = useNavigate();
  const record = useAssessmentRecord(recordId);
  const moduleId = record.data?.moduleId ?? '';
  const assessment = useModuleAssessment(moduleId, Boolean(moduleId));
  const { module } = useModuleTitle(moduleId);
  const localise = useLocalise();
  const heading = useRef<HTMLHeadingElement>(null);
  const focusHeading = () => setTimeout(() => heading.current?.focus(), 0);

  if (record.isError || assessment.isError) {
    return (
      <Stack gap="md" align="flex-start">
        <Title order={1}>{t('page.notFound')}</Title>
        <Text>{errorDescription(record.error ?? assessment.error, t('loadFailed'))}</Text>
        <Button component={Link} to="/instructor?tab=assessments">{t('page.back')}</Button>
      </Stack>
    );
  }
  if (record.isPending || assessment.isPending) return <PageSpinner label={t('loading')} />;
  const data = record.data;
  const title = t('page.title', { name: data.learnerName ?? t('record.someone') });

  return (
    <Stack gap="md">
      <PageMeta title={title} description={t('page.description')} />
      <Group>
        <Button component={Link} to={`/instructor/assessments/module/${data.moduleId}`} variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t('page.backToLearners')}
        </Button>
      </Group>
      <div>
        <Title order={1} ref={heading} tabIndex={-1} style={{ outlineOffset: 4 }}>
          {title}
        </Title>
        {module ? <Text fw={600} lang={localise(module.title, module.titleCy).lang}>{localise(module.title, module.titleCy).text}</Text> : null}
        <Text c="dimmed">{t('learner.cycle', { cycle: data.cycle })}</Text>
      </div>
      {data.supersedesId ? (
        <Alert color="blue" variant="light" title={t('page.correction')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          <Anchor component={Link} to={`/instructor/assessments/records/${data.supersedesId}`} size="sm">
            {t('page.openCorrected')}
          </Anchor>
        </Alert>
      ) : null}
      {data.state === 'draft' ? (
        <RecordEditor
          key={data.id}
          record={data}
          criteria={assessment.data.criteria}
          onSigned={focusHeading}
          onDiscarded={() => navigate(`/instructor/assessments/module/${data.moduleId}`)}
        />
      ) : (
        <Paper withBorder p="md">
          <Stack gap="md">
            <RecordSummary record={data} headingLevel={3} />
            {data.state === 'signed' && assessment.data.settings.needsVerifier ? <Text size="sm">{t('signed.waitingVerifier')}</Text> : null}
            <SignedActions record={data} needsVerifier={assessment.data.settings.needsVerifier} onDone={focusHeading} />
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
