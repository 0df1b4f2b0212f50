// /auth/callback: where Auth sends the browser back after a sign-in through an organisation's
// identity provider. With ?code= (the PKCE flow) the code is exchanged for the session (the app's
// client does not read the address itself: detectSessionInUrl is off), the session kept as any
// other, and the person goes on to where they were going (the dashboard by default). With ?error=
// (or the same in the fragment) they go back to the sign-in page with what went wrong: a cancel, a
// refusal with its reason as sent, or the provider not answering. Never a blank page: a spinner
// while it works.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import {
  finishProviderSignIn, PROVIDER_NOT_ANSWERING, providerProblem, readProviderAnswer, SignInProblem, takeSignInTarget,
} from '@/lib/auth/organisation-sign-in';
import { userQueryOptions } from '@/lib/auth/user';
import { PageMeta } from '@/lib/page/page-meta';
import { userKeys } from '@/lib/query-keys';
import { safeRedirect } from '@/lib/safe-redirect';

export function AuthCallbackRoute() {
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
    if (answer.kind === 'error') return refused(providerProblem(answer));
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
      <PageMeta title="Signing in" description="Signing you in through your organisation." />
      <PageSpinner label="Signing you in" />
    </>
  );
}
