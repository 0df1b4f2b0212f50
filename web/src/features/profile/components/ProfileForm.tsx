// Account details: name and email editable (shared profileSchema), username and role read-only, and
// the person's organisation, unit and line manager read-only when they have them: an
// administrator places people, nobody places themselves.
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { type CurrentUser, ROLE_LABELS } from '@shared/domain.ts';
import { type ProfileInput, profileSchema } from '@shared/profile.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useUpdateProfile } from '../api/update-profile';

/** The user as GET /api/user (and PUT /api/profile) answer: their placement's names are optional. */
type ProfileUser = Omit<CurrentUser, 'hasReports'> & { hasReports?: boolean };

export function ProfileForm({ user, onSaved }: { user: ProfileUser; onSaved: (user: CurrentUser) => void }) {
  const form = useForm<ProfileInput>({
    mode: 'controlled',
    initialValues: { name: user.name, email: user.email },
    validate: zod4Resolver(profileSchema, { errorPriority: 'first' }),
  });
  const update = useUpdateProfile({
    onSuccess: (saved) => {
      form.setValues({ name: saved.name, email: saved.email });
      form.resetDirty({ name: saved.name, email: saved.email });
      onSaved(saved);
      notifySuccess('Profile updated', 'Your details have been saved.', { action: 'profile' });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure('Failed to update profile', errorDescription(error, 'Please check your details and try again.'), { action: 'profile' });
    },
  });

  return (
    <form noValidate aria-label="Account details" onSubmit={form.onSubmit((values) => update.mutate(profileSchema.parse(values)))}>
      <Stack gap="md">
        <TextInput label="Username" value={user.username} readOnly description="Your username cannot be changed." />
        <TextInput label="Role" value={ROLE_LABELS[user.role] ?? user.role} readOnly />
        {user.organisation ? (
          <TextInput label="Organisation" value={user.organisation.name} readOnly description="Your administrator sets your organisation, unit and line manager." />
        ) : null}
        {user.unit ? <TextInput label="Unit" value={user.unit.name} readOnly /> : null}
        {user.manager ? <TextInput label="Line manager" value={user.manager.name} readOnly /> : null}
        <TextInput label="Full name" autoComplete="name" required withAsterisk={false} key={form.key('name')} {...form.getInputProps('name')} />
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          description="You can also sign in with this address."
          required
          withAsterisk={false}
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <Group>
          <Button type="submit" loading={update.isPending}>
            Save Changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
