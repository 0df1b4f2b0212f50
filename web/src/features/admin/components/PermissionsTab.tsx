// Permissions tab: role cards, a read-only role × service matrix computed in
// SQL (checked: every user of the role holds it; indeterminate: some do), and an Edit dialog that
// starts from the role's preset and replaces the services of every user with that role.
import { useState } from 'react';
import { Button, Card, Checkbox, Group, Modal, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { ROLE_SERVICE_PRESETS } from '@shared/admin.ts';
import { ROLES, type Role } from '@shared/domain.ts';
import { SERVICE_CODES, type ServiceCode } from '@shared/services.ts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { i18n } from '@/lib/i18n/i18n';
import { labelOf } from '@/lib/i18n/labels';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useRolePermissions, useSetRoleServices } from '../api/roles';
import { RoleBadge } from './RoleBadge';

/**
 * What saving will do, said before saving: the count comes from the matrix's data. One sentence per
 * role and case (each language names the role its own way); `t` of the admin namespace, the page's by default.
 */
export function replacementWarning(role: Role, users: number | undefined, t: TFunction<'admin'> = i18n.getFixedT(null, 'admin')): string {
  if (users === undefined) return t(`permissionsTab.warning.${role}.every`);
  if (users === 0) return t(`permissionsTab.warning.${role}.none`);
  if (users === 1) return t(`permissionsTab.warning.${role}.only`);
  return t(`permissionsTab.warning.${role}.all`, { count: users });
}

function EditPermissionsDialog({ role, users, onClose }: { role: Role | null; users: number | undefined; onClose: () => void }) {
  const { t } = useTranslation('admin');
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
        notifySuccess(t('permissionsTab.updated'), t('permissionsTab.updatedMessage', { role: labelOf('role', role), count: result.updated }));
        onClose();
      },
      onError: (error) => notifyFailure(t('permissionsTab.updateFailed'), errorDescription(error, t('permissionsTab.updateFailedMessage'))),
    });
  };
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('userDialogs.closeDialog') }}
      opened={role !== null}
      onClose={onClose}
      title={role ? t('permissionsTab.editTitle', { role: labelOf('role', role) }) : ''}
      centered
    >
      <Stack>
        {role ? <Text size="sm" fw={500} data-testid="replacement-warning">{replacementWarning(role, users, t)}</Text> : null}
        <Checkbox.Group label={t('permissionsTab.services')} value={selected} onChange={(value) => setSelected(value as ServiceCode[])}>
          <Stack gap="xs" mt="xs">
            {SERVICE_CODES.map((code) => <Checkbox key={code} value={code} label={`${code} – ${labelOf('service', code)}`} />)}
          </Stack>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>{t('userDialogs.cancel')}</Button>
          <Button onClick={submit} loading={save.isPending}>{t('permissionsTab.save')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function PermissionsTab() {
  const { t } = useTranslation('admin');
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
                <Title order={3} size="h4">{labelOf('role', role)}</Title>
                <RoleBadge role={role} />
              </Group>
              <Text size="sm" mb="sm">{t(`permissionsTab.roleDescriptions.${role}`)}</Text>
              <Text size="sm" c="dimmed" mb="md">{row ? t('permissionsTab.userCount', { count: row.users }) : '\u00a0'}</Text>
              <Button variant="default" onClick={() => setEditing(role)} aria-label={t('permissionsTab.editLabel', { role: labelOf('role', role) })}>
                {t('permissionsTab.edit')}
              </Button>
            </Card>
          );
        })}
      </SimpleGrid>
      {isError ? <Text c="red.8">{errorDescription(error, t('permissionsTab.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('permissionsTab.loading')}</Text> : null}
      {data ? (
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label={t('permissionsTab.tableLabel')} withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('permissionsTab.role')}</Table.Th>
                {SERVICE_CODES.map((code) => <Table.Th key={code} title={labelOf('service', code)}>{code}</Table.Th>)}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((row) => (
                <Table.Tr key={row.role}>
                  <Table.Th scope="row">{labelOf('role', row.role)}</Table.Th>
                  {SERVICE_CODES.map((code) => {
                    const holding = row.services[code];
                    return (
                      <Table.Td key={code}>
                        <Checkbox
                          readOnly
                          checked={holding === 'all'}
                          indeterminate={holding === 'some'}
                          aria-label={t(`permissionsTab.cell.${holding}`, { role: labelOf('role', row.role), code })}
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
        <Group gap="lg" component="ul" aria-label={t('permissionsTab.legend')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          <li><Checkbox readOnly checked label={t('permissionsTab.legendAll')} /></li>
          <li><Checkbox readOnly indeterminate label={t('permissionsTab.legendSome')} /></li>
          <li><Checkbox readOnly checked={false} label={t('permissionsTab.legendNone')} /></li>
        </Group>
      ) : null}
      <EditPermissionsDialog role={editing} users={data?.find((r) => r.role === editing)?.users} onClose={() => setEditing(null)} />
    </Stack>
  );
}
