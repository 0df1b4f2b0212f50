// The author's "Assessment" panel for a practical assessment module: whether a second signature (a
// verifier) is needed, how many months a sign-off stays valid (it feeds the certificate's expiry), and
// the checklist of criteria (added, edited, moved one place at a time, deleted after confirmation).
import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Checkbox, Divider, Group, Loader, Modal, NumberInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { assessmentSettingsSchema, type AssessmentCriterion, type AssessmentSettings } from '@shared/assessments.ts';
import type { CourseModule } from '@shared/catalogue.ts';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useDeleteCriterion, useModuleAssessment, useSaveAssessmentSettings, useSaveCriterion } from '../api/assessments';
import { CriterionForm } from './CriterionForm';

function SettingsForm({ moduleId, settings }: { moduleId: string; settings: AssessmentSettings }) {
  const { t } = useTranslation('assessments');
  const save = useSaveAssessmentSettings(moduleId);
  const form = useForm<{ needsVerifier: boolean; validMonths: number | string }>({
    mode: 'controlled',
    initialValues: { needsVerifier: settings.needsVerifier, validMonths: settings.validMonths ?? '' },
    validate: translatedResolver(assessmentSettingsSchema, { errorPriority: 'first' }),
  });
  const submit = form.onSubmit((values) => {
    save.mutate({ needsVerifier: values.needsVerifier, validMonths: values.validMonths === '' ? null : Number(values.validMonths) }, {
      onSuccess: () => notifySuccess(t('settings.saved'), t('settings.savedMessage')),
      onError: (error) => {
        if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
        notifyFailure(t('settings.saveError'), errorDescription(error, t('tryAgain')));
      },
    });
  });
  return (
    <form noValidate aria-label={t('settings.title')} onSubmit={submit}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('settings.title')}
        </Title>
        <Checkbox label={t('settings.needsVerifier')} description={t('settings.needsVerifierHint')} key={form.key('needsVerifier')} {...form.getInputProps('needsVerifier', { type: 'checkbox' })} />
        <NumberInput
          label={t('settings.validMonths')}
          description={t('settings.validMonthsHint')}
          min={1}
          max={120}
          allowDecimal={false}
          maw={260}
          key={form.key('validMonths')}
          {...form.getInputProps('validMonths')}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('settings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type Editing = { criterion?: AssessmentCriterion } | null;

function CriteriaList({ moduleId, criteria }: { moduleId: string; criteria: AssessmentCriterion[] }) {
  const { t } = useTranslation('assessments');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AssessmentCriterion | null>(null);
  const save = useSaveCriterion(moduleId);
  const remove = useDeleteCriterion();

  function move(criterion: AssessmentCriterion, index: number, delta: -1 | 1) {
    // Two neighbours swap by putting the upper one just below the lower one: the server numbers the
    // criteria again by their order, a tie keeping the older first, so "the same place" would not move.
    const upper = criteria[delta < 0 ? index - 1 : index];
    const lower = criteria[delta < 0 ? index : index + 1];
    if (!upper || !lower) return;
    const { title, titleCy, guidance, guidanceCy, critical } = upper;
    save.mutate({ criterionId: upper.id, input: { title, titleCy, guidance, guidanceCy, critical, orderIndex: lower.orderIndex + 1 } }, {
      onSuccess: () => {
        notifySuccess(t('criteria.moved'), criterion.title);
        // The moved row's button keeps the focus (its twin when it reached the end of the list).
        setTimeout(() => {
          const buttons = document.querySelectorAll<HTMLButtonElement>(`[data-move-criterion="${criterion.id}"]:not(:disabled)`);
          (delta < 0 ? buttons[0] : buttons[buttons.length - 1])?.focus();
        }, 0);
      },
      onError: (error) => notifyFailure(t('criteria.moveError'), errorDescription(error, t('tryAgain'))),
    });
  }

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifySuccess(t('criteria.deleted'), deleting.title);
        setDeleting(null);
      },
      onError: (error) => notifyFailure(t('criteria.deleteError'), errorDescription(error, t('tryAgain'))),
    });
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} size="h4">
          {t('criteria.heading')}
        </Title>
        {editing ? null : (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing({})}>
            {t('criteria.add')}
          </Button>
        )}
      </Group>
      {criteria.length === 0 && !editing ? (
        <Text size="sm" c="dimmed">
          {t('criteria.none')}
        </Text>
      ) : null}
      <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('criteria.heading')}>
        {criteria.map((criterion, index) =>
          editing?.criterion?.id === criterion.id ? (
            <li key={criterion.id}>
              <CriterionForm moduleId={moduleId} criterion={criterion} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <Card key={criterion.id} withBorder padding="sm" radius="md" component="li" data-testid="criterion-card">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={700}>{t('criteria.number', { number: index + 1 })}</Text>
                    {criterion.critical ? (
                      <Badge color="red.9" variant="filled">
                        {t('criteria.criticalBadge')}
                      </Badge>
                    ) : null}
                  </Group>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {criterion.title}
                  </Text>
                  {criterion.guidance ? (
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {criterion.guidance}
                    </Text>
                  ) : null}
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="default" data-move-criterion={criterion.id} aria-label={t('criteria.moveUp', { title: criterion.title })} disabled={index === 0 || save.isPending} onClick={() => move(criterion, index, -1)}>
                    <IconArrowUp size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon variant="default" data-move-criterion={criterion.id} aria-label={t('criteria.moveDown', { title: criterion.title })} disabled={index === criteria.length - 1 || save.isPending} onClick={() => move(criterion, index, 1)}>
                    <IconArrowDown size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
              <Group gap="xs" mt="xs">
                <Button size="xs" variant="default" onClick={() => setEditing({ criterion })} aria-label={t('criteria.editFor', { title: criterion.title })}>
                  {t('criteria.edit')}
                </Button>
                <Button size="xs" color="red.9" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => setDeleting(criterion)} aria-label={t('criteria.deleteFor', { title: criterion.title })}>
                  {t('criteria.delete')}
                </Button>
              </Group>
            </Card>
          ),
        )}
      </Stack>
      {editing && !editing.criterion ? <CriterionForm moduleId={moduleId} onDone={() => setEditing(null)} /> : null}
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('criteria.deleteTitle')} centered closeButtonProps={{ 'aria-label': t('close') }}>
        <Stack>
          <Text size="sm">{t('criteria.deleteConfirm', { title: deleting?.title ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('cancel')}
            </Button>
            <Button color="red.9" loading={remove.isPending} onClick={confirmDelete}>
              {t('criteria.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** The panel for one module, opened from the course editor's module list. */
export function AssessmentDialog({ module, onClose }: { module: Pick<CourseModule, 'id' | 'title'>; onClose: () => void }) {
  const { t } = useTranslation('assessments');
  const assessment = useModuleAssessment(module.id);
  return (
    <Modal opened onClose={onClose} title={t('editor.title', { title: module.title })} size="xl" closeButtonProps={{ 'aria-label': t('close') }}>
      {assessment.isPending ? (
        <Group justify="center" py="lg" role="status">
          <Loader size="sm" aria-hidden />
          <Text>{t('loading')}</Text>
        </Group>
      ) : assessment.isError ? (
        <Text c="red.8">{errorDescription(assessment.error, t('loadFailed'))}</Text>
      ) : (
        <Stack gap="md">
          <SettingsForm moduleId={module.id} settings={assessment.data.settings} />
          <Divider />
          <CriteriaList moduleId={module.id} criteria={assessment.data.criteria} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

export default AssessmentDialog;
