// The "Forgot password?" form: one email field. The confirmation is the same whether or not the
// address has an account (nobody learns which addresses exist) and takes the focus when it shows.
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { emailField } from '@shared/schemas.ts';
import { errorDescription } from '@/lib/api-client';
import { useRequestPasswordReset } from '../api/recovery';

const forgotSchema = z.object({ email: emailField });

export const RESET_SENT_MESSAGE =
  'If an account exists for that address, we have sent a link to reset the password. It expires in 1 hour.';

export function ForgotPasswordForm() {
  const form = useForm({ mode: 'controlled', initialValues: { email: '' }, validate: translatedResolver(forgotSchema, { errorPriority: 'first' }) });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const confirmation = useRef<HTMLDivElement>(null);
  const request = useRequestPasswordReset({
    onError: (error) => setFailure(errorDescription(error, 'The link could not be sent. Please try again.')),
  });

  useEffect(() => {
    if (sentTo) confirmation.current?.focus();
  }, [sentTo]);

  if (sentTo) {
    return (
      <Stack gap="md">
        <Alert
          ref={confirmation}
          tabIndex={-1}
          color="green"
          variant="light"
          title="Check your email"
          role="status"
          // The light variant's green title is too pale on its tint (WCAG 1.4.3): the text colour instead.
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          {RESET_SENT_MESSAGE}
        </Alert>
        <Text size="sm">
          Nothing arrived? Check your junk folder, or{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => setSentTo(null)}>
            send another link
          </Anchor>{' '}
          in a minute.
        </Text>
      </Stack>
    );
  }

  return (
    <form
      noValidate
      aria-label="Reset your password"
      onSubmit={form.onSubmit((values) => {
        setFailure(null);
        const email = forgotSchema.parse(values).email;
        request.mutate(email, { onSuccess: () => setSentTo(email) });
      })}
    >
      <Stack gap="md">
        <div aria-live="assertive">
          {failure && (
            <Alert color="red" variant="light" title="Link not sent" role="alert">
              {failure}
            </Alert>
          )}
        </div>
        <TextInput
          label="Email address"
          description="The address of your account"
          type="email"
          autoComplete="email"
          required
          withAsterisk={false}
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <Button type="submit" fullWidth loading={request.isPending}>
          Send reset link
        </Button>
        <Anchor component={Link} to="/auth" size="sm" ta="center">
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}
