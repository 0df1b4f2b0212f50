// The credentials a learner holds from other issuers: each with its issuer, achievement and dates,
// and Remove (after a confirmation; the focus goes to the section's heading); "Add a credential"
// takes a pasted or uploaded credential, which the server verifies before keeping it.
import { useRef, useState } from 'react';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CredentialJsonInput, parseCredentialJson } from '@/components/CredentialJsonInput';
import { ApiError, errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useAddHeldCredential } from '../api/add-held-credential';
import { PageSpinner } from '@/components/PageSpinner';
import { useHeldCredentials, type HeldCredential } from '../api/get-held-credentials';
import { useRemoveHeldCredential } from '../api/remove-held-credential';

export function HeldCredentials({ userId }: { userId: string }) {
  const { t } = useTranslation('passport');
  const query = useHeldCredentials(userId);
  const heading = useRef<HTMLHeadingElement>(null);
  const [removing, setRemoving] = useState<HeldCredential | null>(null);
  const remove = useRemoveHeldCredential();
  return (
    <Stack gap="md" component="section" aria-labelledby="held-heading">
      <div>
        <Title order={2} size="h3" id="held-heading" ref={heading} tabIndex={-1}>{t('held.heading')}</Title>
        <Text size="sm" c="dimmed">{t('held.intro')}</Text>
      </div>
      {query.isPending ? (
        <PageSpinner label={t('held.loading')} />
      ) : query.isError ? (
        <Alert color="red" title={t('held.loadFailed')}>{errorDescription(query.error, t('card.tryAgain'))}</Alert>
      ) : query.data.items.length === 0 ? (
        <Text>{t('held.none')}</Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {query.data.items.map((h) => (
            <Card key={h.id} withBorder padding="sm" radius="md" component="li" data-held={h.id}>
              <Group justify="space-between" align="flex-start" gap="sm">
                <div style={{ minWidth: 0, flex: 1 }}>
                  <Text fw={700}>{h.achievementName}</Text>
                  <Text size="sm">{t('held.issuer', { issuer: h.issuerName })}</Text>
                  {h.state === 'not-verified' ? <Text size="sm" fw={600} c="red.9">{t('held.notVerified')}</Text> : null}
                  <Text size="sm">
                    {h.state === 'expired' && h.validUntil
                      ? t('held.expiredOn', { date: formatDate(h.validUntil) })
                      : h.validUntil ? t('held.validUntil', { date: formatDate(h.validUntil) }) : t('held.noExpiry')}
                    {' · '}
                    {t('held.added', { date: formatDate(h.verifiedAt) })}
                  </Text>
                </div>
                <Button
                  variant="default"
                  color="red"
                  size="xs"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  aria-label={t('held.removeLabel', { name: h.achievementName })}
                  onClick={() => setRemoving(h)}
                >
                  {t('held.remove')}
                </Button>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      <AddCredentialForm />
      <ConfirmDialog
        opened={removing !== null}
        message={t('held.removeConfirm', { name: removing?.achievementName ?? '' })}
        confirmLabel={t('held.remove')}
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, {
            onSuccess: () => {
              setRemoving(null);
              notifySuccess(t('held.removed'), t('held.removedDetail'), { action: 'passport-held' });
              setTimeout(() => heading.current?.focus(), 0);
            },
            onError: (error) => notifyFailure(t('held.removeFailed'), errorDescription(error, t('card.tryAgain')), { action: 'passport-held' }),
          });
        }}
      />
    </Stack>
  );
}

function AddCredentialForm() {
  const { t } = useTranslation('passport');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddHeldCredential();
  return (
    <Card withBorder padding="md" radius="md">
      <form
        noValidate
        aria-labelledby="add-credential-heading"
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = parseCredentialJson(text);
          if (parsed.error !== undefined) {
            setError(parsed.error);
            return;
          }
          setError(null);
          add.mutate(parsed.credential, {
            onSuccess: (added) => {
              setText('');
              notifySuccess(t('add.added'), t('add.addedDetail', { name: added.heldCredential.achievementName }), { action: 'passport-held' });
            },
            // The server's reason (not signed, revoked, expired...) goes under the box it concerns.
            onError: (failure) =>
              setError(failure instanceof ApiError && failure.status < 500 ? failure.fields?.credential ?? failure.serverMessage : errorDescription(failure, t('card.tryAgain'))),
          });
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h4" id="add-credential-heading">{t('add.heading')}</Title>
          <Text size="sm">{t('add.intro')}</Text>
          <CredentialJsonInput value={text} onChange={setText} error={error} />
          <Group>
            <Button type="submit" loading={add.isPending} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('add.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
