// A signed (or superseded) assessment record as anyone allowed to read it sees it: the outcome, who
// signed and verified it and when, the judgement and note per criterion, the notes and the evidence.
import { Badge, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconFile, IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AssessmentRecord, Outcome, RecordState } from '@shared/assessments.ts';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { notifyFailure } from '@/lib/notify';
import { downloadEvidence } from '../api/assessments';

export function OutcomeBadge({ outcome }: { outcome: Outcome | null }) {
  const { t } = useTranslation('assessments');
  if (!outcome) return <Badge variant="outline" color="dark.6" c="var(--mantine-color-text)">{t('outcome.none')}</Badge>;
  return (
    <Badge variant="filled" color={outcome === 'competent' ? 'teal.9' : 'red.9'}>
      {t(`outcome.${outcome}`)}
    </Badge>
  );
}

export function StateBadge({ state }: { state: RecordState }) {
  const { t } = useTranslation('assessments');
  return (
    <Badge variant="outline" color="dark.6" c="var(--mantine-color-text)">
      {t(`state.${state}`)}
    </Badge>
  );
}

export function EvidenceList({ record }: { record: AssessmentRecord }) {
  const { t } = useTranslation('assessments');
  if (record.evidence.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('evidence.heading')}
      </Text>
      <Group gap="xs">
        {record.evidence.map((file) => (
          <Button
            key={file.id}
            size="xs"
            variant="default"
            leftSection={file.contentType === 'application/pdf' ? <IconFile size={14} aria-hidden /> : <IconPhoto size={14} aria-hidden />}
            onClick={() =>
              downloadEvidence(file.id, file.originalName).catch((error: unknown) => notifyFailure(t('evidence.openError'), errorDescription(error, t('tryAgain'))))
            }
            aria-label={t('evidence.open', { name: file.originalName })}
            style={{ maxWidth: '100%' }}
          >
            <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{file.originalName}</span>
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

/** headingLevel: the record's title level in the page (3 in the learner's history). */
export function RecordSummary({ record, headingLevel = 3 }: { record: AssessmentRecord; headingLevel?: 3 | 4 }) {
  const { t } = useTranslation('assessments');
  return (
    <Stack gap="xs" data-testid="record-summary" data-state={record.state}>
      <Group gap="xs">
        <Title order={headingLevel} size="h5">
          {record.signedAt ? t('record.signedOn', { date: formatDate(record.signedAt) }) : t('record.draftTitle')}
        </Title>
        <OutcomeBadge outcome={record.outcome} />
        <StateBadge state={record.state} />
      </Group>
      <Text size="sm">
        {record.assessorName ? t('record.assessedBy', { name: record.assessorName }) : null}
        {record.verifiedAt ? ` ${t('record.verifiedBy', { name: record.verifierName ?? t('record.someone'), date: formatDate(record.verifiedAt) })}` : null}
        {record.supersededAt ? ` ${t('record.supersededOn', { date: formatDate(record.supersededAt) })}` : null}
      </Text>
      <List spacing={6} size="sm" listStyleType="none" style={{ paddingInlineStart: 0 }}>
        {record.judgements.map((judgement) => (
          <List.Item key={judgement.criterionId}>
            <Group gap="xs" wrap="wrap">
              <Text size="sm" fw={600} component="span">
                {judgement.criterionTitle}
              </Text>
              <OutcomeBadge outcome={judgement.result} />
            </Group>
            {judgement.note ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {judgement.note}
              </Text>
            ) : null}
          </List.Item>
        ))}
      </List>
      {record.notes ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          <strong>{t('record.notesLabel')}</strong> {record.notes}
        </Text>
      ) : null}
      <EvidenceList record={record} />
    </Stack>
  );
}
