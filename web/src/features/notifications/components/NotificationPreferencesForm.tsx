// Email preferences for notifications, on the profile page: per kind, email on or off.
// Overdue and expiry notices always send email (the switches are on and disabled, with the reason);
// every notice shows under the bell whatever is chosen here. The emails are in English (en-GB) for now:
// the server offers no other email language yet.
import { Alert, Button, Group, Stack, Switch, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MANDATORY_NOTIFICATION_KINDS,
  NOTIFICATION_KINDS,
  type NotificationKind,
} from '@shared/notifications.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { labelOf } from '@/lib/i18n/labels';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useNotificationPreferences, useSaveNotificationPreferences } from '../api/notifications';

/** The server's name of a switch's field (a key, not text). */
const fieldOf = (kind: NotificationKind) => `email.${kind}`;

export function NotificationPreferencesForm({ userId }: { userId: string }) {
  const { t } = useTranslation('notifications');
  const { data, isPending, isError } = useNotificationPreferences(userId);
  const save = useSaveNotificationPreferences(userId);
  // The switches as changed here; until then, as saved.
  const [edited, setEdited] = useState<Record<NotificationKind, boolean> | null>(null);
  const email = edited ?? data?.email ?? null;
  const [errors, setErrors] = useState<Record<string, string>>({});

  if (isError) return <Alert color="red" title={t('preferences.loadFailed')}>{t('preferences.tryLater')}</Alert>;
  if (isPending || !email) return <Text size="sm">{t('preferences.loading')}</Text>;

  return (
    <form
      noValidate
      aria-label={t('preferences.formLabel')}
      onSubmit={(event) => {
        event.preventDefault();
        setErrors({});
        save.mutate(
          { language: 'en-GB', email },
          {
            onSuccess: () => notifySuccess(t('preferences.savedTitle'), t('preferences.savedMessage'), { action: 'notification-preferences' }),
            onError: (error) => {
              if (error instanceof ApiError && error.fields) setErrors(error.fields);
              notifyFailure(t('preferences.saveFailedTitle'), errorDescription(error, t('preferences.tryAgain')), { action: 'notification-preferences' });
            },
          },
        );
      }}
    >
      <Stack gap="sm">
        <Text size="sm">{t('preferences.intro')}</Text>
        {NOTIFICATION_KINDS.map((kind) => {
          const mandatory = MANDATORY_NOTIFICATION_KINDS.includes(kind);
          return (
            <Switch
              key={kind}
              label={labelOf('notificationKind', kind)}
              description={mandatory ? t('preferences.alwaysEmailed') : undefined}
              checked={mandatory ? true : email[kind]}
              disabled={mandatory}
              // Disabled because it cannot change, but read as normal text: it says what is always sent.
              styles={mandatory ? { label: { color: 'var(--mantine-color-text)', cursor: 'default' } } : undefined}
              error={errors[fieldOf(kind)]}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setEdited({ ...email, [kind]: checked });
              }}
            />
          );
        })}
        <Text size="sm" c="dimmed">{t('preferences.language')}</Text>
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('preferences.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
