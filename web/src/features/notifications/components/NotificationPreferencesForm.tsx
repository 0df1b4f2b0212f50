// Email preferences for notifications, on the profile page: per kind, email on or off.
// Overdue and expiry notices always send email (the switches are on and disabled, with the reason);
// every notice shows under the bell whatever is chosen here. Language: en-GB for now.
import { Alert, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import {
  MANDATORY_NOTIFICATION_KINDS,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  type NotificationKind,
} from '@shared/notifications.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useNotificationPreferences, useSaveNotificationPreferences } from '../api/notifications';

export function NotificationPreferencesForm({ userId }: { userId: string }) {
  const { data, isPending, isError } = useNotificationPreferences(userId);
  const save = useSaveNotificationPreferences(userId);
  // The switches as changed here; until then, as saved.
  const [edited, setEdited] = useState<Record<NotificationKind, boolean> | null>(null);
  const email = edited ?? data?.email ?? null;
  const [errors, setErrors] = useState<Record<string, string>>({});

  if (isError) return <Alert color="red" title="Could not load your notification preferences">Please try again later.</Alert>;
  if (isPending || !email) return <Text size="sm">Loading your notification preferences…</Text>;

  return (
    <form
      noValidate
      aria-label="Email notifications"
      onSubmit={(event) => {
        event.preventDefault();
        setErrors({});
        save.mutate(
          { language: 'en-GB', email },
          {
            onSuccess: () => notifySuccess('Preferences saved', 'Your notification preferences have been saved.', { action: 'notification-preferences' }),
            onError: (error) => {
              if (error instanceof ApiError && error.fields) setErrors(error.fields);
              notifyFailure('Failed to save preferences', errorDescription(error, 'Please try again.'), { action: 'notification-preferences' });
            },
          },
        );
      }}
    >
      <Stack gap="sm">
        <Text size="sm">Every notice appears under the bell. Choose which ones you also get by email.</Text>
        {NOTIFICATION_KINDS.map((kind) => {
          const mandatory = MANDATORY_NOTIFICATION_KINDS.includes(kind);
          return (
            <Switch
              key={kind}
              label={NOTIFICATION_KIND_LABELS[kind]}
              description={mandatory ? 'Always emailed: this cannot be switched off.' : undefined}
              checked={mandatory ? true : email[kind]}
              disabled={mandatory}
              // Disabled because it cannot change, but read as normal text: it says what is always sent.
              styles={mandatory ? { label: { color: 'var(--mantine-color-text)', cursor: 'default' } } : undefined}
              error={errors[`email.${kind}`]}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setEdited({ ...email, [kind]: checked });
              }}
            />
          );
        })}
        <Text size="sm" c="dimmed">Language: English (UK).</Text>
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save preferences
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
