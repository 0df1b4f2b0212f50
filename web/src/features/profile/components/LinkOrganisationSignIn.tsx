// "Your organisation's sign-in" on the profile: a person whose organisation signs its people in
// through Microsoft Entra ID (OpenID Connect), and who has a password account here, links the two
// so that they can sign in either way. They are signed in, so they have proved their password;
// supabase-js's linkIdentity sends them to the provider, and the database links only their own
// organisation's provider (docs/decisions/organisation-sign-in.md). Nothing shows for anyone else.
import { Alert, Button, Card, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { OrganisationSignInOption } from '@shared/sign-in.ts';
import { api } from '@/lib/api-client';
import { CALLBACK_PATH, rememberSignInTarget } from '@/lib/auth/organisation-sign-in';
import { userKeys } from '@/lib/query-keys';
import { loadSsoSupabase, loadSupabase } from '@/lib/supabase';

interface LinkState {
  organisationName: string;
  linked: boolean;
}

/** Whether the person's organisation offers a sign-in to link, and whether theirs is linked already. */
async function linkState(email: string): Promise<LinkState | null> {
  const option = await api.get<OrganisationSignInOption>(`/sign-in/organisation?email=${encodeURIComponent(email)}`).catch(() => null);
  if (!option || option.protocol !== 'oidc') return null;
  const { data } = await (await loadSupabase()).auth.getUserIdentities();
  return { organisationName: option.organisationName, linked: (data?.identities ?? []).some((i) => i.provider === 'azure') };
}

/** Hands the session to the sign-in client, which starts the provider's sign-in to be linked. */
async function startLink(): Promise<void> {
  const { data } = await (await loadSupabase()).auth.getSession();
  if (!data.session) throw new Error('Sign in again, then link your organisation\'s sign-in.');
  const sso = await loadSsoSupabase();
  const { error: kept } = await sso.auth.setSession({ access_token: data.session.access_token, refresh_token: data.session.refresh_token });
  if (kept) throw new Error('Sign in again, then link your organisation\'s sign-in.');
  rememberSignInTarget('/profile');
  const { error } = await sso.auth.linkIdentity({
    provider: 'azure',
    options: { redirectTo: `${window.location.origin}${CALLBACK_PATH}`, scopes: 'email profile' },
  });
  if (error) throw new Error("Your organisation's sign-in is not answering. Try again later.");
}

export function LinkOrganisationSignIn({ email }: { email: string }) {
  const state = useQuery({ queryKey: userKeys.organisationSignInLink(email), queryFn: () => linkState(email), staleTime: 60_000 });
  const link = useMutation({ mutationFn: startLink });
  if (!state.data) return null;
  const { organisationName, linked } = state.data;
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="organisation-sign-in-heading">
      <Title order={2} size="h3" id="organisation-sign-in-heading" mb="xs">
        Your organisation&apos;s sign-in
      </Title>
      {linked ? (
        <Text>You can sign in with your {organisationName} account as well as your password.</Text>
      ) : (
        <>
          <Text mb="md">
            Link your {organisationName} account to this one, then sign in with either. You will be asked to sign in there.
          </Text>
          {link.error ? <Alert color="red" variant="light" role="alert" mb="md">{link.error.message}</Alert> : null}
          <Button variant="default" loading={link.isPending} onClick={() => link.mutate()}>
            Link your {organisationName} account
          </Button>
        </>
      )}
    </Card>
  );
}
