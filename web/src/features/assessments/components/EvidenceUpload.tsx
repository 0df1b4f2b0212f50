// Evidence for a draft record: a photo from the phone's camera or a file (JPEG, PNG or PDF, 10 MB at
// most). Checked here first, so a wrong file is explained before it is sent; the server checks again
// (the type by its first bytes) and its 413/415 answers are shown the same way, beside the buttons.
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconCamera, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ASSESSMENT_MESSAGES, EVIDENCE_TYPES, MAX_EVIDENCE_BYTES, type AssessmentRecord } from '@shared/assessments.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { translateMessage } from '@/lib/i18n/messages';
import { notifySuccess } from '@/lib/notify';
import { useUploadEvidence } from '../api/assessments';
import { EvidenceList } from './RecordSummary';

const ACCEPT = 'image/*,application/pdf';

/** Why a file cannot be evidence (in the reader's language), or null when it may be sent. */
export function evidenceProblem(file: Pick<File, 'size' | 'type'>): string | null {
  if (file.size > MAX_EVIDENCE_BYTES) return translateMessage(ASSESSMENT_MESSAGES.evidenceTooLarge);
  // A camera's HEIC photo or a Word file: refused before it is sent (a type the browser does not
  // know is left to the server, which reads the file's first bytes).
  if (file.type && !(EVIDENCE_TYPES as readonly string[]).includes(file.type)) return translateMessage(ASSESSMENT_MESSAGES.evidenceType);
  return null;
}

export function EvidenceUpload({ record }: { record: AssessmentRecord }) {
  const { t } = useTranslation('assessments');
  const upload = useUploadEvidence(record.id);
  const [problem, setProblem] = useState<string | null>(null);
  const cameraButton = useRef<HTMLButtonElement>(null);
  const fileButton = useRef<HTMLButtonElement>(null);
  // The button used takes the focus back once the upload is over (it was disabled while sending).
  const refocus = useRef<typeof cameraButton | null>(null);
  const sending = upload.isPending;
  useEffect(() => {
    if (sending || !refocus.current) return;
    refocus.current.current?.focus();
    refocus.current = null;
  }, [sending]);

  function send(file: File | null, from: typeof cameraButton) {
    if (!file) return;
    const local = evidenceProblem(file);
    setProblem(local);
    if (local) return;
    refocus.current = from;
    upload.mutate(file, {
      onSuccess: () => notifySuccess(t('evidence.added'), file.name),
      onError: (error) => {
        const status = error instanceof ApiError ? error.status : 0;
        const reason = errorDescription(error, t('tryAgain'));
        setProblem(status === 413 ? t('evidence.tooLarge', { reason }) : status === 415 ? t('evidence.wrongType', { reason }) : reason);
      },
    });
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="evidence-heading">
      <Text fw={600} id="evidence-heading">
        {t('evidence.title')}
      </Text>
      <Text size="sm" c="dimmed" id="evidence-hint">
        {t('evidence.hint')}
      </Text>
      <Group gap="xs">
        <FileButton onChange={(file) => send(file, cameraButton)} accept={ACCEPT} capture="environment" inputProps={{ 'aria-label': t('evidence.takePhoto') }}>
          {(props) => (
            <Button {...props} ref={cameraButton} leftSection={<IconCamera size={16} aria-hidden />} loading={upload.isPending} aria-describedby="evidence-hint">
              {t('evidence.takePhoto')}
            </Button>
          )}
        </FileButton>
        <FileButton onChange={(file) => send(file, fileButton)} accept={ACCEPT} inputProps={{ 'aria-label': t('evidence.chooseFile') }}>
          {(props) => (
            <Button {...props} ref={fileButton} variant="default" leftSection={<IconUpload size={16} aria-hidden />} loading={upload.isPending} aria-describedby="evidence-hint">
              {t('evidence.chooseFile')}
            </Button>
          )}
        </FileButton>
      </Group>
      {problem ? (
        <Alert color="red" variant="light" role="alert" title={t('evidence.notAdded')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          <Text size="sm" c="var(--mantine-color-text)">{problem}</Text>
        </Alert>
      ) : null}
      <EvidenceList record={record} />
    </Stack>
  );
}
