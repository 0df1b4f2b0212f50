// An organisation's automatic provisioning (SCIM 2.0): the base URL its identity provider (Microsoft
// Entra ID, Okta) calls, and the tokens it calls with. A new token is shown once, in its dialog (only
// its hash is kept); a revoked token stops working at once and stays in the list, with when.
import { useState } from 'react';
import { Alert, Badge, Button, CopyButton, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
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
          <Title order={2} size="h3" id={headingId}>Automatic provisioning (SCIM)</Title>
          <Text c="dimmed" size="sm" maw={720}>
            Your identity provider (for example Microsoft Entra ID) can create, update and deactivate the people of{' '}
            {organisation.name} through SCIM 2.0. Give it the base URL below and a token.
          </Text>
        </div>
        <Button data-focus-id={CREATE_BUTTON} leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Create token
        </Button>
      </Group>
      {isError ? <Text c="red.8">{errorDescription(error, 'Failed to load the provisioning settings')}</Text> : null}
      {isPending ? <Text>Loading provisioning settings…</Text> : null}
      {data ? (
        <>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput label="SCIM base URL" value={data.baseUrl} readOnly styles={MONOSPACE_INPUT} style={{ flex: 1, minWidth: 0 }} />
            <CopyButton value={data.baseUrl}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy} aria-label="Copy the SCIM base URL">{copied ? 'Copied' : 'Copy'}</Button>
              )}
            </CopyButton>
          </Group>
          {data.tokens.length === 0 ? (
            <Text c="dimmed">No tokens yet. Create one for your identity provider.</Text>
          ) : (
            // Wider than a phone: the region that scrolls sideways takes the focus, so it scrolls from
            // the keyboard too when no row has a button (WCAG 2.1.1).
            <Table.ScrollContainer
              minWidth={640}
              scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'SCIM tokens (scrolls sideways)' } }}
            >
              <Table striped aria-label={`SCIM tokens of ${organisation.name}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Label</Table.Th>
                    <Table.Th>Ends in</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>Last used</Table.Th>
                    <Table.Th>Status</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.tokens.map((token) => (
                    <Table.Tr key={token.id} data-token-label={token.label}>
                      <Table.Td><Text fw={500} style={{ overflowWrap: 'anywhere' }}>{token.label}</Text></Table.Td>
                      <Table.Td><Text span ff="monospace">…{token.hint}</Text></Table.Td>
                      <Table.Td>
                        {formatDate(token.createdAt)}
                        {token.createdByName ? <Text size="sm" c="dimmed">by {token.createdByName}</Text> : null}
                      </Table.Td>
                      <Table.Td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never'}</Table.Td>
                      <Table.Td>
                        {token.revokedAt ? (
                          <Badge color="gray.7" variant="filled">Revoked {formatDate(token.revokedAt)}</Badge>
                        ) : (
                          <Group gap="xs" wrap="nowrap">
                            <Badge color="teal.9" variant="filled">Active</Badge>
                            <Button
                              size="xs"
                              variant="default"
                              data-focus-id={revokeButton(token.id)}
                              aria-label={`Revoke ${token.label}`}
                              onClick={() => setRevoking(token)}
                            >
                              Revoke
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
        message={revoking ? `Revoke ${revoking.label}? Your identity provider can no longer create or change people with it.` : ''}
        confirmLabel="Revoke token"
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
              notifySuccess('Token revoked', `${token.label} no longer works.`, { action: 'scim-token' });
              focus(CREATE_BUTTON);
            },
            onError: (failure) => {
              setRevoking(null);
              notifyFailure('Not revoked', errorDescription(failure, 'The token could not be revoked.'), { action: 'scim-token' });
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
      title={created ? 'Copy the token now' : 'Create a SCIM token'}
      centered
      returnFocus={false}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {created ? (
        <Stack>
          <Text>
            Give this token to your identity provider with the base URL. It is shown only this once: when you close this
            window it cannot be seen again. If it is lost, create another and revoke this one.
          </Text>
          <TextInput label="Token" value={created.token} readOnly styles={MONOSPACE_INPUT} data-autofocus data-testid="scim-token" />
          <Group justify="flex-end">
            <CopyButton value={created.token}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy token'}</Button>
              )}
            </CopyButton>
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          aria-label="Create a SCIM token"
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
                else setFailure(errorDescription(failed, 'The token could not be created.'));
              },
            });
          }}
        >
          <Stack>
            {failure ? <Alert color="red" title="Not created">{failure}</Alert> : null}
            <TextInput
              label="Label"
              description="What it is for, to tell tokens apart"
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
              error={error}
              required
              withAsterisk={false}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>Cancel</Button>
              <Button type="submit" loading={create.isPending}>Create token</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
