// The "Forgot password?" form: one email field. The confirmation is the same whether or not the
// address has an account (nobody learns which addresses exist) and takes the focus when it shows.
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { translatedResolver } from '@/lib/i18n/form-validation';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { z } from 'zod';
import { emailField } from '@shared/schemas.ts';
import { errorDescription } from '@/lib/api-client';
import { useRequestPasswordReset } from '../api/recovery';

const forgotSchema = z.object({ email: emailField });

export function ForgotPasswordForm() {
  const { t } = useTranslation('auth');
  const form = useForm({ mode: 'controlled', initialValues: { email: '' }, validate: translatedResolver(forgotSchema, { errorPriority: 'first' }) });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const confirmation = useRef<HTMLDivElement>(null);
  const request = useRequestPasswordReset({
    onError: (error) => setFailure(errorDescription(error, t('forgotPasswordForm.sendFailed'))),
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
          title={t('forgotPasswordForm.checkEmail')}
          role="status"
          // The light variant's green title is too pale on its tint (WCAG 1.4.3): the text colour instead.
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          {t('forgotPasswordForm.sentMessage')}
        </Alert>
        <Text size="sm">
          <Trans
            t={t}
            i18nKey="forgotPasswordForm.nothingArrived"
            components={{ resend: <Anchor component="button" type="button" size="sm" onClick={() => setSentTo(null)} /> }}
          />
        </Text>
      </Stack>
    );
  }

  // Each field's props (value, onChange, error), taken before the JSX.
  const inputs = {
    email: form.getInputProps('email'),
  };
  return (
    <form
      noValidate
      aria-label={t('forgotPasswordForm.formLabel')}
      onSubmit={form.onSubmit((values) => {
        setFailure(null);
        const email = forgotSchema.parse(values).email;
        request.mutate(email, { onSuccess: () => setSentTo(email) });
      })}
    >
      <Stack gap="md">
        <div aria-live="assertive">
          {failure && (
            <Alert color="red" variant="light" title={t('forgotPasswordForm.notSent')} role="alert">
              {failure}
            </Alert>
          )}
        </div>
        <TextInput
          label={t('forgotPasswordForm.email')}
          description={t('forgotPasswordForm.emailDescription')}
          type="email"
          autoComplete="email"
          required
          withAsterisk={false}
          key={form.key('email')}
          {...inputs.email}
        />
        <Button type="submit" fullWidth loading={request.isPending}>
          {t('forgotPasswordForm.submit')}
        </Button>
        <Anchor component={Link} to="/auth" size="sm" ta="center">
          {t('forgotPasswordForm.backToSignIn')}
        </Anchor>
      </Stack>
    </form>
  );
}
