// Add or change a date of a session module: the day and its start and end as London wall-clock times
// (turned into instants by londonInstant, so 10:00 in July and in January are both 10:00 in London),
// a venue (name and address) or an online link, capacity, when booking closes (blank: at the start),
// a note and the trainers (TrainerPicker). Checked by the API's own schema before sending; the server's field errors land on the
// same fields.
import { Button, Group, Modal, NumberInput, SegmentedControl, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { type ClassroomSession, londonInstant, type SessionCreateBody, sessionCreateSchema } from '@shared/sessions.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { loadMessages, translateMessage } from '@/lib/i18n/messages';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCreateSession, useUpdateSession } from '../api/sessions';
import { londonParts, sessionSpan } from '../lib/london';
import { type ChosenTrainer, TrainerPicker } from './TrainerPicker';

export interface SessionFormValues {
  date: string;
  startTime: string;
  endDate: string;
  endTime: string;
  place: 'venue' | 'online';
  venueName: string;
  venueAddress: string;
  onlineUrl: string;
  capacity: number | string;
  closesDate: string;
  closesTime: string;
  note: string;
  trainers: ChosenTrainer[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;

/** The form's values for a date (or a new one: 09:00 to 17:00, 12 places). */
export function sessionFormValues(session?: ClassroomSession): SessionFormValues {
  if (!session) {
    return {
      date: '', startTime: '09:00', endDate: '', endTime: '17:00', place: 'venue', venueName: '', venueAddress: '', onlineUrl: '',
      capacity: 12, closesDate: '', closesTime: '', note: '', trainers: [],
    };
  }
  const start = londonParts(session.startsAt);
  const end = londonParts(session.endsAt);
  // Booking closing at the start is the default: the fields stay blank for it.
  const closes = session.bookingClosesAt === session.startsAt ? null : londonParts(session.bookingClosesAt);
  return {
    date: start.date, startTime: start.time, endDate: end.date === start.date ? '' : end.date, endTime: end.time,
    place: session.venueName ? 'venue' : 'online',
    venueName: session.venueName ?? '', venueAddress: session.venueAddress ?? '', onlineUrl: session.onlineUrl ?? '',
    capacity: session.capacity, closesDate: closes?.date ?? '', closesTime: closes?.time ?? '', note: session.note ?? '',
    trainers: session.trainers.map(({ id, name }) => ({ id, name })),
  };
}

/** The request body of the values, or the errors by form field (English keys of the sessions namespace or the API's messages). */
export function sessionBody(values: SessionFormValues): { body: SessionCreateBody } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!DAY.test(values.date)) errors.date = 'dialog.dateNeeded';
  if (!TIME.test(values.startTime)) errors.startTime = 'dialog.timeNeeded';
  if (!TIME.test(values.endTime)) errors.endTime = 'dialog.timeNeeded';
  if (values.endDate && !DAY.test(values.endDate)) errors.endDate = 'dialog.dateNeeded';
  const closing = values.closesDate || values.closesTime;
  if (closing && !DAY.test(values.closesDate)) errors.closesDate = 'dialog.dateNeeded';
  if (closing && !TIME.test(values.closesTime)) errors.closesTime = 'dialog.timeNeeded';
  if (Object.keys(errors).length > 0) return { errors };
  const venue = values.place === 'venue';
  const body: SessionCreateBody = {
    startsAt: londonInstant(values.date, values.startTime),
    endsAt: londonInstant(values.endDate || values.date, values.endTime),
    venueName: venue ? values.venueName : null,
    venueAddress: venue ? values.venueAddress : null,
    onlineUrl: venue ? null : values.onlineUrl,
    capacity: typeof values.capacity === 'number' ? values.capacity : Number.NaN,
    bookingClosesAt: closing ? londonInstant(values.closesDate, values.closesTime) : null,
    note: values.note,
    trainerIds: values.trainers.map((p) => p.id),
  };
  const checked = sessionCreateSchema.safeParse(body);
  if (checked.success) return { body };
  // The schema's paths are the body's: each goes on the field that set it.
  const fieldOf: Record<string, keyof SessionFormValues> = {
    startsAt: 'startTime', endsAt: 'endTime', bookingClosesAt: 'closesTime', venueName: venue ? 'venueName' : 'onlineUrl', trainerIds: 'trainers',
  };
  for (const issue of checked.error.issues) {
    const name = String(issue.path[0] ?? 'date');
    const field = fieldOf[name] ?? name;
    errors[field] ??= `api:${issue.message}`;
  }
  return { errors };
}

export function SessionDialog({ moduleId, session, onClose }: { moduleId: string; session?: ClassroomSession; onClose: () => void }) {
  const { t } = useTranslation('sessions');
  const create = useCreateSession(moduleId);
  const update = useUpdateSession();
  void loadMessages();
  const say = (message: string) => (message.startsWith('api:') ? translateMessage(message.slice(4)) : t(message));
  const form = useForm<SessionFormValues>({
    mode: 'controlled',
    initialValues: sessionFormValues(session),
    validate: (values) => {
      const result = sessionBody(values);
      return 'errors' in result ? Object.fromEntries(Object.entries(result.errors).map(([k, v]) => [k, say(v)])) : {};
    },
  });
  const saving = create.isPending || update.isPending;

  async function save(values: SessionFormValues) {
    const result = sessionBody(values);
    if ('errors' in result) return;
    try {
      const saved = session
        ? await update.mutateAsync({ id: session.id, input: result.body })
        : await create.mutateAsync(result.body);
      notifySuccess(session ? t('dialog.updated') : t('dialog.created'), sessionSpan(saved.startsAt, saved.endsAt));
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.fields) {
        const fields = error.fields;
        form.setErrors({
          ...fields,
          ...(fields.startsAt ? { startTime: fields.startsAt } : {}),
          ...(fields.endsAt ? { endTime: fields.endsAt } : {}),
          ...(fields.bookingClosesAt ? { closesTime: fields.bookingClosesAt } : {}),
          ...(fields.trainerIds ? { trainers: fields.trainerIds } : {}),
        });
      }
      notifyFailure(t('dialog.saveFailed'), errorDescription(error, t('tryAgain')));
    }
  }

  const title = session ? t('dialog.editTitle') : t('dialog.addTitle');
  const venue = form.values.place === 'venue';
  return (
    <Modal opened onClose={onClose} title={title} size="lg" closeButtonProps={{ 'aria-label': t('closeDialog') }}>
      <form noValidate aria-label={title} onSubmit={form.onSubmit((values) => void save(values))}>
        <Stack gap="md">
          <Text size="sm">{t('dialog.londonTimes')}</Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput type="date" label={t('dialog.date')} required data-autofocus {...form.getInputProps('date')} />
            <TextInput type="time" label={t('dialog.startTime')} required {...form.getInputProps('startTime')} />
            <TextInput type="time" label={t('dialog.endTime')} required {...form.getInputProps('endTime')} />
          </SimpleGrid>
          <TextInput type="date" label={t('dialog.endDate')} description={t('dialog.endDateHint')} {...form.getInputProps('endDate')} />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="session-place-label">{t('dialog.where')}</Text>
            <SegmentedControl
              aria-labelledby="session-place-label"
              data={[{ value: 'venue', label: t('dialog.atVenue') }, { value: 'online', label: t('dialog.online') }]}
              {...form.getInputProps('place')}
            />
          </Stack>
          {venue ? (
            <>
              <TextInput label={t('dialog.venueName')} required {...form.getInputProps('venueName')} />
              <Textarea label={t('dialog.venueAddress')} autosize minRows={2} {...form.getInputProps('venueAddress')} />
            </>
          ) : (
            <TextInput label={t('dialog.onlineUrl')} description={t('dialog.onlineUrlHint')} type="url" required {...form.getInputProps('onlineUrl')} />
          )}
          <NumberInput label={t('dialog.capacity')} required min={1} max={500} allowDecimal={false} allowNegative={false} clampBehavior="none"
            {...form.getInputProps('capacity')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput type="date" label={t('dialog.closesDate')} description={t('dialog.closesHint')} {...form.getInputProps('closesDate')} />
            <TextInput type="time" label={t('dialog.closesTime')} {...form.getInputProps('closesTime')} />
          </SimpleGrid>
          <Textarea label={t('dialog.note')} autosize minRows={2} maxRows={8} {...form.getInputProps('note')} />
          <TrainerPicker
            moduleId={moduleId}
            organisationId={session?.organisationId ?? null}
            value={form.values.trainers}
            onChange={(trainers) => form.setFieldValue('trainers', trainers)}
            error={form.errors.trainers}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('cancel')}</Button>
            <Button type="submit" loading={saving}>{session ? t('dialog.save') : t('dialog.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
