// An organisation's automatic provisioning (SCIM 2.0): the base URL its identity provider (Microsoft
// Entra ID, Okta) calls, and the tokens it calls with. A new token is shown once, in its dialog (only
// its hash is kept); a revoked token stops working at once and stays in the list, with when.
import { useState } from 'react';
import { Alert, Badge, Button, CopyButton, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Organisation } from '@shared/organisations.ts';
import { type CreatedScimToken, type ScimTokenItem, scimTokenCreateSchema } from '@shared/scim.ts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ApiError, errorDescription } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCreateScimToken, useRevokeScimToken, useScimSettings } from '../api/provisioning';
import { useFocusRequest } from '../hooks/use-focus-request';

const CREATE_BUTTON = 'scim-token-create';
/** The value in monospace (it is copied character for character), the label as every other. */
const MONOSPACE_INPUT = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };
const revokeButton = (id: string) => `scim-token-revoke-${id}`;

export function ProvisioningPanel({ organisation }: { organisation: Pick<Organisation, 'id' | 'name'> }) {
  const { t } = useTranslation('organisations');
  const { data, isPending, isError, error } = useScimSettings(organisation.id);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ScimTokenItem | null>(null);
  const revoke = useRevokeScimToken(organisation.id);
  const focus = useFocusRequest();
  const headingId = `organisation-${organisation.id}-provisioning`;

  return (
    <Stack component="section" aria-labelledby={headingId} mt="xl">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3" id={headingId}>{t('provisioningPanel.heading')}</Title>
          <Text c="dimmed" size="sm" maw={720}>
            {t('provisioningPanel.intro', { name: organisation.name })}
          </Text>
        </div>
        <Button data-focus-id={CREATE_BUTTON} leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          {t('provisioningPanel.createToken')}
        </Button>
      </Group>
      {isError ? <Text c="red.8">{errorDescription(error, t('provisioningPanel.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('provisioningPanel.loading')}</Text> : null}
      {data ? (
        <>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput label={t('provisioningPanel.baseUrl')} value={data.baseUrl} readOnly styles={MONOSPACE_INPUT} style={{ flex: 1, minWidth: 0 }} />
            <CopyButton value={data.baseUrl}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy} aria-label={t('provisioningPanel.copyBaseUrl')}>{copied ? t('shared.copied') : t('shared.copy')}</Button>
              )}
            </CopyButton>
          </Group>
          {data.tokens.length === 0 ? (
            <Text c="dimmed">{t('provisioningPanel.noTokens')}</Text>
          ) : (
            // Wider than a phone: the region that scrolls sideways takes the focus, so it scrolls from
            // the keyboard too when no row has a button (WCAG 2.1.1).
            <Table.ScrollContainer
              minWidth={640}
              scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('provisioningPanel.tokensRegion') } }}
            >
              <Table striped aria-label={t('provisioningPanel.tokensOf', { name: organisation.name })}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('provisioningPanel.label')}</Table.Th>
                    <Table.Th>{t('provisioningPanel.endsIn')}</Table.Th>
                    <Table.Th>{t('provisioningPanel.created')}</Table.Th>
                    <Table.Th>{t('provisioningPanel.lastUsed')}</Table.Th>
                    <Table.Th>{t('provisioningPanel.status')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.tokens.map((token) => (
                    <Table.Tr key={token.id} data-token-label={token.label}>
                      <Table.Td><Text fw={500} style={{ overflowWrap: 'anywhere' }}>{token.label}</Text></Table.Td>
                      <Table.Td><Text span ff="monospace">…{token.hint}</Text></Table.Td>
                      <Table.Td>
                        {formatDate(token.createdAt)}
                        {token.createdByName ? <Text size="sm" c="dimmed">{t('provisioningPanel.createdBy', { name: token.createdByName })}</Text> : null}
                      </Table.Td>
                      <Table.Td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : t('provisioningPanel.neverUsed')}</Table.Td>
                      <Table.Td>
                        {token.revokedAt ? (
                          <Badge color="gray.7" variant="filled">{t('provisioningPanel.revokedOn', { date: formatDate(token.revokedAt) })}</Badge>
                        ) : (
                          <Group gap="xs" wrap="nowrap">
                            <Badge color="teal.9" variant="filled">{t('provisioningPanel.active')}</Badge>
                            <Button
                              size="xs"
                              variant="default"
                              data-focus-id={revokeButton(token.id)}
                              aria-label={t('provisioningPanel.revokeLabel', { label: token.label })}
                              onClick={() => setRevoking(token)}
                            >
                              {t('provisioningPanel.revoke')}
                            </Button>
                          </Group>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </>
      ) : null}
      {creating ? (
        <CreateTokenDialog
          organisationId={organisation.id}
          onDone={(created) => {
            setCreating(false);
            focus(created ? revokeButton(created.item.id) : CREATE_BUTTON);
          }}
        />
      ) : null}
      <ConfirmDialog
        opened={revoking !== null}
        message={revoking ? t('provisioningPanel.revokeConfirm', { label: revoking.label }) : ''}
        confirmLabel={t('provisioningPanel.revokeToken')}
        loading={revoke.isPending}
        onClose={() => {
          const token = revoking;
          setRevoking(null);
          if (token) focus(revokeButton(token.id));
        }}
        onConfirm={() => {
          if (!revoking) return;
          const token = revoking;
          revoke.mutate(token.id, {
            onSuccess: () => {
              setRevoking(null);
              notifySuccess(t('provisioningPanel.revokedTitle'), t('provisioningPanel.revokedMessage', { label: token.label }), { action: 'scim-token' });
              focus(CREATE_BUTTON);
            },
            onError: (failure) => {
              setRevoking(null);
              notifyFailure(t('provisioningPanel.notRevoked'), errorDescription(failure, t('provisioningPanel.revokeFailed')), { action: 'scim-token' });
              focus(CREATE_BUTTON);
            },
          });
        }}
      />
    </Stack>
  );
}

/** Name a new token, then see it once. */
function CreateTokenDialog({ organisationId, onDone }: {
  organisationId: string;
  onDone: (created: CreatedScimToken | null) => void;
}) {
  const { t } = useTranslation('organisations');
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedScimToken | null>(null);
  const create = useCreateScimToken(organisationId);
  const close = () => onDone(created);
  return (
    <Modal
      opened
      onClose={close}
      title={created ? t('createTokenDialog.copyNow') : t('createTokenDialog.title')}
      centered
      returnFocus={false}
      closeButtonProps={{ 'aria-label': t('shared.closeDialog') }}
    >
      {created ? (
        <Stack>
          <Text>{t('createTokenDialog.shownOnce')}</Text>
          <TextInput label={t('createTokenDialog.token')} value={created.token} readOnly styles={MONOSPACE_INPUT} data-autofocus data-testid="scim-token" />
          <Group justify="flex-end">
            <CopyButton value={created.token}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>{copied ? t('shared.copied') : t('createTokenDialog.copyToken')}</Button>
              )}
            </CopyButton>
            <Button onClick={close}>{t('createTokenDialog.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          aria-label={t('createTokenDialog.title')}
          onSubmit={(event) => {
            event.preventDefault();
            setFailure(null);
            // The shared rule, with its messages (the API checks the same).
            const checked = scimTokenCreateSchema.safeParse({ label });
            if (!checked.success) {
              setError(checked.error.issues[0].message);
              return;
            }
            setError(null);
            create.mutate(checked.data, {
              onSuccess: setCreated,
              onError: (failed) => {
                const field = failed instanceof ApiError ? failed.fields?.label : undefined;
                if (field) setError(field);
                else setFailure(errorDescription(failed, t('createTokenDialog.createFailed')));
              },
            });
          }}
        >
          <Stack>
            {failure ? <Alert color="red" title={t('createTokenDialog.notCreated')}>{failure}</Alert> : null}
            <TextInput
              label={t('provisioningPanel.label')}
              description={t('createTokenDialog.labelDescription')}
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
              error={error}
              required
              withAsterisk={false}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>{t('shared.cancel')}</Button>
              <Button type="submit" loading={create.isPending}>{t('provisioningPanel.createToken')}</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
