// "Sign in with your organisation": GET /api/sign-in/organisation?email= says how a work address
// signs in (which protocol, for which domain), then supabase-js sends the browser to the
// organisation's identity provider, which sends it back to /auth/callback.
import { useMutation } from '@tanstack/react-query';
import type { OrganisationSignInOption } from '@shared/sign-in.ts';
import { api } from '@/lib/api-client';
import { CALLBACK_PATH, rememberSignInTarget, startProviderSignIn } from '@/lib/auth/organisation-sign-in';

export const lookupOrganisationSignIn = (email: string) =>
  api.get<OrganisationSignInOption>(`/sign-in/organisation?email=${encodeURIComponent(email)}`);

/** Looks the address up and leaves for the provider; `target` is where the person lands afterwards. */
export async function signInWithOrganisation({ email, target }: { email: string; target: string }): Promise<OrganisationSignInOption> {
  const option = await lookupOrganisationSignIn(email);
  rememberSignInTarget(target);
  await startProviderSignIn({
    protocol: option.protocol,
    domain: option.domain,
    redirectTo: `${window.location.origin}${CALLBACK_PATH}`,
    // Entra fills the account in, so the person does not type their address twice.
    queryParams: option.protocol === 'oidc' ? { login_hint: email } : undefined,
  });
  return option;
}

export function useSignInWithOrganisation(options: { onError?: (error: Error) => void } = {}) {
  return useMutation({ mutationFn: signInWithOrganisation, onError: options.onError });
}
