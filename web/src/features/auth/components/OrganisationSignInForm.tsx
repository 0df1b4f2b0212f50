// "Sign in with your organisation": a work email address, looked up (GET /api/sign-in/organisation),
// then the organisation's identity provider. An address no organisation signs in with here gets the
// API's message under the field.
import { useState } from 'react';
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { ApiError, errorDescription } from '@/lib/api-client';
import { useHydrated } from '@/lib/hydrated';
import { useSignInWithOrganisation } from '../api/organisation-sign-in';

const EMAIL_REQUIRED = 'Give your work email address';
const EMAIL_INVALID = 'Give your work email address, such as name@force.police.uk';
const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function OrganisationSignInForm({ email, onEmailChange, target }: {
  email: string;
  onEmailChange: (email: string) => void;
  /** Where the person lands once signed in. */
  target: string;
}) {
  // The sign-in page is prerendered (as LoginForm): read-only until the app owns it.
  const live = useHydrated();
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const signIn = useSignInWithOrganisation({
    onError: (error) => {
      // No organisation signs in with that domain (404), or the address is refused (400): the field's message.
      if (error instanceof ApiError && (error.status === 404 || error.fields?.email)) {
        setFieldError(error.fields?.email ?? error.serverMessage);
      } else {
        setFailure(errorDescription(error, "Your organisation's sign-in could not start. Try again."));
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
        if (!address) return setFieldError(EMAIL_REQUIRED);
        if (!EMAIL_PATTERN.test(address)) return setFieldError(EMAIL_INVALID);
        setFieldError(null);
        signIn.mutate({ email: address, target });
      }}
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="organisation-sign-in-heading">Sign in with your organisation</Title>
          <Text size="sm" mt={4}>If your organisation signs you in with your work account, give your work email address.</Text>
        </div>
        <div aria-live="assertive">
          {failure ? <Alert color="red" variant="light" title="Sign-in did not start" role="alert">{failure}</Alert> : null}
        </div>
        <TextInput
          label="Work email"
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
          Continue to your organisation
        </Button>
      </Stack>
    </form>
  );
}
