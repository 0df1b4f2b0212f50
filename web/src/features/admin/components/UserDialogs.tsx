// Edit User and Add New User dialogs. Both use the shared schemas; Add New User creates a real
// account and shows its temporary password once (it is never shown or stored again).
import { useEffect, useEffectEvent, useState } from 'react';
import { Alert, Button, Checkbox, Code, CopyButton, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { userCreateSchema, userUpdateSchema, type CreatedUser, type UserListItem, type UserUpdateInput } from '@shared/admin.ts';
import { ROLES, type Role, type User } from '@shared/domain.ts';
import { SERVICE_CODES, type ServiceCode } from '@shared/services.ts';
import { useTranslation } from 'react-i18next';
import { labelOf } from '@/lib/i18n/labels';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCreateUser, useResetPassword, useUpdateUser } from '../api/users';
import { ManagerSelect, OrganisationSelect, UnitSelect } from './PlacementFields';

const roleData = () => ROLES.map((role) => ({ value: role, label: labelOf('role', role) }));

/**
 * One checkbox per service: every option visible at once, and plain keyboard use. `choices`: the
 * services this administrator may grant (an organisation's administrator, their organisation's),
 * with any the person already has, so that it can be taken away; absent, every service.
 */
function ServiceChoices(props: {
  disabled?: boolean;
  value?: string[];
  onChange: (value: string[]) => void;
  error?: unknown;
  choices?: readonly ServiceCode[];
}) {
  const { t } = useTranslation('admin');
  const value = props.value ?? [];
  const shown = props.choices ? SERVICE_CODES.filter((code) => props.choices!.includes(code) || value.includes(code)) : SERVICE_CODES;
  return (
    <Checkbox.Group label={t('userDialogs.services')} value={value} onChange={props.onChange} error={props.error as string | undefined}>
      <SimpleGrid cols={2} mt="xs" spacing="xs">
        {shown.map((code) => (
          <Checkbox key={code} value={code} disabled={props.disabled} label={code} title={labelOf('service', code)} />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}

type EditValues = {
  name: string;
  email: string;
  role: Role;
  services: ServiceCode[];
  organisationId: string | null;
  unitId: string | null;
  managerId: string | null;
};

/**
 * Edit User. With `placing` (once there are organisations): the person's organisation (a
 * national administrator's to change), unit and manager (a person of the organisation, searched).
 * `serviceChoices`: the services this administrator may grant (absent: every service).
 */
export function EditUserDialog({ user, self, placing = false, national = true, serviceChoices, onClose }: {
  user: UserListItem | null;
  self: boolean;
  placing?: boolean;
  national?: boolean;
  serviceChoices?: readonly ServiceCode[];
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const update = useUpdateUser();
  // The chosen manager's "Name (@username)", kept for the user it was chosen for; else the saved one's.
  const [managerChoice, setManagerChoice] = useState<{ userId?: string; label?: string }>({});
  const managerLabel = managerChoice.userId === user?.id ? managerChoice.label : user?.managerName;
  const setManagerLabel = (label: string | undefined) => setManagerChoice({ userId: user?.id, label });
  const form = useForm<EditValues>({
    mode: 'controlled',
    initialValues: { name: '', email: '', role: 'STUDENT', services: [], organisationId: null, unitId: null, managerId: null },
    validate: translatedResolver(userUpdateSchema, { errorPriority: 'first' }),
  });
  const resetForm = useEffectEvent(() => {
    if (user) {
      form.setValues({
        name: user.name, email: user.email, role: user.role, services: user.services as ServiceCode[],
        organisationId: user.organisationId ?? null, unitId: user.unitId ?? null, managerId: user.managerId ?? null,
      });
      form.clearErrors();
    }
  });
  // Only when another user is shown: a refetch must not reset what is typed.
  useEffect(() => resetForm(), [user?.id]);

  const fields = {
    name: form.getInputProps('name'),
    email: form.getInputProps('email'),
    role: form.getInputProps('role'),
    services: form.getInputProps('services'),
  };

  const submit = form.onSubmit((values) => {
    if (!user) return;
    const { organisationId, unitId, managerId, ...details } = values;
    // An admin editing themself sends name and email only: the server refuses own role changes (and
    // nobody places themselves). The placement goes only when it changed.
    const input: UserUpdateInput = self ? { name: values.name, email: values.email } : { ...details };
    if (!self && placing) {
      if (organisationId !== (user.organisationId ?? null)) input.organisationId = organisationId;
      if (unitId !== (user.unitId ?? null)) input.unitId = unitId;
      if (managerId !== (user.managerId ?? null)) input.managerId = managerId;
    }
    update.mutate(
      { id: user.id, input },
      {
        onSuccess: () => {
          notifySuccess(t('userDialogs.updated'), t('userDialogs.updatedMessage', { name: values.name }));
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
          notifyFailure(t('userDialogs.updateFailed'), errorDescription(error, t('userDialogs.updateFailed')));
        },
      },
    );
  });

  return (
    <Modal closeButtonProps={{ 'aria-label': t('userDialogs.closeDialog') }} opened={user !== null} onClose={onClose} title={t('userDialogs.editTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('userDialogs.name')} required {...fields.name} />
          <TextInput label={t('userDialogs.email')} type="email" required {...fields.email} />
          <Select label={t('userDialogs.role')} data={roleData()} allowDeselect={false} disabled={self} {...fields.role}
            description={self ? t('userDialogs.ownRole') : undefined} />
          <ServiceChoices disabled={self} choices={serviceChoices} {...fields.services} />
          {placing ? (
            <>
              <OrganisationSelect
                label={t('userDialogs.organisation')}
                noneLabel={t('userDialogs.noOrganisation')}
                value={form.values.organisationId}
                disabled={self || !national}
                description={self
                  ? t('userDialogs.ownPlacement')
                  : national ? undefined : t('userDialogs.nationalOnly')}
                error={form.errors.organisationId as string | undefined}
                onChange={(value) => {
                  // Another organisation: its units and people, so the unit and manager start again.
                  form.setValues({ organisationId: value, unitId: null, managerId: null });
                  setManagerLabel(undefined);
                }}
              />
              <UnitSelect
                label={t('userDialogs.unit')}
                noneLabel={t('userDialogs.noUnit')}
                organisationId={form.values.organisationId}
                value={form.values.unitId}
                disabled={self}
                error={form.errors.unitId as string | undefined}
                onChange={(value) => form.setFieldValue('unitId', value)}
              />
              <ManagerSelect
                label={t('userDialogs.manager')}
                noneLabel={t('userDialogs.noManager')}
                organisationId={form.values.organisationId}
                value={form.values.managerId}
                valueLabel={managerLabel}
                hint={t('userDialogs.managerHint')}
                excludeId={user?.id}
                disabled={self}
                error={form.errors.managerId as string | undefined}
                onChange={(value, label) => {
                  form.setFieldValue('managerId', value);
                  setManagerLabel(label ?? undefined);
                }}
              />
            </>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>{t('userDialogs.cancel')}</Button>
            <Button type="submit" loading={update.isPending}>{t('userDialogs.saveChanges')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

type CreateValues = {
  username: string;
  email: string;
  name: string;
  role: Role;
  services: ServiceCode[];
};

const blank: CreateValues = { username: '', email: '', name: '', role: 'STUDENT', services: [] };

export function AddUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const create = useCreateUser();
  const [created, setCreated] = useState<CreatedUser | null>(null);
  const form = useForm<CreateValues>({
    mode: 'controlled',
    initialValues: blank,
    validate: translatedResolver(userCreateSchema, { errorPriority: 'first' }),
  });

  function close() {
    // The password is dropped from memory as soon as the dialog closes.
    setCreated(null);
    form.setValues(blank);
    form.clearErrors();
    onClose();
  }

  const fields = {
    username: form.getInputProps('username'),
    email: form.getInputProps('email'),
    name: form.getInputProps('name'),
    role: form.getInputProps('role'),
    services: form.getInputProps('services'),
  };

  const submit = form.onSubmit((values) => {
    create.mutate(values, {
      onSuccess: (result) => {
        setCreated(result);
        notifySuccess(t('userDialogs.created'), t('userDialogs.createdMessage', { name: result.user.name }));
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
        notifyFailure(t('userDialogs.createFailed'), errorDescription(error, t('userDialogs.createFailed')));
      },
    });
  });

  return (
    <Modal closeButtonProps={{ 'aria-label': t('userDialogs.closeDialog') }} opened={opened} onClose={close} title={t('userDialogs.addTitle')} centered>
      {created ? (
        <Stack>
          <Alert color="blue" variant="light" title={t('userDialogs.temporaryPassword')}>
            <Text size="sm" mb="xs">
              {t('userDialogs.giveCreated', { name: created.user.name, username: created.user.username })}
            </Text>
            <Code data-testid="temporary-password" fz="md">{created.temporaryPassword}</Code>
          </Alert>
          <Group justify="flex-end">
            <CopyButton value={created.temporaryPassword}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>{copied ? t('userDialogs.copied') : t('userDialogs.copyPassword')}</Button>
              )}
            </CopyButton>
            <Button onClick={close}>{t('userDialogs.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label={t('userDialogs.username')} required {...fields.username} />
            <TextInput label={t('userDialogs.email')} type="email" required {...fields.email} />
            <TextInput label={t('userDialogs.name')} required {...fields.name} />
            <Select label={t('userDialogs.role')} data={roleData()} allowDeselect={false} {...fields.role} />
            <ServiceChoices {...fields.services} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>{t('userDialogs.cancel')}</Button>
              <Button type="submit" loading={create.isPending}>{t('userDialogs.createUser')}</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/**
 * "Are you sure?", then the new temporary password, shown once with a copy button. One
 * dialog for both steps, so closing it returns focus to the row's "Reset password" button.
 */
export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const reset = useResetPassword();
  const [temporaryPassword, setTemporaryPassword] = useState<string | null>(null);

  function close() {
    // The password is dropped from memory as soon as the dialog closes.
    setTemporaryPassword(null);
    reset.reset();
    onClose();
  }

  function confirm() {
    if (!user) return;
    reset.mutate(user.id, {
      onSuccess: (result) => {
        setTemporaryPassword(result.temporaryPassword);
        notifySuccess(t('userDialogs.passwordReset'), t('userDialogs.passwordResetMessage', { name: user.name }));
      },
      onError: (error) => notifyFailure(t('userDialogs.resetFailed'), errorDescription(error, t('userDialogs.resetFailed'))),
    });
  }

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('userDialogs.closeDialog') }}
      opened={user !== null}
      onClose={close}
      title={temporaryPassword ? t('userDialogs.temporaryPassword') : t('userDialogs.resetTitle')}
      centered
    >
      {user && temporaryPassword ? (
        <Stack>
          <Text size="sm">{t('userDialogs.giveReset', { name: user.name, username: user.username })}</Text>
          <TextInput label={t('userDialogs.temporaryPassword')} value={temporaryPassword} readOnly data-testid="reset-temporary-password" ff="monospace" />
          <Group justify="flex-end">
            <CopyButton value={temporaryPassword}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>{copied ? t('userDialogs.copied') : t('userDialogs.copyPassword')}</Button>
              )}
            </CopyButton>
            <Button onClick={close}>{t('userDialogs.done')}</Button>
          </Group>
        </Stack>
      ) : user ? (
        <Stack>
          <Text>{t('userDialogs.resetConfirm', { name: user.name, username: user.username })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>{t('userDialogs.cancel')}</Button>
            <Button color="red.9" onClick={confirm} loading={reset.isPending}>{t('userDialogs.resetTitle')}</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
