// Users tab: search (name, username, email), service filter, server-side paging,
// Edit, Reset password and Delete per user, and Add New User. Role and status filters; a leaver is
// deactivated (cannot sign in, records kept) and can be reactivated. Once there are
// organisations, filters and columns for organisation (national administrators), unit and manager;
// an organisation's administrator sees their organisation's people only.
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge, Button, Group, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { USER_SEARCH_MATCH_LIMIT, type UserListItem } from '@shared/admin.ts';
import { ROLE_LABELS, ROLES } from '@shared/domain.ts';
import { SERVICE_CODES, serviceLabel, type ServiceCode } from '@shared/services.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { USERS_PAGE_SIZE, useDeleteUser, useSetUserActive, useUsers } from '../api/users';
import { useExportUsers } from '../api/export-users';
import { useOrganisations } from '../api/organisations';
import { useUser } from '@/lib/auth/user';
import { ManagerSelect, OrganisationSelect, UnitSelect } from './PlacementFields';
import { formatDate } from '@/lib/format';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { RoleBadge } from './RoleBadge';
import { AddUserDialog, EditUserDialog, ResetPasswordDialog } from './UserDialogs';

export const serviceFilterData = [
  { value: 'ALL', label: 'All Services' },
  ...SERVICE_CODES.map((code) => ({ value: code, label: serviceLabel(code) })),
];

export const roleFilterData = [
  { value: 'ALL', label: 'All Roles' },
  ...ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })),
];

export const statusFilterData = [
  { value: 'ALL', label: 'All Statuses' },
  { value: 'active', label: 'Active' },
  { value: 'deactivated', label: 'Deactivated' },
];

export function UsersTab({ currentUserId }: { currentUserId: string }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [service, setService] = useState<string>('ALL');
  const [role, setRole] = useState<string>('ALL');
  const [status, setStatus] = useState<string>('ALL');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<UserListItem | null>(null);
  const [deleting, setDeleting] = useState<UserListItem | null>(null);
  const [resetting, setResetting] = useState<UserListItem | null>(null);
  const [adding, setAdding] = useState(false);
  const [switching, setSwitching] = useState<UserListItem | null>(null);
  // An organisation's administrator administers their organisation; a national one
  // filters by any (the columns and filters appear once there is an organisation).
  const me = useUser().data;
  const ownOrganisationId = me?.role === 'ADMIN' ? me.organisation?.id ?? null : null;
  const national = me?.role === 'ADMIN' && !ownOrganisationId;
  // A national administrator's: every organisation; an organisation's: their own.
  const organisations = useOrganisations(national || ownOrganisationId !== null);
  // An organisation's administrator grants their organisation's service only (the database holds
  // them to it); a national one, any.
  const ownService = organisations.data?.find((organisation) => organisation.id === ownOrganisationId)?.service;
  const serviceChoices: ServiceCode[] | undefined = ownOrganisationId === null ? undefined : ownService ? [ownService] : [];
  const placing = Boolean(ownOrganisationId) || (organisations.data?.length ?? 0) > 0;
  const [organisationFilter, setOrganisationFilter] = useState<string | null>(null);
  const [unitFilter, setUnitFilter] = useState<string | null>(null);
  const [managerFilter, setManagerFilter] = useState<{ id: string; label: string } | null>(null);
  const filterOrganisation = ownOrganisationId ?? organisationFilter;
  const filters = {
    search: debounced,
    service: service === 'ALL' ? null : service,
    role: role === 'ALL' ? null : role,
    status: status === 'ALL' ? null : status,
    organisationId: national ? organisationFilter : null,
    unitId: unitFilter,
    managerId: managerFilter?.id ?? null,
    page,
  };
  const { data, isPending, isError, error } = useUsers(filters);
  const remove = useDeleteUser();
  const setActive = useSetUserActive();
  const exportCsv = useExportUsers();
  const filtered = Boolean(filters.search) || filters.service !== null || filters.role !== null || filters.status !== null ||
    filters.organisationId !== null || filters.unitId !== null || filters.managerId !== null;

  function confirmSwitch() {
    if (!switching) return;
    const active = Boolean(switching.deactivatedAt);
    const who = switching;
    setActive.mutate({ id: who.id, active }, {
      onSuccess: () => {
        notifySuccess(active ? 'User reactivated' : 'User deactivated',
          active ? `${who.name} can sign in again.` : `${who.name} can no longer sign in. Their records and certificates are kept.`);
        setSwitching(null);
        // Focus stays on the row's action, now named for the opposite action.
        requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-user="${who.username}"] [data-action="switch"]`)?.focus());
      },
      onError: (e) => {
        notifyFailure(active ? 'Failed to reactivate user' : 'Failed to deactivate user', errorDescription(e, 'Failed to change the user'));
        setSwitching(null);
      },
    });
  }

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifySuccess('User deleted', `${deleting.name} has been deleted.`);
        setDeleting(null);
      },
      onError: (e) => {
        notifyFailure('Failed to delete user', errorDescription(e, 'Failed to delete user'));
        setDeleting(null);
      },
    });
  }

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label="Search users"
            placeholder="Name, username or email"
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
          />
          <Select
            label="Service"
            data={serviceFilterData}
            value={service}
            allowDeselect={false}
            onChange={(value) => {
              setService(value ?? 'ALL');
              setPage(1);
            }}
          />
          <Select
            label="Role"
            data={roleFilterData}
            value={role}
            allowDeselect={false}
            onChange={(value) => {
              setRole(value ?? 'ALL');
              setPage(1);
            }}
          />
          <Select
            label="Status"
            data={statusFilterData}
            value={status}
            allowDeselect={false}
            onChange={(value) => {
              setStatus(value ?? 'ALL');
              setPage(1);
            }}
          />
          {placing && national ? (
            <OrganisationSelect
              label="Organisation"
              noneLabel="All Organisations"
              value={organisationFilter}
              onChange={(value) => {
                setOrganisationFilter(value);
                setUnitFilter(null);
                setManagerFilter(null);
                setPage(1);
              }}
            />
          ) : null}
          {placing ? (
            <UnitSelect
              label="Unit"
              noneLabel="All Units"
              organisationId={filterOrganisation}
              value={unitFilter}
              onChange={(value) => {
                setUnitFilter(value);
                setPage(1);
              }}
            />
          ) : null}
          {placing ? (
            <ManagerSelect
              label="Manager"
              noneLabel="Any Manager"
              organisationId={filterOrganisation}
              value={managerFilter?.id ?? null}
              valueLabel={managerFilter?.label}
              onChange={(id, label) => {
                setManagerFilter(id ? { id, label: label ?? '' } : null);
                setPage(1);
              }}
            />
          ) : null}
        </Group>
        <Group>
          <Button component={Link} to="/admin/users/import" variant="default">Import users</Button>
          <Button
            variant="default"
            loading={exportCsv.isPending}
            onClick={() => exportCsv.mutate(
              {
                search: debounced, service: filters.service, role: filters.role,
                organisationId: filters.organisationId, unitId: filters.unitId, managerId: filters.managerId,
              },
              { onError: (e) => notifyFailure('Export failed', errorDescription(e, 'Export failed')) },
            )}
          >
            Export CSV
          </Button>
          {/* One account at a time is a national administrator's; an organisation's imports its people. */}
          {ownOrganisationId ? null : <Button onClick={() => setAdding(true)}>Add New User</Button>}
        </Group>
      </Group>

      {isError ? <Text c="red.8">{errorDescription(error, 'Failed to load users')}</Text> : null}
      {isPending ? <Text>Loading users…</Text> : null}
      {data && data.items.length === 0 ? (
        <Stack gap={4} py="xl" ta="center">
          <Text fw={600}>No users found</Text>
          <Text c="dimmed">
            {filtered ? 'Try adjusting your search or filter.' : 'There are no users registered in the system.'}
          </Text>
        </Stack>
      ) : null}
      {data?.moreMatches ? (
        <Text role="status">
          More than {USER_SEARCH_MATCH_LIMIT} users match this search, so only {USER_SEARCH_MATCH_LIMIT} of them are listed.
          Type more of the name, username or email to narrow it, or export the full list as CSV.
        </Text>
      ) : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={800}>
          <Table striped highlightOnHover aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Services</Table.Th>
                <Table.Th>Role</Table.Th>
                {placing && national ? <Table.Th>Organisation</Table.Th> : null}
                {placing ? <Table.Th>Unit</Table.Th> : null}
                {placing ? <Table.Th>Manager</Table.Th> : null}
                <Table.Th>Joined</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((user) => (
                <Table.Tr key={user.id} data-user={user.username}>
                  <Table.Td>
                    <Text fw={500}>{user.name}</Text>
                    <Text size="sm" c="dimmed">@{user.username}</Text>
                    {user.deactivatedAt ? <Badge variant="outline" color="gray.8" radius="sm">Deactivated</Badge> : null}
                  </Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>
                    {user.services.length === 0 ? '-' : (
                      <Group gap={4}>{user.services.map((code) => <ServiceBadge key={code} code={code} />)}</Group>
                    )}
                  </Table.Td>
                  <Table.Td><RoleBadge role={user.role} /></Table.Td>
                  {placing && national ? <Table.Td>{user.organisationName ?? '-'}</Table.Td> : null}
                  {placing ? <Table.Td>{user.unitName ?? '-'}</Table.Td> : null}
                  {placing ? <Table.Td>{user.managerName ?? '-'}</Table.Td> : null}
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(user.createdAt)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="default" component={Link} to={`/learning-record?user=${user.id}`} aria-label={`Learning record of ${user.name}`}>
                        Learning record
                      </Button>
                      <Button size="xs" variant="default" onClick={() => setEditing(user)} aria-label={`Edit ${user.name}`}>
                        Edit
                      </Button>
                      {user.id === currentUserId ? null : (
                        <Button size="xs" variant="default" onClick={() => setResetting(user)} aria-label={`Reset password of ${user.name}`}>
                          Reset password
                        </Button>
                      )}
                      {user.id === currentUserId ? null : (
                        <Button
                          size="xs"
                          variant="default"
                          data-action="switch"
                          onClick={() => setSwitching(user)}
                          aria-label={`${user.deactivatedAt ? 'Reactivate' : 'Deactivate'} ${user.name}`}
                        >
                          {user.deactivatedAt ? 'Reactivate' : 'Deactivate'}
                        </Button>
                      )}
                      <Button size="xs" color="red.9" onClick={() => setDeleting(user)} aria-label={`Delete ${user.name}`}>
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {data && data.total > USERS_PAGE_SIZE ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">{data.total} users{data.moreMatches ? ' listed' : ''}</Text>
          <Pagination
            total={Math.ceil(data.total / USERS_PAGE_SIZE)}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        </Group>
      ) : null}

      <EditUserDialog
        user={editing}
        self={editing?.id === currentUserId}
        placing={placing}
        national={national}
        serviceChoices={serviceChoices}
        onClose={() => setEditing(null)}
      />
      <AddUserDialog opened={adding} onClose={() => setAdding(false)} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        message={deleting ? `This permanently deletes ${deleting.name} (@${deleting.username}) and their progress. Issued certificates remain verifiable.` : ''}
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
      <ConfirmDialog
        opened={switching !== null}
        confirmLabel={switching?.deactivatedAt ? 'Reactivate' : 'Deactivate'}
        message={switching
          ? switching.deactivatedAt
            ? `${switching.name} (@${switching.username}) will be able to sign in again and is enrolled in the required training they match.`
            : `${switching.name} (@${switching.username}) will be signed out everywhere and can no longer sign in. Their records and certificates are kept, and they leave the compliance figures. You can reactivate them later.`
          : ''}
        loading={setActive.isPending}
        onConfirm={confirmSwitch}
        onClose={() => setSwitching(null)}
      />
    </Stack>
  );
}
