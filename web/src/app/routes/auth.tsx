// /auth: Login and Register tabs. A signed-in user goes to / or to a safe
// `redirect` path, which is also where a successful login or registration lands. Beside the
// password form, "Sign in with your organisation" (its identity provider); /auth/callback sends a
// sign-in that did not finish back here with what went wrong (navigation state signInProblem).
import { Alert, Anchor, Card, Center, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { LoginForm } from '@/features/auth/components/LoginForm';
import { OrganisationSignInForm } from '@/features/auth/components/OrganisationSignInForm';
import { RegisterForm } from '@/features/auth/components/RegisterForm';
import { PageSpinner } from '@/components/PageSpinner';
import { safeRedirect } from '@/lib/safe-redirect';
import { dismissNotification } from '@/lib/notify';
import { PageMeta } from '@/lib/page/page-meta';
import { useHydrated } from '@/lib/hydrated';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '@/lib/i18n/messages';

type Tab = 'login' | 'register';

export function AuthRoute() {
  const { t } = useTranslation('pages');
  const { data: user, isPending } = useUser();
  const [params] = useSearchParams();
  const [tab, setTabState] = useState<Tab>(params.get('tab') === 'register' ? 'register' : 'login');
  // The other tab's outcome (e.g. "Login failed") is not about the form now shown.
  const setTab = (next: Tab) => {
    if (next !== tab) dismissNotification('auth');
    setTabState(next);
  };
  const target = safeRedirect(params.get('redirect'));
  const problem = (useLocation().state as { signInProblem?: unknown } | null)?.signInProblem;
  const [workEmail, setWorkEmail] = useState('');
  // The page is prerendered (web/prerender.mjs): its tabs and buttons do nothing until the app owns
  // them, and say so (aria-disabled) meanwhile.
  const live = useHydrated();
  const waiting = live ? undefined : true;

  if (isPending) return <PageSpinner label={t('shared.checkingSession')} />;
  if (user) return <Navigate to={target} replace />;

  const isLogin = tab === 'login';
  return (
    <Center py="lg">
      <Stack w="100%" maw={440} gap="md">
        <PageMeta
          title={isLogin ? t('auth.signInTitle') : t('auth.registerTitle')}
          description={isLogin ? t('auth.signInDescription') : t('auth.registerDescription')}
        />
        <Title order={1} ta="center" size="h2">
          {isLogin ? t('auth.signInHeading') : t('auth.registerHeading')}
        </Title>
        {typeof problem === 'string' && problem ? (
          <Alert color="red" variant="light" title={t('auth.notSignedIn')} role="alert">
            {translateMessage(String(problem))}
          </Alert>
        ) : null}
        <Tabs value={tab} onChange={(value) => value && setTab(value as Tab)} keepMounted={false}>
          <Tabs.List grow mb="md">
            <Tabs.Tab value="login" aria-disabled={waiting}>
              {t('auth.loginTab')}
            </Tabs.Tab>
            <Tabs.Tab value="register" aria-disabled={waiting}>
              {t('auth.registerTab')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="login">
            <Card withBorder padding="lg">
              <Text mb="md">{t('auth.loginIntro')}</Text>
              <LoginForm onOrganisationOnly={(username) => {
                if (username.includes('@') && !workEmail) setWorkEmail(username);
              }} />
              <Text size="sm" ta="center" mt="md">
                {t('auth.noAccount')}{' '}
                <Anchor component="button" type="button" size="sm" aria-disabled={waiting} onClick={() => setTab('register')}>
                  {t('auth.registerNow')}
                </Anchor>
              </Text>
            </Card>
            <Card withBorder padding="lg" mt="md">
              <OrganisationSignInForm
                email={workEmail}
                onEmailChange={setWorkEmail}
                target={safeRedirect(params.get('redirect'), '/dashboard')}
              />
            </Card>
          </Tabs.Panel>
          <Tabs.Panel value="register">
            <Card withBorder padding="lg">
              <Text mb="md">{t('auth.registerIntro')}</Text>
              <RegisterForm />
              <Text size="sm" ta="center" mt="md">
                {t('auth.haveAccount')}{' '}
                <Anchor component="button" type="button" size="sm" aria-disabled={waiting} onClick={() => setTab('login')}>
                  {t('auth.signIn')}
                </Anchor>
              </Text>
            </Card>
          </Tabs.Panel>
        </Tabs>
        <Anchor component={Link} to="/" ta="center" size="sm">
          {t('shared.returnHome')}
        </Anchor>
      </Stack>
    </Center>
  );
}
