// Account details: name and email editable (shared profileSchema), username and role read-only, and
// the person's organisation, unit and line manager read-only when they have them: an
// administrator places people, nobody places themselves.
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import type { CurrentUser } from '@shared/domain.ts';
import { useTranslation } from 'react-i18next';
import { labelOf } from '@/lib/i18n/labels';
import { type ProfileInput, profileSchema } from '@shared/profile.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useUpdateProfile } from '../api/update-profile';

/** The user as GET /api/user (and PUT /api/profile) answer: their placement's names are optional. */
type ProfileUser = Omit<CurrentUser, 'hasReports'> & { hasReports?: boolean };

export function ProfileForm({ user, onSaved }: { user: ProfileUser; onSaved: (user: CurrentUser) => void }) {
  const { t } = useTranslation('profile');
  const form = useForm<ProfileInput>({
    mode: 'controlled',
    initialValues: { name: user.name, email: user.email },
    validate: translatedResolver(profileSchema, { errorPriority: 'first' }),
  });
  const update = useUpdateProfile({
    onSuccess: (saved) => {
      form.setValues({ name: saved.name, email: saved.email });
      form.resetDirty({ name: saved.name, email: saved.email });
      onSaved(saved);
      notifySuccess(t('profileForm.updated'), t('profileForm.updatedMessage'), { action: 'profile' });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      notifyFailure(t('profileForm.updateFailed'), errorDescription(error, t('profileForm.checkAndRetry')), { action: 'profile' });
    },
  });

  // Each field's props and key, worked out before the JSX (their names are keys, not text).
  const fields = { name: form.getInputProps('name'), email: form.getInputProps('email') };
  const keys = { name: form.key('name'), email: form.key('email') };

  return (
    <form noValidate aria-label={t('profileForm.formLabel')} onSubmit={form.onSubmit((values) => update.mutate(profileSchema.parse(values)))}>
      <Stack gap="md">
        <TextInput label={t('profileForm.username')} value={user.username} readOnly description={t('profileForm.usernameFixed')} />
        <TextInput label={t('profileForm.role')} value={labelOf('role', user.role)} readOnly />
        {user.organisation ? (
          <TextInput label={t('profileForm.organisation')} value={user.organisation.name} readOnly description={t('profileForm.placedByAdministrator')} />
        ) : null}
        {user.unit ? <TextInput label={t('profileForm.unit')} value={user.unit.name} readOnly /> : null}
        {user.manager ? <TextInput label={t('profileForm.lineManager')} value={user.manager.name} readOnly /> : null}
        <TextInput label={t('profileForm.fullName')} autoComplete="name" required withAsterisk={false} key={keys.name} {...fields.name} />
        <TextInput
          label={t('profileForm.email')}
          type="email"
          autoComplete="email"
          description={t('profileForm.emailDescription')}
          required
          withAsterisk={false}
          key={keys.email}
          {...fields.email}
        />
        <Group>
          <Button type="submit" loading={update.isPending}>
            {t('profileForm.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
