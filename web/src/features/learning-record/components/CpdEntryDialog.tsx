// Add or edit a CPD activity: a modal form with labelled fields, checked in the browser with the
// shared schema (the server checks the same rules and its field messages are shown the same way).
import { useEffect, useEffectEvent } from 'react';
import { Button, Group, Modal, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { CPD_ACTIVITY_MAX, CPD_HOURS_MAX, CPD_HOURS_MIN, CPD_TEXT_MAX, type CpdEntry, cpdEntrySchema, londonToday } from '@shared/cpd.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
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

export interface CpdEntryDialogProps {
  opened: boolean;
  /** The entry to edit; null to add a new one. */
  entry: CpdEntry | null;
  onClose: () => void;
}

export function CpdEntryDialog({ opened, entry, onClose }: CpdEntryDialogProps) {
  const create = useCreateCpdEntry();
  const update = useUpdateCpdEntry();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: blank(),
    validate: translatedResolver(cpdEntrySchema, { errorPriority: 'first' }),
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
  const submit = form.onSubmit((values) => {
    const input = cpdEntrySchema.parse(values);
    const handlers = {
      onSuccess: () => {
        notifySuccess(entry ? 'CPD activity updated' : 'CPD activity added', `${input.activity} is in your learning record.`);
        onClose();
      },
      onError: (error: Error) => {
        if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
        notifyFailure('The activity could not be saved', errorDescription(error, 'Please try again.'));
      },
    };
    if (entry) update.mutate({ id: entry.id, input }, handlers);
    else create.mutate(input, handlers);
  });

  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
      opened={opened}
      onClose={onClose}
      title={entry ? 'Edit CPD activity' : 'Add CPD activity'}
      centered
      size="lg"
    >
      <form onSubmit={submit} noValidate aria-label={entry ? 'Edit CPD activity' : 'Add CPD activity'}>
        <Stack>
          <Group grow align="flex-start">
            <TextInput label="Date" type="date" required max={londonToday()} {...form.getInputProps('activityDate')} />
            <NumberInput
              label="Hours"
              required
              min={CPD_HOURS_MIN}
              max={CPD_HOURS_MAX}
              step={0.25}
              decimalScale={2}
              description="In quarter hours, e.g. 1.5"
              {...form.getInputProps('hours')}
            />
          </Group>
          <TextInput label="Activity" required maxLength={CPD_ACTIVITY_MAX} description="For example a study day, a course elsewhere or reading" {...form.getInputProps('activity')} />
          <Textarea label="What I learnt" required autosize minRows={3} maxRows={10} maxLength={CPD_TEXT_MAX} {...form.getInputProps('learnt')} />
          <Textarea
            label="Reflection"
            description="Optional: how it will change your practice"
            autosize
            minRows={3}
            maxRows={10}
            maxLength={CPD_TEXT_MAX}
            {...form.getInputProps('reflection')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={pending}>{entry ? 'Save changes' : 'Add activity'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
