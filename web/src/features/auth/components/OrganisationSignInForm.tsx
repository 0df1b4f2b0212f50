// "Sign in with your organisation": a work email address, looked up (GET /api/sign-in/organisation),
// then the organisation's identity provider. An address no organisation signs in with here gets the
// API's message under the field.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { ApiError, errorDescription } from '@/lib/api-client';
import { useHydrated } from '@/lib/hydrated';
import { useSignInWithOrganisation } from '../api/organisation-sign-in';

const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function OrganisationSignInForm({ email, onEmailChange, target }: {
  email: string;
  onEmailChange: (email: string) => void;
  /** Where the person lands once signed in. */
  target: string;
}) {
  // The sign-in page is prerendered (as LoginForm): read-only until the app owns it.
  const live = useHydrated();
  const { t } = useTranslation('auth');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const signIn = useSignInWithOrganisation({
    onError: (error) => {
      // No organisation signs in with that domain (404), or the address is refused (400): the field's message.
      if (error instanceof ApiError && (error.status === 404 || error.fields?.email)) {
        setFieldError(error.fields?.email ?? error.serverMessage);
      } else {
        setFailure(errorDescription(error, t('organisationSignIn.startFailed')));
      }
    },
  });

  return (
    <form
      method="post"
      noValidate
      aria-labelledby="organisation-sign-in-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (!live || signIn.isPending) return;
        setFailure(null);
        const address = email.trim().toLowerCase();
        if (!address) return setFieldError(t('organisationSignIn.emailRequired'));
        if (!EMAIL_PATTERN.test(address)) return setFieldError(t('organisationSignIn.emailInvalid'));
        setFieldError(null);
        signIn.mutate({ email: address, target });
      }}
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="organisation-sign-in-heading">{t('organisationSignIn.heading')}</Title>
          <Text size="sm" mt={4}>{t('organisationSignIn.intro')}</Text>
        </div>
        <div aria-live="assertive">
          {failure ? <Alert color="red" variant="light" title={t('organisationSignIn.notStarted')} role="alert">{failure}</Alert> : null}
        </div>
        <TextInput
          label={t('organisationSignIn.workEmail')}
          name="work-email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          required
          withAsterisk={false}
          readOnly={!live}
          value={email}
          onChange={(e) => onEmailChange(e.currentTarget.value)}
          error={fieldError}
        />
        <Button type="submit" variant="default" fullWidth loading={signIn.isPending} disabled={!live}>
          {t('organisationSignIn.submit')}
        </Button>
      </Stack>
    </form>
  );
}
