// /auth/reset: where a password reset or welcome email's link lands. Auth has put the
// recovery session in the URL fragment (or its error, for a used or expired link); the page keeps
// the session, removes the tokens from the address bar, and asks for the new password. Outside
// RequirePasswordChosen: a person who still holds a temporary password sets their own here.
import { Alert, Anchor, Card, Center, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { readRecoveryFragment, startRecoverySession } from '@/features/auth/api/recovery';
import { ResetPasswordForm } from '@/features/auth/components/ResetPasswordForm';
import { PageSpinner } from '@/components/PageSpinner';
import { readStoredSession } from '@/lib/supabase';
import { userKeys } from '@/lib/query-keys';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

type State = 'starting' | 'ready' | 'refused';

export function ResetPasswordRoute() {
  const { t } = useTranslation('pages');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The link's fragment, read once; without a token the answer is known at once.
  const [fragment] = useState(() => readRecoveryFragment(window.location.hash));
  const [state, setState] = useState<State>(() =>
    fragment.kind === 'error' ? 'refused' : fragment.kind === 'none' ? (readStoredSession() ? 'ready' : 'refused') : 'starting');
  const started = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    // Once: the fragment is removed and its session started on the first run (React's strict mode
    // runs effects twice).
    if (started.current) return;
    started.current = true;
    if (fragment.kind !== 'none') window.history.replaceState(window.history.state, '', window.location.pathname);
    if (fragment.kind === 'error' || fragment.kind === 'none') return;
    startRecoverySession(fragment).then(
      () => setState('ready'),
      () => setState('refused'),
    );
  }, [fragment]);

  // Refused after the form was sent: the form is gone, so the focus goes to what replaced it.
  const [refusedOnSubmit, setRefusedOnSubmit] = useState(false);
  useEffect(() => {
    if (refusedOnSubmit) heading.current?.focus();
  }, [refusedOnSubmit]);

  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: userKeys.current });
    void navigate('/dashboard', { replace: true });
  };

  if (state === 'starting') return <PageSpinner label={t('resetPassword.checkingLink')} />;

  return (
    <Center py="lg">
      <Stack w="100%" maw={440} gap="md">
        <PageMeta title={t('resetPassword.title')} description={t('resetPassword.description')} />
        {state === 'refused' ? (
          <>
            <Title order={1} ta="center" size="h2" ref={heading} tabIndex={-1}>
              {t('resetPassword.expiredHeading')}
            </Title>
            <Alert color="red" variant="light" title={t('resetPassword.refusedTitle')} role="alert">
              {t('resetPassword.refusedText')}
            </Alert>
            <Text ta="center">
              <Anchor component={Link} to="/auth/forgot">
                {t('resetPassword.askNewLink')}
              </Anchor>
            </Text>
          </>
        ) : (
          <>
            <Title order={1} ta="center" size="h2">
              {t('resetPassword.heading')}
            </Title>
            <Card withBorder padding="lg">
              <Text mb="md">{t('resetPassword.intro')}</Text>
              <ResetPasswordForm
                onChanged={() => void changed()}
                onLinkRefused={() => {
                  setRefusedOnSubmit(true);
                  setState('refused');
                }}
              />
            </Card>
          </>
        )}
      </Stack>
    </Center>
  );
}
