// Login form: @mantine/form with the shared loginSchema; server field errors land under the fields.
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { useState } from 'react';
import { visibilityToggleProps as TOGGLE_PROPS } from './password-toggle';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { loginSchema, type LoginInput } from '@shared/schemas.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useHydrated } from '@/lib/hydrated';
import { useLogin } from '../api/login';

/** The words of Auth's refusal for a person whose organisation signs its people in itself. */
const ORGANISATION_ONLY = /Sign in with your organisation/;

export function LoginForm({ onSuccess, onOrganisationOnly }: {
  onSuccess?: () => void;
  /** The password was refused because the person's organisation signs them in (its message is shown). */
  onOrganisationOnly?: (username: string) => void;
}) {
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
      notifySuccess('Login successful', `Welcome back, ${user.name}!`, { action: 'auth' });
      onSuccess?.();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) form.setErrors(error.fields);
      const message = errorDescription(error, 'Please check your credentials and try again');
      setFailure(message);
      if (ORGANISATION_ONLY.test(message)) onOrganisationOnly?.(form.getValues().username);
      notifyFailure('Login failed', message, { action: 'auth' });
    },
  });

  return (
    <form
      // Were the app never to start, a submit would not put the fields in the URL.
      method="post"
      noValidate
      aria-label="Login"
      onSubmit={form.onSubmit((values) => {
        setFailure(null);
        login.mutate(loginSchema.parse(values));
      })}
    >
      <Stack gap="md">
        <div aria-live="assertive">
          {failure && (
            <Alert color="red" variant="light" title="Login failed" role="alert">
              {failure}
            </Alert>
          )}
        </div>
        <TextInput
          label="Username"
          name="username"
          description="Your username or email address"
          autoComplete="username"
          required withAsterisk={false}
          readOnly={!live}
          key={form.key('username')}
          {...form.getInputProps('username')}
        />
        <PasswordInput
          visibilityToggleButtonProps={TOGGLE_PROPS}
          label="Password"
          name="password"
          autoComplete="current-password"
          required withAsterisk={false}
          readOnly={!live}
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end" mt={-8}>
          <Anchor component={Link} to="/auth/forgot" size="sm">
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" fullWidth loading={login.isPending} disabled={!live}>
          Login
        </Button>
      </Stack>
    </form>
  );
}
