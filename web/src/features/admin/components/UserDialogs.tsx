// Edit User and Add New User dialogs. Both use the shared schemas; Add New User creates a real
// account and shows its temporary password once (it is never shown or stored again).
import { useEffect, useEffectEvent, useState } from 'react';
import { Alert, Button, Checkbox, Code, CopyButton, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { userCreateSchema, userUpdateSchema, type CreatedUser, type UserListItem, type UserUpdateInput } from '@shared/admin.ts';
import { ROLE_LABELS, ROLES, type Role, type User } from '@shared/domain.ts';
import { SERVICE_CODES, serviceLabel, type ServiceCode } from '@shared/services.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCreateUser, useResetPassword, useUpdateUser } from '../api/users';
import { ManagerSelect, OrganisationSelect, UnitSelect } from './PlacementFields';

const roleData = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

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
  const value = props.value ?? [];
  const shown = props.choices ? SERVICE_CODES.filter((code) => props.choices!.includes(code) || value.includes(code)) : SERVICE_CODES;
  return (
    <Checkbox.Group label="Services" value={value} onChange={props.onChange} error={props.error as string | undefined}>
      <SimpleGrid cols={2} mt="xs" spacing="xs">
        {shown.map((code) => (
          <Checkbox key={code} value={code} disabled={props.disabled} label={code} title={serviceLabel(code)} />
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
  const update = useUpdateUser();
  // The chosen manager's "Name (@username)", kept for the user it was chosen for; else the saved one's.
  const [managerChoice, setManagerChoice] = useState<{ userId?: string; label?: string }>({});
  const managerLabel = managerChoice.userId === user?.id ? managerChoice.label : user?.managerName;
  const setManagerLabel = (label: string | undefined) => setManagerChoice({ userId: user?.id, label });
  const form = useForm<EditValues>({
    mode: 'controlled',
    initialValues: { name: '', email: '', role: 'STUDENT', services: [], organisationId: null, unitId: null, managerId: null },
    validate: zod4Resolver(userUpdateSchema, { errorPriority: 'first' }),
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
          notifySuccess('User updated', `${values.name} has been updated.`);
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
          notifyFailure('Failed to update user', errorDescription(error, 'Failed to update user'));
        },
      },
    );
  });

  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={user !== null} onClose={onClose} title="Edit User" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
          <Select label="Role" data={roleData} allowDeselect={false} disabled={self} {...form.getInputProps('role')}
            description={self ? 'You cannot change your own role.' : undefined} />
          <ServiceChoices disabled={self} choices={serviceChoices} {...form.getInputProps('services')} />
          {placing ? (
            <>
              <OrganisationSelect
                label="Organisation"
                noneLabel="No organisation"
                value={form.values.organisationId}
                disabled={self || !national}
                description={self
                  ? 'You cannot change your own organisation, unit or manager.'
                  : national ? undefined : 'Only a national administrator moves a person to another organisation.'}
                error={form.errors.organisationId as string | undefined}
                onChange={(value) => {
                  // Another organisation: its units and people, so the unit and manager start again.
                  form.setValues({ organisationId: value, unitId: null, managerId: null });
                  setManagerLabel(undefined);
                }}
              />
              <UnitSelect
                label="Unit"
                noneLabel="No unit"
                organisationId={form.values.organisationId}
                value={form.values.unitId}
                disabled={self}
                error={form.errors.unitId as string | undefined}
                onChange={(value) => form.setFieldValue('unitId', value)}
              />
              <ManagerSelect
                label="Manager"
                noneLabel="No manager"
                organisationId={form.values.organisationId}
                value={form.values.managerId}
                valueLabel={managerLabel}
                hint="Type part of the name, username or email of a person of the organisation"
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
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={update.isPending}>Save Changes</Button>
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
  const create = useCreateUser();
  const [created, setCreated] = useState<CreatedUser | null>(null);
  const form = useForm<CreateValues>({
    mode: 'controlled',
    initialValues: blank,
    validate: zod4Resolver(userCreateSchema, { errorPriority: 'first' }),
  });

  function close() {
    // The password is dropped from memory as soon as the dialog closes.
    setCreated(null);
    form.setValues(blank);
    form.clearErrors();
    onClose();
  }

  const submit = form.onSubmit((values) => {
    create.mutate(values, {
      onSuccess: (result) => {
        setCreated(result);
        notifySuccess('User created', `${result.user.name} can now sign in with the temporary password.`);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
        notifyFailure('Failed to create user', errorDescription(error, 'Failed to create user'));
      },
    });
  });

  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={opened} onClose={close} title="Add New User" centered>
      {created ? (
        <Stack>
          <Alert color="blue" variant="light" title="Temporary password">
            <Text size="sm" mb="xs">
              Give this password to {created.user.name} (@{created.user.username}). It is shown only once and
              cannot be retrieved later.
            </Text>
            <Code data-testid="temporary-password" fz="md">{created.temporaryPassword}</Code>
          </Alert>
          <Group justify="flex-end">
            <CopyButton value={created.temporaryPassword}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy password'}</Button>
              )}
            </CopyButton>
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput label="Username" required {...form.getInputProps('username')} />
            <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
            <TextInput label="Name" required {...form.getInputProps('name')} />
            <Select label="Role" data={roleData} allowDeselect={false} {...form.getInputProps('role')} />
            <ServiceChoices {...form.getInputProps('services')} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>Cancel</Button>
              <Button type="submit" loading={create.isPending}>Create User</Button>
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
        notifySuccess('Password reset', `${user.name} must choose a new password at their next sign-in.`);
      },
      onError: (error) => notifyFailure('Failed to reset password', errorDescription(error, 'Failed to reset password')),
    });
  }

  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={user !== null} onClose={close} title={temporaryPassword ? 'Temporary password' : 'Reset password'} centered>
      {user && temporaryPassword ? (
        <Stack>
          <Text size="sm">
            Give this password to {user.name} (@{user.username}). It is shown only once and cannot be retrieved
            later. They must choose a new password when they sign in.
          </Text>
          <TextInput label="Temporary password" value={temporaryPassword} readOnly data-testid="reset-temporary-password" ff="monospace" />
          <Group justify="flex-end">
            <CopyButton value={temporaryPassword}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy password'}</Button>
              )}
            </CopyButton>
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : user ? (
        <Stack>
          <Text>
            This gives {user.name} (@{user.username}) a new temporary password and signs them out everywhere. Their
            current password stops working, and they must choose a new one at their next sign-in.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button color="red.9" onClick={confirm} loading={reset.isPending}>Reset password</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
