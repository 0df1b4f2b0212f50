// 'Required training' management, in the admin dashboard and the instructor area: make a
// published course required for a role and/or a service, with a due period for new joiners and, for
// courses whose certificate expires, renewal before expiry. Admins manage any rule; instructors their
// own courses in their own services (the server and the database enforce it whatever this shows).
// A national administrator may scope a rule to an organisation and one of its units (with
// the units below it); an organisation's administrator's rules are always of their organisation
// (shown fixed), optionally of one unit. The rules list says where each applies.
// A rule may set its own "due soon" reminder days and when the line manager is told;
// left blank, the site's defaults (Settings) apply.
import { useState } from 'react';
import {
  Button,
  Center,
  Group,
  Loader,
  Modal,
  NumberInput,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { type CurrentUser, ROLES, type Role, type User } from '@shared/domain.ts';
import type { RequiredTrainingRule } from '@shared/compliance.ts';
import { formatDayList } from '@shared/schemas.ts';
import { settingsQueryOptions } from '@/lib/site-settings/get-settings';
import { SERVICE_CODES, type ServiceCode } from '@shared/services.ts';
import { labelOf } from '@/lib/i18n/labels';
import { ServiceBadge } from '@/components/ServiceBadge';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { CourseSelect } from '@/components/CourseSelect';
import { type Option, useOrganisationOptions, useUnitOptions } from '@/lib/organisation-options';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { RULES_PAGE_SIZE, useCreateRule, useDeleteRule, useRules, useUpdateRule } from '../api/required-training';

const ANY = '';

interface RuleFields {
  role: string;
  service: string;
  /** ANY: national (or, for an organisation's administrator, their own). */
  organisationId: string;
  unitId: string;
  dueWithinDays: number | string;
  renewBeforeDays: number | string;
  /** Typed days ("14, 3"); blank: the site's default. */
  notifyDueSoonDays: string;
  /** Blank: the site's default. */
  notifyEscalationDays: number | string;
}

/** The site's default intervals, for the fields' descriptions. */
interface NoticeDefaults {
  dueSoonDays: number[];
  escalationDays: number;
}

/** The overrides as the API takes them: blank is null (the site's default). */
const overrides = (f: RuleFields) => ({
  notifyDueSoonDays: f.notifyDueSoonDays.trim() === '' ? null : f.notifyDueSoonDays,
  notifyEscalationDays: f.notifyEscalationDays === '' ? null : Number(f.notifyEscalationDays),
});

/** Who a rule applies to, as one phrase: `Instructors in United Kingdom Police Service at Central (Met, with the units below it)`. */
function appliesTo(
  rule: Pick<RequiredTrainingRule, 'role' | 'service'> & Partial<Pick<RequiredTrainingRule, 'organisation' | 'unit'>>,
  t: TFunction,
): string {
  const who = rule.role ? t(`appliesTo.rolesPlural.${rule.role}`) : t('appliesTo.everyone');
  const service = rule.service ? labelOf('service', rule.service) : null;
  if (rule.organisation) {
    const organisation = rule.organisation.name;
    if (rule.unit) {
      const unit = rule.unit.name;
      return service
        ? t('appliesTo.inServiceAtUnit', { who, service, unit, organisation })
        : t('appliesTo.atUnit', { who, unit, organisation });
    }
    return service ? t('appliesTo.inServiceAtOrganisation', { who, service, organisation }) : t('appliesTo.atOrganisation', { who, organisation });
  }
  return service ? t('appliesTo.inService', { who, service }) : t('appliesTo.inEveryService', { who });
}

function RuleFieldsForm({
  value,
  onChange,
  services,
  anyService,
  errors,
  organisations,
  fixedOrganisation,
  defaults,
}: {
  value: RuleFields;
  onChange: (next: RuleFields) => void;
  services: readonly string[];
  /** Admins may leave the service open (a role-only rule); instructors must name one of theirs. */
  anyService: boolean;
  errors: Record<string, string>;
  /** A national administrator's choice of organisation; null: no organisation field. */
  organisations: Option[] | null;
  /** An organisation's administrator: their organisation, fixed. */
  fixedOrganisation: Option | null;
  defaults: NoticeDefaults | undefined;
}) {
  const { t } = useTranslation('required-training');
  const organisationId = fixedOrganisation?.value ?? value.organisationId;
  const units = useUnitOptions(organisations !== null || fixedOrganisation ? organisationId || null : null);
  return (
    <>
      {organisations !== null && (
        <Select
          label={t('ruleFields.organisation')}
          data={[{ value: ANY, label: t('ruleFields.everyOrganisation') }, ...organisations]}
          value={value.organisationId}
          onChange={(v) => onChange({ ...value, organisationId: v ?? ANY, unitId: ANY })}
          allowDeselect={false}
          searchable
          error={errors.organisationId}
          w={260}
        />
      )}
      {fixedOrganisation && (
        <Select
          label={t('ruleFields.organisation')}
          data={[fixedOrganisation]}
          value={fixedOrganisation.value}
          disabled
          description={t('ruleFields.yourOrganisation')}
          w={260}
        />
      )}
      {organisationId && (
        <Select
          label={t('ruleFields.unit')}
          description={t('ruleFields.unitDescription')}
          data={[{ value: ANY, label: t('ruleFields.wholeOrganisation') }, ...(units.data ?? [])]}
          value={value.unitId}
          onChange={(v) => onChange({ ...value, unitId: v ?? ANY })}
          allowDeselect={false}
          searchable
          error={errors.unitId}
          w={300}
        />
      )}
      <Select
        label={t('ruleFields.role')}
        data={[{ value: ANY, label: t('ruleFields.anyRole') }, ...ROLES.map((r) => ({ value: r, label: labelOf('role', r) }))]}
        value={value.role}
        onChange={(v) => onChange({ ...value, role: v ?? ANY })}
        allowDeselect={false}
        error={errors.role}
        w={160}
      />
      <Select
        label={t('ruleFields.service')}
        data={[
          ...(anyService ? [{ value: ANY, label: t('ruleFields.anyService') }] : []),
          ...services.map((s) => ({ value: s, label: labelOf('service', s) })),
        ]}
        value={value.service}
        onChange={(v) => onChange({ ...value, service: v ?? ANY })}
        allowDeselect={false}
        error={errors.service}
        w={260}
      />
      <NumberInput
        label={t('ruleFields.dueWithin')}
        description={t('ruleFields.dueWithinDescription')}
        min={1}
        max={365}
        allowDecimal={false}
        value={value.dueWithinDays}
        onChange={(v) => onChange({ ...value, dueWithinDays: v })}
        error={errors.dueWithinDays}
        w={170}
      />
      <NumberInput
        label={t('ruleFields.renewBefore')}
        description={t('ruleFields.renewBeforeDescription')}
        min={0}
        max={365}
        allowDecimal={false}
        value={value.renewBeforeDays}
        onChange={(v) => onChange({ ...value, renewBeforeDays: v })}
        error={errors.renewBeforeDays}
        w={180}
      />
      <TextInput
        label={t('ruleFields.dueSoonReminders')}
        description={defaults ? t('ruleFields.siteDefaultOf', { value: formatDayList(defaults.dueSoonDays) }) : t('ruleFields.siteDefault')}
        placeholder={t('ruleFields.dueSoonPlaceholder')}
        inputMode="numeric"
        value={value.notifyDueSoonDays}
        onChange={(e) => onChange({ ...value, notifyDueSoonDays: e.currentTarget.value })}
        error={errors.notifyDueSoonDays}
        w={280}
      />
      <NumberInput
        label={t('ruleFields.escalation')}
        description={defaults ? t('ruleFields.siteDefaultOf', { value: defaults.escalationDays }) : t('ruleFields.siteDefault')}
        min={1}
        max={365}
        allowDecimal={false}
        value={value.notifyEscalationDays}
        onChange={(v) => onChange({ ...value, notifyEscalationDays: v })}
        error={errors.notifyEscalationDays}
        w={290}
      />
    </>
  );
}

const fieldErrors = (error: unknown) => (error instanceof ApiError && error.fields ? error.fields : {});

export function RequiredTrainingManager({ user }: { user: User }) {
  const { t } = useTranslation('required-training');
  const isAdmin = user.role === 'ADMIN';
  // An organisation's administrator makes rules of their organisation only.
  const ownOrganisation = isAdmin ? user.organisationId ?? null : null;
  const organisationList = useOrganisationOptions(isAdmin && !ownOrganisation);
  const organisationChoices = isAdmin && !ownOrganisation ? (organisationList.data ?? []) : null;
  // The signed-in user as GET /api/user gives them carries their organisation's name.
  const ownName = (user as Partial<CurrentUser>).organisation?.name;
  const fixedOrganisation = ownOrganisation ? { value: ownOrganisation, label: ownName ?? t('ruleFields.yourOrganisation') } : null;
  const services: readonly string[] = isAdmin ? SERVICE_CODES : user.services.filter((s) => (SERVICE_CODES as readonly string[]).includes(s));
  const [page, setPage] = useState(1);
  const [courseFilter, setCourseFilter] = useState<string | null>(null);
  const rules = useRules({ courseId: courseFilter ?? undefined, page });
  const create = useCreateRule();
  const update = useUpdateRule();
  const remove = useDeleteRule();
  const settings = useQuery(settingsQueryOptions(user.id));

  const blank: RuleFields = {
    role: ANY, service: isAdmin ? ANY : (services[0] ?? ANY), organisationId: ANY, unitId: ANY, dueWithinDays: 30, renewBeforeDays: 30,
    notifyDueSoonDays: '', notifyEscalationDays: '',
  };
  /** The scope as the API takes it: a national administrator names the organisation (or null);
   * an organisation's administrator and instructors leave it to the API (their own organisation,
   * national for a national instructor). */
  const scope = (f: RuleFields) =>
    !isAdmin ? {} : ownOrganisation ? { unitId: f.unitId || null } : { organisationId: f.organisationId || null, unitId: f.unitId || null };
  const [courseId, setCourseId] = useState<string | null>(null);
  const [fields, setFields] = useState<RuleFields>(blank);
  const [createErrors, setCreateErrors] = useState<Record<string, string>>({});
  const [editing, setEditing] = useState<RequiredTrainingRule | null>(null);
  const [editFields, setEditFields] = useState<RuleFields>(blank);
  const [editErrors, setEditErrors] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState<RequiredTrainingRule | null>(null);

  function onCreate(event: React.FormEvent) {
    event.preventDefault();
    if (!courseId) {
      setCreateErrors({ courseId: t('manager.chooseCourse') });
      return;
    }
    setCreateErrors({});
    create.mutate(
      {
        courseId,
        role: (fields.role || null) as Role | null,
        service: (fields.service || null) as ServiceCode | null,
        ...scope(fields),
        dueWithinDays: Number(fields.dueWithinDays),
        renewBeforeDays: Number(fields.renewBeforeDays),
        ...overrides(fields),
      },
      {
        onSuccess: (rule) => {
          notifySuccess(
            t('manager.added'),
            t('manager.addedMessage', { course: rule.course.title, appliesTo: appliesTo(rule, t), enrolled: rule.enrolled }),
          );
          setCourseId(null);
          setFields(blank);
        },
        onError: (error) => {
          setCreateErrors(fieldErrors(error));
          notifyFailure(t('manager.addFailed'), errorDescription(error, t('manager.tryAgain')));
        },
      },
    );
  }

  function startEdit(rule: RequiredTrainingRule) {
    setEditing(rule);
    setEditErrors({});
    setEditFields({
      role: rule.role ?? ANY, service: rule.service ?? ANY, organisationId: rule.organisation?.id ?? ANY, unitId: rule.unit?.id ?? ANY,
      dueWithinDays: rule.dueWithinDays, renewBeforeDays: rule.renewBeforeDays,
      notifyDueSoonDays: formatDayList(rule.notifyDueSoonDays), notifyEscalationDays: rule.notifyEscalationDays ?? '',
    });
  }

  function onSaveEdit(event: React.FormEvent) {
    event.preventDefault();
    if (!editing) return;
    update.mutate(
      {
        id: editing.id,
        input: {
          role: (editFields.role || null) as Role | null,
          service: (editFields.service || null) as ServiceCode | null,
          ...scope(editFields),
          dueWithinDays: Number(editFields.dueWithinDays),
          renewBeforeDays: Number(editFields.renewBeforeDays),
          ...overrides(editFields),
        },
      },
      {
        onSuccess: () => {
          notifySuccess(t('manager.updated'), t('manager.updatedMessage', { course: editing.course.title }));
          setEditing(null);
        },
        onError: (error) => {
          setEditErrors(fieldErrors(error));
          notifyFailure(t('manager.updateFailed'), errorDescription(error, t('manager.tryAgain')));
        },
      },
    );
  }

  const data = rules.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / RULES_PAGE_SIZE)) : 1;

  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <form onSubmit={onCreate} aria-labelledby="add-required-title" noValidate>
          <Stack gap="sm">
            <div>
              <Title order={2} size="h4" id="add-required-title">
                {t('manager.addTitle')}
              </Title>
              <Text size="sm" c="dimmed">
                {isAdmin ? t('manager.addIntroAdmin') : t('manager.addIntroInstructor')}
              </Text>
            </div>
            <Group align="flex-start" gap="sm">
              <CourseSelect
                all={isAdmin}
                status="ACTIVE"
                label={t('manager.course')}
                placeholder={t('manager.choosePublishedCourse')}
                value={courseId}
                onChange={setCourseId}
                error={createErrors.courseId}
                nothingFoundMessage={t('manager.noPublishedCourse')}
                w={320}
                required
              />
              <RuleFieldsForm value={fields} onChange={setFields} services={services} anyService={isAdmin} errors={createErrors} defaults={settings.data}
                organisations={organisationChoices} fixedOrganisation={fixedOrganisation} />
            </Group>
            <Group>
              <Button type="submit" loading={create.isPending}>
                {t('manager.addRule')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      <Group align="flex-end" justify="space-between">
        <Title order={2} size="h4" id="required-rules-title">
          {t('manager.rulesTitle')}
        </Title>
        <CourseSelect
          all={isAdmin}
          label={t('manager.filterByCourse')}
          placeholder={t('manager.allCourses')}
          clearable
          value={courseFilter}
          onChange={(v) => {
            setCourseFilter(v);
            setPage(1);
          }}
          w={320}
        />
      </Group>

      {rules.isError && <Text c="red.9">{errorDescription(rules.error, t('manager.rulesLoadFailed'))}</Text>}
      {rules.isPending && (
        <Center py="xl">
          <Loader aria-label={t('manager.rulesLoading')} />
        </Center>
      )}
      {data && data.items.length === 0 && (
        <Text c="dimmed" py="md">
          {courseFilter ? t('manager.courseNotRequired') : t('manager.noneRequired')}
        </Text>
      )}
      {data && data.items.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table striped aria-labelledby="required-rules-title">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('manager.course')}</Table.Th>
                <Table.Th scope="col">{t('manager.requiredFor')}</Table.Th>
                <Table.Th scope="col">{t('manager.dueWithinColumn')}</Table.Th>
                <Table.Th scope="col">{t('manager.renewBeforeColumn')}</Table.Th>
                <Table.Th scope="col">{t('manager.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((rule) => (
                <Table.Tr key={rule.id} data-rule={rule.id}>
                  <Table.Td>
                    <Text fw={500}>{rule.course.title}</Text>
                    <Group gap={6}>
                      <ServiceBadge code={rule.course.service} size="sm" />
                      <Text size="sm" c="dimmed">
                        {rule.course.certificateValidMonths
                          ? t('manager.certificateValid', { months: rule.course.certificateValidMonths })
                          : t('manager.certificateNoExpiry')}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>{appliesTo(rule, t)}</Table.Td>
                  <Table.Td>
                    {t('manager.days', { days: rule.dueWithinDays })}
                    {rule.notifyDueSoonDays && <Text size="xs">{t('manager.reminders', { days: formatDayList(rule.notifyDueSoonDays) })}</Text>}
                    {rule.notifyEscalationDays && <Text size="xs">{t('manager.managerTold', { days: rule.notifyEscalationDays })}</Text>}
                  </Table.Td>
                  <Table.Td>{rule.course.certificateValidMonths ? t('manager.days', { days: rule.renewBeforeDays }) : t('manager.notApplicable')}</Table.Td>
                  <Table.Td>
                    {rule.canManage ? (
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => startEdit(rule)} aria-label={t('manager.editRule', { course: rule.course.title, appliesTo: appliesTo(rule, t) })}>
                          {t('manager.edit')}
                        </Button>
                        <Button size="xs" variant="outline" color="red.9" onClick={() => setDeleting(rule)} aria-label={t('manager.removeRule', { course: rule.course.title, appliesTo: appliesTo(rule, t) })}>
                          {t('manager.remove')}
                        </Button>
                      </Group>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('manager.setByAdministrator')}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} aria-label={t('manager.rulesPages')}
        getControlProps={(control) => ({ 'aria-label': t(`manager.rulesPage.${control}`) })} />}

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? t('manager.editTitle', { course: editing.course.title }) : ''}
        closeButtonProps={{ 'aria-label': t('manager.closeDialog') }}
        size="lg"
        centered
      >
        <form onSubmit={onSaveEdit} noValidate>
          <Stack>
            <Group align="flex-start" gap="sm">
              <RuleFieldsForm value={editFields} onChange={setEditFields} services={services} anyService={isAdmin} errors={editErrors} defaults={settings.data}
                organisations={organisationChoices} fixedOrganisation={fixedOrganisation} />
            </Group>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('manager.cancel')}
              </Button>
              <Button type="submit" loading={update.isPending}>
                {t('manager.saveChanges')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <ConfirmDialog
        opened={deleting !== null}
        message={
          deleting
            ? t('manager.removeConfirm', { course: deleting.course.title, appliesTo: appliesTo(deleting, t) })
            : ''
        }
        confirmLabel={t('manager.remove')}
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          const rule = deleting;
          remove.mutate(rule.id, {
            onSuccess: () => {
              notifySuccess(t('manager.removed'), t('manager.removedMessage', { course: rule.course.title, appliesTo: appliesTo(rule, t) }));
              setDeleting(null);
            },
            onError: (error) => notifyFailure(t('manager.removeFailed'), errorDescription(error, t('manager.tryAgain'))),
          });
        }}
      />
    </Stack>
  );
}
