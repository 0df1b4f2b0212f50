// /auth/callback: where Auth sends the browser back after a sign-in through an organisation's
// identity provider. With ?code= (the PKCE flow) the code is exchanged for the session (the app's
// client does not read the address itself: detectSessionInUrl is off), the session kept as any
// other, and the person goes on to where they were going (the dashboard by default). With ?error=
// (or the same in the fragment) they go back to the sign-in page with what went wrong: a cancel, a
// refusal with its reason as sent, or the provider not answering. An administrator whose test
// sign-in was refused here (a SAML refusal comes back through the home page, which passes it on:
// Auth sends it to the site URL, not to the page the test was started from) goes back to the page
// the test was started from, with the refusal in its address, for that page to show. Never a blank
// page: a spinner while it works.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import {
  finishProviderSignIn, PROVIDER_NOT_ANSWERING, providerProblem, readProviderAnswer, SignInProblem, takeSignInTarget,
  takeTestPage, withAuthError,
} from '@/lib/auth/organisation-sign-in';
import { userQueryOptions } from '@/lib/auth/user';
import { PageMeta } from '@/lib/page/page-meta';
import { userKeys } from '@/lib/query-keys';
import { safeRedirect } from '@/lib/safe-redirect';
import { useTranslation } from 'react-i18next';

export function AuthCallbackRoute() {
  const { t } = useTranslation('pages');
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Read once: the address is replaced as the page leaves.
  const [answer] = useState(() => readProviderAnswer(location.search, location.hash));
  const started = useRef(false);

  useEffect(() => {
    // Once (React's strict mode runs effects twice; a code is exchanged only once).
    if (started.current) return;
    started.current = true;
    const refused = (message: string) => void navigate('/auth', { replace: true, state: { signInProblem: message } });
    // Read (and forgotten) whatever the answer: a test's page is for that test's answer only.
    const testPage = takeTestPage();
    if (answer.kind === 'error') {
      if (testPage) return void navigate(withAuthError(testPage, answer), { replace: true });
      return refused(providerProblem(answer));
    }
    if (answer.kind === 'none') return refused(PROVIDER_NOT_ANSWERING);
    const target = safeRedirect(takeSignInTarget(), '/dashboard');
    finishProviderSignIn(answer.code).then(
      async () => {
        // As after a password sign-in: what was read as a visitor is not the person's.
        void userKeys.signedIn(queryClient);
        const user = await queryClient.fetchQuery({ ...userQueryOptions(), staleTime: 0 }).catch(() => null);
        if (user) void navigate(target, { replace: true });
        else refused(PROVIDER_NOT_ANSWERING);
      },
      (error: unknown) => refused(error instanceof SignInProblem ? error.message : PROVIDER_NOT_ANSWERING),
    );
  }, [answer, navigate, queryClient]);

  return (
    <>
      <PageMeta title={t('authCallback.title')} description={t('authCallback.description')} />
      <PageSpinner label={t('authCallback.spinner')} />
    </>
  );
}
