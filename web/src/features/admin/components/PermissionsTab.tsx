// Permissions tab: role cards, a read-only role × service matrix computed in
// SQL (checked: every user of the role holds it; indeterminate: some do), and an Edit dialog that
// starts from the role's preset and replaces the services of every user with that role.
import { useState } from 'react';
import { Button, Card, Checkbox, Group, Modal, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { ROLE_DESCRIPTIONS, ROLE_SERVICE_PRESETS } from '@shared/admin.ts';
import { ROLE_LABELS, ROLES, type Role } from '@shared/domain.ts';
import { SERVICE_CODES, serviceLabel, type ServiceCode } from '@shared/services.ts';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useRolePermissions, useSetRoleServices } from '../api/roles';
import { RoleBadge } from './RoleBadge';

const ROLE_PLURALS: Record<Role, [string, string]> = {
  ADMIN: ['administrator', 'administrators'],
  INSTRUCTOR: ['instructor', 'instructors'],
  STUDENT: ['student', 'students'],
};

/** What saving will do, said before saving: the count comes from the matrix's data. */
export function replacementWarning(role: Role, users: number | undefined): string {
  const [one, many] = ROLE_PLURALS[role];
  if (users === undefined) return `Saving replaces the services of every ${one}.`;
  if (users === 0) return `No user is ${/^[aeiou]/.test(one) ? 'an' : 'a'} ${one} yet: saving changes nobody's services.`;
  if (users === 1) return `This replaces the services of the only ${one}.`;
  return `This replaces the services of all ${users} ${many}.`;
}

function EditPermissionsDialog({ role, users, onClose }: { role: Role | null; users: number | undefined; onClose: () => void }) {
  const [selected, setSelected] = useState<ServiceCode[]>([]);
  const [openedFor, setOpenedFor] = useState<Role | null>(null);
  const save = useSetRoleServices();
  // Each opening starts from the role's preset services, so an edit begins from the usual answer.
  if (role !== openedFor) {
    setOpenedFor(role);
    if (role) setSelected(ROLE_SERVICE_PRESETS[role]);
  }
  const submit = () => {
    if (!role) return;
    save.mutate({ role, services: selected }, {
      onSuccess: (result) => {
        notifySuccess('Permissions updated', `${ROLE_LABELS[role]} services saved for ${result.updated} ${result.updated === 1 ? 'user' : 'users'}.`);
        onClose();
      },
      onError: (error) => notifyFailure('Error updating permissions', errorDescription(error, 'An error occurred while updating permissions.')),
    });
  };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={role !== null} onClose={onClose} title={role ? `Edit ${ROLE_LABELS[role]} Permissions` : ''} centered>
      <Stack>
        {role ? <Text size="sm" fw={500} data-testid="replacement-warning">{replacementWarning(role, users)}</Text> : null}
        <Checkbox.Group label="Services" value={selected} onChange={(value) => setSelected(value as ServiceCode[])}>
          <Stack gap="xs" mt="xs">
            {SERVICE_CODES.map((code) => <Checkbox key={code} value={code} label={`${code} – ${serviceLabel(code)}`} />)}
          </Stack>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button onClick={submit} loading={save.isPending}>Save Permissions</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function PermissionsTab() {
  const { data, isPending, isError, error } = useRolePermissions();
  const [editing, setEditing] = useState<Role | null>(null);
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {ROLES.map((role) => {
          const row = data?.find((r) => r.role === role);
          return (
            <Card key={role} withBorder padding="lg">
              <Group justify="space-between" mb="xs">
                <Title order={3} size="h4">{ROLE_LABELS[role]}</Title>
                <RoleBadge role={role} />
              </Group>
              <Text size="sm" mb="sm">{ROLE_DESCRIPTIONS[role]}</Text>
              <Text size="sm" c="dimmed" mb="md">{row ? `${row.users} ${row.users === 1 ? 'user' : 'users'}` : '\u00a0'}</Text>
              <Button variant="default" onClick={() => setEditing(role)} aria-label={`Edit ${ROLE_LABELS[role]} permissions`}>Edit</Button>
            </Card>
          );
        })}
      </SimpleGrid>
      {isError ? <Text c="red.8">{errorDescription(error, 'Failed to load permissions')}</Text> : null}
      {isPending ? <Text>Loading permissions…</Text> : null}
      {data ? (
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label="Role service permissions" withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Role</Table.Th>
                {SERVICE_CODES.map((code) => <Table.Th key={code} title={serviceLabel(code)}>{code}</Table.Th>)}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((row) => (
                <Table.Tr key={row.role}>
                  <Table.Th scope="row">{ROLE_LABELS[row.role]}</Table.Th>
                  {SERVICE_CODES.map((code) => {
                    const holding = row.services[code];
                    const state = holding === 'all' ? 'all users' : holding === 'some' ? 'some users' : 'no users';
                    return (
                      <Table.Td key={code}>
                        <Checkbox
                          readOnly
                          checked={holding === 'all'}
                          indeterminate={holding === 'some'}
                          aria-label={`${ROLE_LABELS[row.role]} ${code}: ${state}`}
                          data-holding={holding}
                          data-cell={`${row.role}-${code}`}
                        />
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {data ? (
        <Group gap="lg" component="ul" aria-label="Legend" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          <li><Checkbox readOnly checked label="Every user of the role holds the service" /></li>
          <li><Checkbox readOnly indeterminate label="Some users of the role hold it" /></li>
          <li><Checkbox readOnly checked={false} label="No user of the role holds it" /></li>
        </Group>
      ) : null}
      <EditPermissionsDialog role={editing} users={data?.find((r) => r.role === editing)?.users} onClose={() => setEditing(null)} />
    </Stack>
  );
}
