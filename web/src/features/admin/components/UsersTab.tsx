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
import { ROLES } from '@shared/domain.ts';
import { SERVICE_CODES, type ServiceCode } from '@shared/services.ts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { labelOf } from '@/lib/i18n/labels';
import { ServiceBadge } from '@/components/ServiceBadge';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { USERS_PAGE_SIZE, useDeleteUser, useSetUserActive, useUsers } from '../api/users';
import { useExportUsers } from '../api/export-users';
import { useOrganisations } from '../api/organisations';
import { useUser } from '@/lib/auth/user';
import { ManagerSelect, OrganisationSelect, UnitSelect } from './PlacementFields';
import { formatDate, formatNumber } from '@/lib/format';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { RoleBadge } from './RoleBadge';
import { AddUserDialog, EditUserDialog, ResetPasswordDialog } from './UserDialogs';

/** The service filter's options in the page's language (`t` of the admin namespace). */
export const serviceFilterData = (t: TFunction<'admin'>) => [
  { value: 'ALL', label: t('usersTab.allServices') },
  ...SERVICE_CODES.map((code) => ({ value: code, label: labelOf('service', code) })),
];

export const roleFilterData = (t: TFunction<'admin'>) => [
  { value: 'ALL', label: t('usersTab.allRoles') },
  ...ROLES.map((role) => ({ value: role, label: labelOf('role', role) })),
];

export const statusFilterData = (t: TFunction<'admin'>) => [
  { value: 'ALL', label: t('usersTab.allStatuses') },
  { value: 'active', label: t('usersTab.active') },
  { value: 'deactivated', label: t('usersTab.deactivated') },
];

/** The pager's first/previous/next/last buttons, named in the page's language. */
export const pagerControlLabel = (t: TFunction<'admin'>) => (control: 'first' | 'previous' | 'last' | 'next') =>
  ({ 'aria-label': t(`pagination.${control}`) });

export function UsersTab({ currentUserId }: { currentUserId: string }) {
  const { t } = useTranslation('admin');
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
        notifySuccess(active ? t('usersTab.reactivated') : t('usersTab.deactivatedToast'),
          active ? t('usersTab.reactivatedMessage', { name: who.name }) : t('usersTab.deactivatedMessage', { name: who.name }));
        setSwitching(null);
        // Focus stays on the row's action, now named for the opposite action.
        requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-user="${who.username}"] [data-action="switch"]`)?.focus());
      },
      onError: (e) => {
        notifyFailure(active ? t('usersTab.reactivateFailed') : t('usersTab.deactivateFailed'), errorDescription(e, t('usersTab.changeFailed')));
        setSwitching(null);
      },
    });
  }

  function confirmDelete() {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifySuccess(t('usersTab.deleted'), t('usersTab.deletedMessage', { name: deleting.name }));
        setDeleting(null);
      },
      onError: (e) => {
        notifyFailure(t('usersTab.deleteFailed'), errorDescription(e, t('usersTab.deleteFailed')));
        setDeleting(null);
      },
    });
  }

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label={t('usersTab.search')}
            placeholder={t('usersTab.searchPlaceholder')}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
          />
          <Select
            label={t('usersTab.service')}
            data={serviceFilterData(t)}
            value={service}
            allowDeselect={false}
            onChange={(value) => {
              setService(value ?? 'ALL');
              setPage(1);
            }}
          />
          <Select
            label={t('usersTab.role')}
            data={roleFilterData(t)}
            value={role}
            allowDeselect={false}
            onChange={(value) => {
              setRole(value ?? 'ALL');
              setPage(1);
            }}
          />
          <Select
            label={t('usersTab.status')}
            data={statusFilterData(t)}
            value={status}
            allowDeselect={false}
            onChange={(value) => {
              setStatus(value ?? 'ALL');
              setPage(1);
            }}
          />
          {placing && national ? (
            <OrganisationSelect
              label={t('usersTab.organisation')}
              noneLabel={t('usersTab.allOrganisations')}
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
              label={t('usersTab.unit')}
              noneLabel={t('usersTab.allUnits')}
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
              label={t('usersTab.manager')}
              noneLabel={t('usersTab.anyManager')}
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
          <Button component={Link} to="/admin/users/import" variant="default">{t('usersTab.importUsers')}</Button>
          <Button
            variant="default"
            loading={exportCsv.isPending}
            onClick={() => exportCsv.mutate(
              {
                search: debounced, service: filters.service, role: filters.role,
                organisationId: filters.organisationId, unitId: filters.unitId, managerId: filters.managerId,
              },
              { onError: (e) => notifyFailure(t('usersTab.exportFailed'), errorDescription(e, t('usersTab.exportFailed'))) },
            )}
          >
            {t('usersTab.exportCsv')}
          </Button>
          {/* One account at a time is a national administrator's; an organisation's imports its people. */}
          {ownOrganisationId ? null : <Button onClick={() => setAdding(true)}>{t('usersTab.addUser')}</Button>}
        </Group>
      </Group>

      {isError ? <Text c="red.8">{errorDescription(error, t('usersTab.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('usersTab.loading')}</Text> : null}
      {data && data.items.length === 0 ? (
        <Stack gap={4} py="xl" ta="center">
          <Text fw={600}>{t('usersTab.noUsers')}</Text>
          <Text c="dimmed">
            {filtered ? t('usersTab.tryAdjusting') : t('usersTab.noneRegistered')}
          </Text>
        </Stack>
      ) : null}
      {data?.moreMatches ? (
        <Text role="status">
          {t('usersTab.moreMatches', { limit: formatNumber(USER_SEARCH_MATCH_LIMIT) })}
        </Text>
      ) : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={800}>
          <Table striped highlightOnHover aria-label={t('usersTab.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('usersTab.columns.name')}</Table.Th>
                <Table.Th>{t('usersTab.columns.email')}</Table.Th>
                <Table.Th>{t('usersTab.columns.services')}</Table.Th>
                <Table.Th>{t('usersTab.columns.role')}</Table.Th>
                {placing && national ? <Table.Th>{t('usersTab.columns.organisation')}</Table.Th> : null}
                {placing ? <Table.Th>{t('usersTab.columns.unit')}</Table.Th> : null}
                {placing ? <Table.Th>{t('usersTab.columns.manager')}</Table.Th> : null}
                <Table.Th>{t('usersTab.columns.joined')}</Table.Th>
                <Table.Th>{t('usersTab.columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((user) => (
                <Table.Tr key={user.id} data-user={user.username}>
                  <Table.Td>
                    <Text fw={500}>{user.name}</Text>
                    <Text size="sm" c="dimmed">@{user.username}</Text>
                    {user.deactivatedAt ? <Badge variant="outline" color="gray.8" radius="sm">{t('usersTab.deactivatedBadge')}</Badge> : null}
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
                      <Button size="xs" variant="default" component={Link} to={`/learning-record?user=${user.id}`} aria-label={t('usersTab.learningRecordOf', { name: user.name })}>
                        {t('usersTab.learningRecord')}
                      </Button>
                      <Button size="xs" variant="default" onClick={() => setEditing(user)} aria-label={t('usersTab.editName', { name: user.name })}>
                        {t('usersTab.edit')}
                      </Button>
                      {user.id === currentUserId ? null : (
                        <Button size="xs" variant="default" onClick={() => setResetting(user)} aria-label={t('usersTab.resetPasswordOf', { name: user.name })}>
                          {t('usersTab.resetPassword')}
                        </Button>
                      )}
                      {user.id === currentUserId ? null : (
                        <Button
                          size="xs"
                          variant="default"
                          data-action="switch"
                          onClick={() => setSwitching(user)}
                          aria-label={user.deactivatedAt
                            ? t('usersTab.reactivateName', { name: user.name })
                            : t('usersTab.deactivateName', { name: user.name })}
                        >
                          {user.deactivatedAt ? t('usersTab.reactivate') : t('usersTab.deactivate')}
                        </Button>
                      )}
                      <Button size="xs" color="red.9" onClick={() => setDeleting(user)} aria-label={t('usersTab.deleteName', { name: user.name })}>
                        {t('usersTab.delete')}
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
          <Text size="sm" c="dimmed">
            {data.moreMatches ? t('usersTab.totalListed', { count: data.total }) : t('usersTab.total', { count: data.total })}
          </Text>
          <Pagination
            total={Math.ceil(data.total / USERS_PAGE_SIZE)}
            value={page}
            onChange={setPage}
            getControlProps={pagerControlLabel(t)}
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
        confirmLabel={t('usersTab.delete')}
        message={deleting ? t('usersTab.deleteConfirm', { name: deleting.name, username: deleting.username }) : ''}
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
      <ConfirmDialog
        opened={switching !== null}
        confirmLabel={switching?.deactivatedAt ? t('usersTab.reactivate') : t('usersTab.deactivate')}
        message={switching
          ? switching.deactivatedAt
            ? t('usersTab.reactivateConfirm', { name: switching.name, username: switching.username })
            : t('usersTab.deactivateConfirm', { name: switching.name, username: switching.username })
          : ''}
        loading={setActive.isPending}
        onConfirm={confirmSwitch}
        onClose={() => setSwitching(null)}
      />
    </Stack>
  );
}
