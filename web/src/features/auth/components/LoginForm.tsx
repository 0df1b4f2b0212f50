// Login form: @mantine/form with the shared loginSchema; server field errors land under the fields.
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { visibilityToggleProps } from './password-toggle';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { loginSchema, type LoginInput } from '@shared/schemas.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useHydrated } from '@/lib/hydrated';
import { useLogin } from '../api/login';

/** The words of Auth's refusal for a person whose organisation signs its people in itself (it names the
 * "Sign in with your organisation" form, in English or, translated, in the page's language). */
const ORGANISATION_ONLY = /Sign in with your organisation/;

export function LoginForm({ onSuccess, onOrganisationOnly }: {
  onSuccess?: () => void;
  /** The password was refused because the person's organisation signs them in (its message is shown). */
  onOrganisationOnly?: (username: string) => void;
}) {
  const { t } = useTranslation('auth');
  const form = useForm<LoginInput>({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: translatedResolver(loginSchema, { errorPriority: 'first' }),
  });
  // /auth is prerendered (web/prerender.mjs): until the app owns the form, its fields are read-only
  // and its button disabled (no implicit submission either), so nothing typed is lost to hydration.
  const live = useHydrated();
  // Shown inside the form, above the fields, as well as in a toast; a new attempt clears it.
  const [failure, setFailure] = useState<string | null>(null);
  const login = useLogin({
    onSuccess: (user) => {
      setFailure(null);
      notifySuccess(t('loginForm.successTitle'), t('loginForm.successMessage', { name: user.name }), { action: 'auth' });
      onSuccess?.();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      const message = errorDescription(error, t('loginForm.failureFallback'));
      setFailure(message);
      if (ORGANISATION_ONLY.test(message) || message.includes(t('organisationSignIn.heading'))) onOrganisationOnly?.(form.getValues().username);
      notifyFailure(t('loginForm.failureTitle'), message, { action: 'auth' });
    },
  });

  // Each field's props (value, onChange, error), taken before the JSX.
  const inputs = {
    username: form.getInputProps('username'),
    password: form.getInputProps('password'),
  };
  return (
    <form
      // Were the app never to start, a submit would not put the fields in the URL.
      method="post"
      noValidate
      aria-label={t('loginForm.formLabel')}
      onSubmit={form.onSubmit((values) => {
        setFailure(null);
        login.mutate(loginSchema.parse(values));
      })}
    >
      <Stack gap="md">
        <div aria-live="assertive">
          {failure && (
            <Alert color="red" variant="light" title={t('loginForm.failureTitle')} role="alert">
              {failure}
            </Alert>
          )}
        </div>
        <TextInput
          label={t('loginForm.username')}
          name="username"
          description={t('loginForm.usernameDescription')}
          autoComplete="username"
          required withAsterisk={false}
          readOnly={!live}
          key={form.key('username')}
          {...inputs.username}
        />
        <PasswordInput
          visibilityToggleButtonProps={visibilityToggleProps(t)}
          label={t('loginForm.password')}
          name="password"
          autoComplete="current-password"
          required withAsterisk={false}
          readOnly={!live}
          key={form.key('password')}
          {...inputs.password}
        />
        <Group justify="flex-end" mt={-8}>
          <Anchor component={Link} to="/auth/forgot" size="sm">
            {t('loginForm.forgotPassword')}
          </Anchor>
        </Group>
        <Button type="submit" fullWidth loading={login.isPending} disabled={!live}>
          {t('loginForm.submit')}
        </Button>
      </Stack>
    </form>
  );
}
