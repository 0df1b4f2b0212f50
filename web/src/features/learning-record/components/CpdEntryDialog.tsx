// Add or edit a CPD activity: a modal form with labelled fields, checked in the browser with the
// shared schema (the server checks the same rules and its field messages are shown the same way).
import { useEffect, useEffectEvent } from 'react';
import { Button, Group, Modal, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useTranslation } from 'react-i18next';
import {
  CPD_ACTIVITY_MAX,
  CPD_HOURS_MAX,
  CPD_HOURS_MIN,
  CPD_MESSAGES,
  CPD_TEXT_MAX,
  type CpdEntry,
  cpdEntrySchema,
  londonToday,
} from '@shared/cpd.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { i18n } from '@/lib/i18n/i18n';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCreateCpdEntry, useUpdateCpdEntry } from '../api/learning-record';

type Values = {
  activityDate: string;
  activity: string;
  hours: number | string;
  learnt: string;
  reflection: string;
};

const blank = (): Values => ({ activityDate: londonToday(), activity: '', hours: 1, learnt: '', reflection: '' });

/** The shared schema's messages (CPD_MESSAGES) by their text, to show each in the page's language. */
const MESSAGE_KEYS = new Map<string, keyof typeof CPD_MESSAGES>(
  (Object.entries(CPD_MESSAGES) as [keyof typeof CPD_MESSAGES, string][]).map(([key, message]) => [message, key]),
);
const MESSAGE_VALUES = { min: CPD_HOURS_MIN, max: CPD_HOURS_MAX, activityMax: CPD_ACTIVITY_MAX, textMax: CPD_TEXT_MAX };
const checkEntry = zod4Resolver(cpdEntrySchema, { errorPriority: 'first' });

/** The browser's check with the shared schema, its messages from the catalogue (in the language of the moment). */
function validate(values: Values): FormErrors {
  const t = i18n.getFixedT(null, 'learning-record');
  return Object.fromEntries(
    Object.entries(checkEntry(values)).map(([field, message]) => {
      const key = typeof message === 'string' ? MESSAGE_KEYS.get(message) : undefined;
      return [field, key ? t(`cpdEntryDialog.errors.${key}`, MESSAGE_VALUES) : message];
    }),
  );
}

export interface CpdEntryDialogProps {
  opened: boolean;
  /** The entry to edit; null to add a new one. */
  entry: CpdEntry | null;
  onClose: () => void;
}

export function CpdEntryDialog({ opened, entry, onClose }: CpdEntryDialogProps) {
  const { t } = useTranslation('learning-record');
  const create = useCreateCpdEntry();
  const update = useUpdateCpdEntry();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: blank(),
    validate,
  });

  const resetForm = useEffectEvent(() => {
    if (!opened) return;
    form.setValues(entry
      ? { activityDate: entry.activityDate, activity: entry.activity, hours: entry.hours, learnt: entry.learnt, reflection: entry.reflection }
      : blank());
    form.clearErrors();
  });
  // Only when the dialog opens or shows another entry: a refetch must not reset what is typed.
  useEffect(() => resetForm(), [opened, entry?.id]);

  const pending = create.isPending || update.isPending;
  // Each field's value, handlers and error (the field names are keys, not text).
  const inputs = {
    activityDate: form.getInputProps('activityDate'),
    hours: form.getInputProps('hours'),
    activity: form.getInputProps('activity'),
    learnt: form.getInputProps('learnt'),
    reflection: form.getInputProps('reflection'),
  };
  const submit = form.onSubmit((values) => {
    const input = cpdEntrySchema.parse(values);
    const handlers = {
      onSuccess: () => {
        notifySuccess(
          entry ? t('cpdEntryDialog.updated') : t('cpdEntryDialog.added'),
          t('cpdEntryDialog.savedMessage', { activity: input.activity }),
        );
        onClose();
      },
      onError: (error: Error) => {
        if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
        notifyFailure(t('cpdEntryDialog.saveFailed'), errorDescription(error, t('cpdEntryDialog.tryAgain')));
      },
    };
    if (entry) update.mutate({ id: entry.id, input }, handlers);
    else create.mutate(input, handlers);
  });

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('cpdEntryDialog.closeDialog') }}
      opened={opened}
      onClose={onClose}
      title={entry ? t('cpdEntryDialog.editTitle') : t('cpdEntryDialog.addTitle')}
      centered
      size="lg"
    >
      <form onSubmit={submit} noValidate aria-label={entry ? t('cpdEntryDialog.editTitle') : t('cpdEntryDialog.addTitle')}>
        <Stack>
          <Group grow align="flex-start">
            <TextInput label={t('cpdEntryDialog.date')} type="date" required max={londonToday()} {...inputs.activityDate} />
            <NumberInput
              label={t('cpdEntryDialog.hours')}
              required
              min={CPD_HOURS_MIN}
              max={CPD_HOURS_MAX}
              step={0.25}
              decimalScale={2}
              description={t('cpdEntryDialog.hoursDescription')}
              {...inputs.hours}
            />
          </Group>
          <TextInput
            label={t('cpdEntryDialog.activity')}
            required
            maxLength={CPD_ACTIVITY_MAX}
            description={t('cpdEntryDialog.activityDescription')}
            {...inputs.activity}
          />
          <Textarea label={t('cpdEntryDialog.learnt')} required autosize minRows={3} maxRows={10} maxLength={CPD_TEXT_MAX} {...inputs.learnt} />
          <Textarea
            label={t('cpdEntryDialog.reflection')}
            description={t('cpdEntryDialog.reflectionDescription')}
            autosize
            minRows={3}
            maxRows={10}
            maxLength={CPD_TEXT_MAX}
            {...inputs.reflection}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('cpdEntryDialog.cancel')}</Button>
            <Button type="submit" loading={pending}>{entry ? t('cpdEntryDialog.saveChanges') : t('cpdEntryDialog.addActivity')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
