// /auth's "Sign in with your organisation": the work address looked up (GET /api/sign-in/organisation,
// answered by a fake fetch), then supabase-js asked to go to the organisation's identity provider
// (watched, nothing leaves the page); and the password form's refusal for a person whose
// organisation signs them in itself.
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrganisationSignInOption } from '@shared/sign-in.ts';
import { routes } from '@/app/routes';
import { browserNavigation } from '@/lib/auth/organisation-sign-in';
import { loadSsoSupabase } from '@/lib/supabase';
import { fakeApi } from '@/test/fake-api';
import { renderWithProviders } from '@/test/render';

const organisationForm = () => within(screen.getByRole('form', { name: 'Sign in with your organisation' }));
const lookup = (email: string) => `GET /sign-in/organisation?email=${encodeURIComponent(email)}`;
const option = (protocol: 'oidc' | 'saml'): OrganisationSignInOption =>
  ({ protocol, organisationName: 'Northshire Police', domain: 'northshire.police.uk', passwordSignIn: false });

afterEach(() => {
  vi.restoreAllMocks();
});

async function openSignIn(route = '/auth') {
  const rendered = renderWithProviders(null, { routes, route });
  await screen.findByRole('heading', { name: 'Sign in to your account' });
  return rendered;
}

describe('/auth: sign in with your organisation', () => {
  it('asks for a work address, and says when no organisation signs in with its domain here', async () => {
    const api = fakeApi({
      [lookup('jane@example.org')]: { status: 404, body: { message: 'No organisation signs in with addresses at example.org here' } },
    });
    const { user } = await openSignIn();
    const f = organisationForm();
    const email = f.getByLabelText('Work email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    await user.click(f.getByRole('button', { name: 'Continue to your organisation' }));
    expect(email).toHaveAccessibleDescription('Give your work email address');
    await user.type(email, 'jane');
    await user.click(f.getByRole('button', { name: 'Continue to your organisation' }));
    expect(email).toHaveAccessibleDescription('Give your work email address, such as name@force.police.uk');
    expect(api.requests.filter((r) => r.path.startsWith('/sign-in'))).toHaveLength(0);

    await user.clear(email);
    await user.type(email, 'Jane@Example.org');
    await user.click(f.getByRole('button', { name: 'Continue to your organisation' }));
    await vi.waitFor(() => expect(email).toHaveAccessibleDescription('No organisation signs in with addresses at example.org here'));
    expect(email).toHaveAttribute('aria-invalid', 'true');
  });

  it('goes to Entra ID (OpenID Connect) with the address as the login hint, back to /auth/callback', async () => {
    fakeApi({ [lookup('amira.khan@northshire.police.uk')]: { body: option('oidc') } });
    const sso = await loadSsoSupabase();
    const oauth = vi.spyOn(sso.auth, 'signInWithOAuth').mockResolvedValue({ data: { provider: 'azure', url: 'https://login.example/' }, error: null });
    const { user } = await openSignIn();
    await user.type(organisationForm().getByLabelText('Work email'), 'amira.khan@northshire.police.uk');
    await user.click(organisationForm().getByRole('button', { name: 'Continue to your organisation' }));
    await vi.waitFor(() => expect(oauth).toHaveBeenCalledTimes(1));
    expect(oauth).toHaveBeenCalledWith({
      provider: 'azure',
      options: { redirectTo: `${window.location.origin}/auth/callback`, queryParams: { login_hint: 'amira.khan@northshire.police.uk' }, scopes: 'email profile' },
    });
  });

  it('goes to the SAML provider of the address\'s domain, back to /auth/callback', async () => {
    fakeApi({ [lookup('amira.khan@northshire.police.uk')]: { body: option('saml') } });
    const sso = await loadSsoSupabase();
    const saml = vi.spyOn(sso.auth, 'signInWithSSO').mockResolvedValue({ data: { url: 'https://idp.example/saml?SAMLRequest=x' }, error: null });
    const leave = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => {});
    const { user } = await openSignIn();
    await user.type(organisationForm().getByLabelText('Work email'), 'amira.khan@northshire.police.uk');
    await user.click(organisationForm().getByRole('button', { name: 'Continue to your organisation' }));
    await vi.waitFor(() => expect(leave).toHaveBeenCalledWith('https://idp.example/saml?SAMLRequest=x'));
    expect(saml).toHaveBeenCalledWith({ domain: 'northshire.police.uk', options: { redirectTo: `${window.location.origin}/auth/callback` } });
  });

  it('shows Auth\'s refusal of a password for a person whose organisation signs them in, and fills in their work address', async () => {
    const refusal = 'Northshire Police signs its people in through its own identity provider. Use "Sign in with your organisation".';
    fakeApi({ 'POST /login': { status: 403, body: { message: refusal } } });
    const { user } = await openSignIn();
    const login = within(screen.getByRole('form', { name: 'Login' }));
    await user.type(login.getByLabelText(/Username/), 'amira.khan@northshire.police.uk');
    await user.type(login.getByLabelText(/Password/), 'a password');
    await user.click(login.getByRole('button', { name: 'Login' }));
    expect(await login.findByRole('alert')).toHaveTextContent(refusal);
    expect(organisationForm().getByLabelText('Work email')).toHaveValue('amira.khan@northshire.police.uk');
  });
});
