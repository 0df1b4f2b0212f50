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
import { useTranslation } from 'react-i18next';

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

/** Why the link could not start, as a message key of the profile catalogue (linkOrganisation.errors.*). */
class LinkError extends Error {
  constructor(readonly reason: 'signInAgain' | 'notAnswering') {
    super(reason);
  }
}

/** Hands the session to the sign-in client, which starts the provider's sign-in to be linked. */
async function startLink(): Promise<void> {
  const { data } = await (await loadSupabase()).auth.getSession();
  if (!data.session) throw new LinkError('signInAgain');
  const sso = await loadSsoSupabase();
  const { error: kept } = await sso.auth.setSession({ access_token: data.session.access_token, refresh_token: data.session.refresh_token });
  if (kept) throw new LinkError('signInAgain');
  rememberSignInTarget('/profile');
  const { error } = await sso.auth.linkIdentity({
    provider: 'azure',
    options: { redirectTo: `${window.location.origin}${CALLBACK_PATH}`, scopes: 'email profile' },
  });
  if (error) throw new LinkError('notAnswering');
}

export function LinkOrganisationSignIn({ email }: { email: string }) {
  const { t } = useTranslation('profile');
  const state = useQuery({ queryKey: userKeys.organisationSignInLink(email), queryFn: () => linkState(email), staleTime: 60_000 });
  const link = useMutation({ mutationFn: startLink });
  if (!state.data) return null;
  const { organisationName, linked } = state.data;
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="organisation-sign-in-heading">
      <Title order={2} size="h3" id="organisation-sign-in-heading" mb="xs">
        {t('linkOrganisation.title')}
      </Title>
      {linked ? (
        <Text>{t('linkOrganisation.linked', { organisation: organisationName })}</Text>
      ) : (
        <>
          <Text mb="md">{t('linkOrganisation.explain', { organisation: organisationName })}</Text>
          {link.error ? (
            <Alert color="red" variant="light" role="alert" mb="md">
              {link.error instanceof LinkError ? t(`linkOrganisation.errors.${link.error.reason}`) : link.error.message}
            </Alert>
          ) : null}
          <Button variant="default" loading={link.isPending} onClick={() => link.mutate()}>
            {t('linkOrganisation.link', { organisation: organisationName })}
          </Button>
        </>
      )}
    </Card>
  );
}
