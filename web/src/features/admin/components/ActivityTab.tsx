// Activity tab: the audit trail (who, when, what changed), newest first, filtered and paged on the
// server. Each event reads as a sentence ("Jordan Hughes published 'Radio procedure'"); its before
// and after values open in a details row. The CSV export takes the same filters.
import { Fragment, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Code, Group, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { AuditEvent, UserList } from '@shared/admin.ts';
import { AUDIT_KINDS } from '@shared/audit.ts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/lib/i18n/i18n';
import { api, errorDescription } from '@/lib/api-client';
import { notifyFailure } from '@/lib/notify';
import { AUDIT_PAGE_SIZE, type AuditFilterValues, useAudit, useExportAudit } from '../api/audit';
import { adminKeys } from '@/lib/query-keys';
import { formatDateTime } from '@/lib/format';
import { pagerControlLabel } from './UsersTab';

/** A kind of event by name, in the page's language (a kind not listed: as it is). */
const kindLabel = (t: TFunction<'admin'>, action: string) => t(`activityTab.kinds.${action}`, { defaultValue: AUDIT_KINDS[action] ?? action });

const kindOptions = (t: TFunction<'admin'>) => [
  { value: 'ALL', label: t('activityTab.everything') },
  ...Object.keys(AUDIT_KINDS).map((value) => ({ value, label: kindLabel(t, value) })),
];

/** The id of an event's details row (aria-controls). */
const detailsIdOf = (id: string) => `activity-details-${id}`;

const SENTENCES = new Set([
  'user.created', 'user.deleted', 'user.deactivated', 'user.reactivated', 'user.permissions_changed', 'users.permissions_changed',
  'users.imported', 'password.reset', 'password.forced_change', 'settings.updated', 'course.created', 'course.published',
  'course.unpublished', 'course.archived', 'course.deleted', 'enrollment.approved', 'enrollment.declined',
  'required_training.added', 'required_training.changed', 'required_training.removed', 'certificate.revoked',
  'certificate.reissued', 'notification.resent', 'user.updated', 'user.unlinked', 'unit.created', 'unit.renamed',
  'unit.deleted', 'scim_token.created', 'scim_token.revoked', 'sign_in.succeeded', 'sign_in.linked', 'sign_in.refused',
]);

/** One event as a sentence in the page's language: who did what to what (as @shared/audit.ts's auditSentence says it in English). */
export function auditSentence(event: AuditEvent, t: TFunction<'admin'>): string {
  const data = event.newData;
  const text = (key: string) => (typeof data?.[key] === 'string' && data[key] !== '' ? (data[key] as string) : null);
  const who = event.actor?.name || t('activityTab.system');
  const label = event.targetLabel ?? '';
  const what = label ? `'${label}'` : t('activityTab.anItem');
  const enrolled = typeof data?.enrolled === 'number' ? (data.enrolled as number) : null;
  const email = text('email');
  const values = {
    who,
    what,
    label,
    people: enrolled === null ? '' : t('activityTab.peopleEnrolled', { count: enrolled }),
    source: text('source') ? ` (${text('source')})` : '',
    address: email ? t('activityTab.forAddress', { email }) : '',
    reason: text('problem') ? ` (${text('problem')})` : '',
  };
  switch (event.action) {
    case 'users.permissions_changed': return t('activityTab.sentences.users.permissions_changed', { ...values, label: label || t('activityTab.severalUsers') });
    case 'users.imported': return t('activityTab.sentences.users.imported', { ...values, label: label || t('activityTab.someUsers') });
    case 'enrollment.approved':
    case 'enrollment.declined': return t(`activityTab.sentences.${event.action}`, { ...values, label: label || t('activityTab.aLearner') });
    case 'sign_in.tested': return data?.passed === true ? t('activityTab.sentences.sign_in.testPassed', values) : t('activityTab.sentences.sign_in.testFailed', values);
    default:
      if (SENTENCES.has(event.action)) return t(`activityTab.sentences.${event.action}`, values);
      return label
        ? t('activityTab.sentences.other', { ...values, kind: kindLabel(t, event.action) })
        : t('activityTab.sentences.otherNoItem', { ...values, kind: kindLabel(t, event.action) });
  }
}

function describe(value: unknown, t: TFunction<'admin'>): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.length === 0 ? t('activityTab.none') : value.map((item) => describe(item, t)).join(', ');
  if (typeof value === 'boolean') return value ? t('activityTab.yes') : t('activityTab.no');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Field names as words: 'dueWithinDays' -> 'Due within days', 'site_name' -> 'Site name'. */
function fieldLabel(key: string): string {
  const words = key.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function Changes({ event }: { event: AuditEvent }) {
  const { t } = useTranslation('admin');
  const keys = Array.from(new Set([...Object.keys(event.oldData ?? {}), ...Object.keys(event.newData ?? {})]));
  if (keys.length === 0) return <Text size="sm">{t('activityTab.noValues')}</Text>;
  return (
    <Table withTableBorder aria-label={t('activityTab.beforeAndAfter')} maw={720}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('activityTab.field')}</Table.Th>
          <Table.Th>{t('activityTab.before')}</Table.Th>
          <Table.Th>{t('activityTab.after')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((key) => (
          <Table.Tr key={key}>
            <Table.Td>{fieldLabel(key)}</Table.Td>
            <Table.Td><Code>{describe(event.oldData?.[key], t)}</Code></Table.Td>
            <Table.Td><Code>{describe(event.newData?.[key], t)}</Code></Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The people who can act in the app (admins and instructors), for the "Who" filter. */
function useActors() {
  return useQuery({
    queryKey: adminKeys.actors(),
    queryFn: async () => {
      const [admins, instructors] = await Promise.all(['ADMIN', 'INSTRUCTOR'].map((role) =>
        api.get<UserList>(`/users?role=${role}&pageSize=100`)));
      return [...admins.items, ...instructors.items].sort((a, b) => a.name.localeCompare(b.name, currentLanguage()));
    },
  });
}

export function ActivityTab() {
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const [actor, setActor] = useState('ALL');
  const [action, setAction] = useState('ALL');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const filters: AuditFilterValues = {
    actor: actor === 'ALL' ? null : actor,
    action: action === 'ALL' ? null : action,
    from,
    to,
    search: debounced,
  };
  const { data, isPending, isError, error } = useAudit(page, filters);
  const actors = useActors();
  const exportCsv = useExportAudit();
  const filtered = Boolean(filters.actor || filters.action || from || to || debounced.trim());
  const badRange = Boolean(from && to && from > to);

  const onFilter = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPage(1);
  };
  function toggle(id: string) {
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('activityTab.search')}
          placeholder={t('activityTab.searchPlaceholder')}
          value={search}
          onChange={(e) => onFilter(setSearch)(e.currentTarget.value)}
        />
        <Select
          label={t('activityTab.who')}
          data={[{ value: 'ALL', label: t('activityTab.anyone') }, ...(actors.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (@${u.username})` }))]}
          value={actor}
          allowDeselect={false}
          searchable
          onChange={(value) => onFilter(setActor)(value ?? 'ALL')}
        />
        <Select
          label={t('activityTab.what')}
          data={kindOptions(t)}
          value={action}
          allowDeselect={false}
          searchable
          onChange={(value) => onFilter(setAction)(value ?? 'ALL')}
        />
        <TextInput type="date" label={t('activityTab.from')} value={from} onChange={(e) => onFilter(setFrom)(e.currentTarget.value)} />
        <TextInput
          type="date"
          label={t('activityTab.to')}
          value={to}
          error={badRange ? t('activityTab.badRange') : undefined}
          onChange={(e) => onFilter(setTo)(e.currentTarget.value)}
        />
        <Button
          variant="default"
          loading={exportCsv.isPending}
          disabled={badRange}
          onClick={() => exportCsv.mutate(filters, {
            onError: (e) => notifyFailure(t('usersTab.exportFailed'), errorDescription(e, t('usersTab.exportFailed'))),
          })}
        >
          {t('usersTab.exportCsv')}
        </Button>
      </Group>

      {isError && !badRange ? <Text c="red.8">{errorDescription(error, t('activityTab.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('activityTab.loading')}</Text> : null}
      {data && data.items.length === 0 ? (
        <Text ta="center" py="xl">{filtered ? t('activityTab.noMatches') : t('activityTab.noneYet')}</Text>
      ) : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={800}>
          <Table striped aria-label={t('activityTab.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activityTab.columns.when')}</Table.Th>
                <Table.Th>{t('activityTab.columns.whatHappened')}</Table.Th>
                <Table.Th>{t('activityTab.columns.kind')}</Table.Th>
                <Table.Th>{t('activityTab.columns.details')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((event) => {
                const expanded = open.has(event.id);
                const detailsId = detailsIdOf(event.id);
                const sentence = auditSentence(event, t);
                return (
                  <Fragment key={event.id}>
                    <Table.Tr data-action={event.action}>
                      <Table.Td>{formatDateTime(event.occurredAt)}</Table.Td>
                      <Table.Td>{sentence}</Table.Td>
                      <Table.Td>{kindLabel(t, event.action)}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="default"
                          aria-expanded={expanded}
                          aria-controls={detailsId}
                          aria-label={expanded ? t('activityTab.hideDetailsOf', { sentence }) : t('activityTab.showDetailsOf', { sentence })}
                          onClick={() => toggle(event.id)}
                        >
                          {expanded ? t('activityTab.hideDetails') : t('activityTab.showDetails')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                    {expanded ? (
                      <Table.Tr id={detailsId} data-details-for={event.action}>
                        <Table.Td colSpan={4}>
                          <Changes event={event} />
                        </Table.Td>
                      </Table.Tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {data && data.total > AUDIT_PAGE_SIZE ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">{t('activityTab.total', { count: data.total })}</Text>
          <Pagination total={Math.ceil(data.total / AUDIT_PAGE_SIZE)} value={page} onChange={setPage}
            getControlProps={pagerControlLabel(t)} />
        </Group>
      ) : null}
    </Stack>
  );
}
