// An assessor's draft record: per criterion Competent / Not yet competent with a note, the evidence,
// the overall outcome (Competent refused while a critical criterion is not yet competent, and why),
// notes, "Save draft", "Discard" and "Sign off" (confirmed: a signed record never changes).
import { useRef, useState } from 'react';
import { Alert, Button, Card, Group, Modal, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { recordSaveSchema, type AssessmentCriterion, type AssessmentRecord, type Outcome, type RecordSaveInput } from '@shared/assessments.ts';
import { useLocalise } from '@/components/Localised';
import { errorDescription } from '@/lib/api-client';
import { translateMessage } from '@/lib/i18n/messages';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDiscardRecord, useSaveRecord, useSignRecord } from '../api/assessments';
import { failedCritical } from '../lib/outcome';
import { EvidenceUpload } from './EvidenceUpload';

interface Draft {
  results: Record<string, Outcome | null>;
  notes: Record<string, string>;
  outcome: Outcome | null;
  overall: string;
}

function draftOf(record: AssessmentRecord): Draft {
  return {
    results: Object.fromEntries(record.judgements.map((j) => [j.criterionId, j.result])),
    notes: Object.fromEntries(record.judgements.map((j) => [j.criterionId, j.note ?? ''])),
    outcome: record.outcome,
    overall: record.notes ?? '',
  };
}

/** The body of PUT /api/assessment-records/:id: the criteria judged so far, in the checklist's order. */
export function saveBody(criteria: AssessmentCriterion[], draft: Draft): RecordSaveInput {
  return recordSaveSchema.parse({
    judgements: criteria.flatMap((c) => (draft.results[c.id] ? [{ criterionId: c.id, result: draft.results[c.id], note: draft.notes[c.id] ?? '' }] : [])),
    outcome: draft.outcome,
    notes: draft.overall,
  });
}

export function RecordEditor({ record, criteria, onSigned, onDiscarded }: {
  record: AssessmentRecord;
  criteria: AssessmentCriterion[];
  onSigned: () => void;
  onDiscarded: () => void;
}) {
  const { t } = useTranslation('assessments');
  const localise = useLocalise();
  const [draft, setDraft] = useState<Draft>(() => draftOf(record));
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveRecord(record.id);
  const sign = useSignRecord(record.id);
  const discard = useDiscardRecord(record.id);
  const saveButton = useRef<HTMLButtonElement>(null);
  const signButton = useRef<HTMLButtonElement>(null);
  const critical = failedCritical(criteria, draft.results);
  const unjudged = criteria.filter((c) => !draft.results[c.id]);
  // Competent is refused while a critical criterion is not yet competent: the choice moves back.
  const outcome = critical.length > 0 && draft.outcome === 'competent' ? null : draft.outcome;
  const canSign = outcome !== null && unjudged.length === 0;

  const setResult = (id: string, result: Outcome) => setDraft((d) => ({ ...d, results: { ...d.results, [id]: result } }));
  const setNote = (id: string, note: string) => setDraft((d) => ({ ...d, notes: { ...d.notes, [id]: note } }));

  function body(): RecordSaveInput | null {
    try {
      return saveBody(criteria, { ...draft, outcome });
    } catch (error) {
      const issue = (error as { issues?: { message: string }[] }).issues?.[0]?.message;
      setProblem(translateMessage(issue ?? t('tryAgain')));
      return null;
    }
  }

  function saveDraft() {
    const input = body();
    if (!input) return;
    setProblem(null);
    save.mutate(input, {
      onSuccess: () => notifySuccess(t('editor.saved'), t('editor.savedMessage')),
      onError: (error) => setProblem(errorDescription(error, t('tryAgain'))),
      onSettled: () => setTimeout(() => saveButton.current?.focus(), 0),
    });
  }

  async function signOff() {
    const input = body();
    if (!input) return;
    setProblem(null);
    try {
      await save.mutateAsync(input);
      await sign.mutateAsync();
      setConfirming(false);
      notifySuccess(t('editor.signedTitle'), t('editor.signedMessage'));
      onSigned();
    } catch (error) {
      setConfirming(false);
      setProblem(errorDescription(error, t('tryAgain')));
      setTimeout(() => signButton.current?.focus(), 0);
    }
  }

  function discardDraft() {
    discard.mutate(undefined, {
      onSuccess: () => {
        notifySuccess(t('editor.discarded'), t('editor.discardedMessage'));
        onDiscarded();
      },
      onError: (error) => notifyFailure(t('editor.discardError'), errorDescription(error, t('tryAgain'))),
    });
  }

  return (
    <Stack gap="md">
      <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('editor.criteria')}>
        {criteria.map((criterion, index) => {
          const title = localise(criterion.title, criterion.titleCy);
          const guidance = criterion.guidance ? localise(criterion.guidance, criterion.guidanceCy) : null;
          return (
            <Card key={criterion.id} withBorder padding="md" component="li" data-testid="judgement">
              <Stack gap="xs">
                <Radio.Group
                  label={<span lang={title.lang}>{t('criteria.number', { number: index + 1 })} {title.text}{criterion.critical ? ` ${t('learner.critical')}` : ''}</span>}
                  description={guidance ? <span lang={guidance.lang}>{guidance.text}</span> : undefined}
                  value={draft.results[criterion.id] ?? null}
                  onChange={(value) => setResult(criterion.id, value as Outcome)}
                >
                  <Group gap="md" mt={6}>
                    <Radio value="competent" label={t('outcome.competent')} />
                    <Radio value="not-yet-competent" label={t('outcome.not-yet-competent')} />
                  </Group>
                </Radio.Group>
                <Textarea
                  label={t('editor.noteFor', { number: index + 1 })}
                  autosize
                  minRows={1}
                  value={draft.notes[criterion.id] ?? ''}
                  onChange={(e) => setNote(criterion.id, e.currentTarget.value)}
                />
              </Stack>
            </Card>
          );
        })}
      </Stack>

      <EvidenceUpload record={record} />

      <Card withBorder padding="md">
        <Stack gap="sm">
          <Radio.Group
            label={t('editor.outcome')}
            description={critical.length > 0 ? t('editor.criticalFailed', { titles: critical.map((c) => c.title).join(', ') }) : undefined}
            value={outcome}
            onChange={(value) => setDraft((d) => ({ ...d, outcome: value as Outcome }))}
          >
            <Group gap="md" mt={6}>
              <Radio value="competent" label={t('outcome.competent')} disabled={critical.length > 0} />
              <Radio value="not-yet-competent" label={t('outcome.not-yet-competent')} />
            </Group>
          </Radio.Group>
          <Textarea label={t('editor.notes')} autosize minRows={2} value={draft.overall} onChange={(e) => setDraft((d) => ({ ...d, overall: e.currentTarget.value }))} />
        </Stack>
      </Card>

      {problem ? (
        <Alert color="red" variant="light" role="alert" title={t('editor.notSaved')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          <Text size="sm" c="var(--mantine-color-text)">{problem}</Text>
        </Alert>
      ) : null}
      {!canSign ? (
        <Text size="sm" id="sign-hint">
          {unjudged.length > 0 ? t('editor.judgeAll', { count: unjudged.length }) : t('editor.chooseOutcome')}
        </Text>
      ) : null}
      <Group>
        <Button ref={signButton} onClick={() => setConfirming(true)} disabled={!canSign} aria-describedby={canSign ? undefined : 'sign-hint'}>
          {t('editor.signOff')}
        </Button>
        <Button ref={saveButton} variant="default" onClick={saveDraft} loading={save.isPending && !confirming}>
          {t('editor.saveDraft')}
        </Button>
        <Button variant="default" onClick={discardDraft} loading={discard.isPending}>
          {t('editor.discard')}
        </Button>
      </Group>

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('editor.confirmTitle')} centered closeButtonProps={{ 'aria-label': t('close') }}>
        <Stack>
          <Title order={3} size="h5">
            {outcome ? t(`outcome.${outcome}`) : null}
          </Title>
          <Text size="sm">{t('editor.confirmText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
            <Button onClick={() => void signOff()} loading={save.isPending || sign.isPending}>
              {t('editor.confirmSign')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
