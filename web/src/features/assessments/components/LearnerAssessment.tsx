// A practical assessment module as its learner reads it (in the module viewer): the criteria with
// their guidance, the outcome now (Competent, Not yet competent, Waiting for the verifier, Not assessed
// yet) and until when it is valid, the assessor's notes and the evidence of the record that counts,
// the earlier records (a superseded one marked so), and "Ask for reassessment" when the server allows
// it. An assessor of the course is sent to the learners' list instead.
import { useRef, useState } from 'react';
import { Alert, Button, Card, Group, List, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconClipboardCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { reassessmentSchema } from '@shared/assessments.ts';
import { NotInWelsh, useLocalise } from '@/components/Localised';
import { ApiError, errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { translateMessage } from '@/lib/i18n/messages';
import { notifySuccess } from '@/lib/notify';
import { useModuleAssessment, useRequestReassessment } from '../api/assessments';
import { currentRecord, standingOf } from '../lib/outcome';
import { RecordSummary } from './RecordSummary';

function ReassessmentForm({ moduleId, onDone }: { moduleId: string; onDone: () => void }) {
  const { t } = useTranslation('assessments');
  const request = useRequestReassessment(moduleId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  function submit(event: React.FormEvent) {
    event.preventDefault();
    const checked = reassessmentSchema.safeParse({ reason });
    if (!checked.success) {
      setError(translateMessage(checked.error.issues[0]?.message ?? ''));
      field.current?.focus();
      return;
    }
    request.mutate(checked.data.reason, {
      onSuccess: () => {
        notifySuccess(t('learner.requested'), t('learner.requestedMessage'));
        onDone();
      },
      onError: (failure) => {
        setError(failure instanceof ApiError && failure.fields?.reason ? failure.fields.reason : errorDescription(failure, t('tryAgain')));
        field.current?.focus();
      },
    });
  }
  return (
    <form noValidate onSubmit={submit} aria-label={t('learner.askTitle')}>
      <Stack gap="sm">
        <Textarea
          ref={field}
          label={t('learner.reason')}
          description={t('learner.reasonHint')}
          autosize
          minRows={2}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={error}
          data-autofocus
        />
        <Group>
          <Button type="submit" loading={request.isPending}>
            {t('learner.send')}
          </Button>
          <Button variant="default" onClick={onDone}>
            {t('cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function LearnerAssessment({ moduleId, enrolled }: { moduleId: string; enrolled: boolean }) {
  const { t } = useTranslation('assessments');
  const localise = useLocalise();
  const assessment = useModuleAssessment(moduleId);
  const [asking, setAsking] = useState(false);
  const askButton = useRef<HTMLButtonElement>(null);

  if (assessment.isPending) {
    return <Text size="sm" role="status">{t('loading')}</Text>;
  }
  if (assessment.isError) return <Text c="red.8">{errorDescription(assessment.error, t('loadFailed'))}</Text>;
  const data = assessment.data;
  const standing = standingOf(data);
  const record = currentRecord(data.records);
  const earlier = data.records.filter((r) => r.id !== record?.id);

  function closeAsking() {
    setAsking(false);
    setTimeout(() => askButton.current?.focus(), 0);
  }

  return (
    <Stack gap="lg" data-testid="learner-assessment">
      {data.isAssessor ? (
        <Alert color="blue" variant="light" icon={<IconClipboardCheck size={20} aria-hidden />} title={t('learner.youAssess')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          <Button component={Link} to={`/instructor/assessments/module/${moduleId}`} size="sm">
            {t('learner.assessLearners')}
          </Button>
        </Alert>
      ) : null}

      <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="assessment-criteria-heading">
        <Stack gap="sm">
          <Title order={2} size="h3" id="assessment-criteria-heading">
            {t('learner.criteriaHeading')}
          </Title>
          {data.criteria.length === 0 ? <Text size="sm">{t('learner.noCriteria')}</Text> : null}
          {/* One mark for the checklist when any of it is shown in English to a Welsh reader. */}
          {data.criteria.some((c) => localise(c.title, c.titleCy).fallback || (c.guidance && localise(c.guidance, c.guidanceCy).fallback)) ? (
            <div>
              <NotInWelsh />
            </div>
          ) : null}
          <List type="ordered" spacing="sm">
            {data.criteria.map((criterion) => {
              const title = localise(criterion.title, criterion.titleCy);
              const guidance = criterion.guidance ? localise(criterion.guidance, criterion.guidanceCy) : null;
              return (
                <List.Item key={criterion.id}>
                  <Text fw={600} lang={title.lang}>
                    {title.text}
                    {criterion.critical ? <Text component="span" size="sm" fw={700} c="red.9">{` ${t('learner.critical')}`}</Text> : null}
                  </Text>
                  {guidance ? <Text size="sm" lang={guidance.lang}>{guidance.text}</Text> : null}
                </List.Item>
              );
            })}
          </List>
        </Stack>
      </Paper>

      {enrolled ? (
        <Card withBorder padding="lg" component="section" aria-labelledby="assessment-outcome-heading">
          <Stack gap="sm">
            <Group gap="sm">
              <Title order={2} size="h3" id="assessment-outcome-heading">
                {t('learner.outcomeHeading')}
              </Title>
              <Text fw={700} data-testid="assessment-standing">{t(`standing.${standing}`)}</Text>
            </Group>
            {data.signedOffAt ? (
              <Text size="sm">
                {data.validUntil
                  ? t('learner.signedOffUntil', { date: formatDate(data.signedOffAt), until: formatDate(data.validUntil) })
                  : t('learner.signedOff', { date: formatDate(data.signedOffAt) })}
              </Text>
            ) : null}
            {record ? <RecordSummary record={record} /> : null}
            {data.openRequest ? (
              <Text size="sm">{t('learner.openRequest', { date: formatDate(data.openRequest.requestedAt) })}</Text>
            ) : null}
            {data.canRequestReassessment && !data.openRequest ? (
              asking ? (
                <ReassessmentForm moduleId={moduleId} onDone={closeAsking} />
              ) : (
                <Group>
                  <Button ref={askButton} variant="default" onClick={() => setAsking(true)}>
                    {t('learner.ask')}
                  </Button>
                </Group>
              )
            ) : null}
          </Stack>
        </Card>
      ) : null}

      {earlier.length > 0 ? (
        <section aria-labelledby="assessment-history-heading">
          <Stack gap="sm">
            <Title order={2} size="h3" id="assessment-history-heading">
              {t('learner.historyHeading')}
            </Title>
            {earlier.map((r) => (
              <Card key={r.id} withBorder padding="md">
                <Stack gap={4}>
                  <Text size="sm" c="dimmed">{t('learner.cycle', { cycle: r.cycle })}</Text>
                  <RecordSummary record={r} />
                </Stack>
              </Card>
            ))}
          </Stack>
        </section>
      ) : null}
    </Stack>
  );
}

export default LearnerAssessment;
