// /auth/callback: Auth's answer after a sign-in through an organisation's identity provider. A code
// is exchanged (supabase-js watched) and the person lands on the dashboard; an error goes back to
// the sign-in page with a message a person can act on, never a blank page; or, for an
// administrator's test sign-in, back to the page the test was started from. Auth's refusal of a SAML
// sign-in arrives at the home page (the site URL), which passes it on here.
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '@shared/domain.ts';
import type { OrganisationSignIn } from '@shared/sign-in.ts';
import { routes } from '@/app/routes';
import { AuthCallbackRoute } from '@/app/routes/auth-callback';
import { HomeRoute } from '@/app/routes/home';
import { OrganisationTab } from '@/features/organisations/components/OrganisationTab';
import { rememberTestPage } from '@/lib/auth/organisation-sign-in';
import { organisationKeys } from '@/lib/query-keys';
import { loadSsoSupabase, loadSupabase, sessionStorageKey } from '@/lib/supabase';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';

afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

const TRUST = 'a0000000-0000-4000-a000-000000000002';
const TESTED = "Southshire Ambulance Service's sign-in is being tested and is not switched on yet; your administrator can now see what it sent.";
/** Auth's refusal of a SAML sign-in, as it sends it to the site URL. */
const REFUSED_AT_SITE_URL = `/?error=access_denied&error_code=signup_disabled&error_description=${encodeURIComponent(TESTED)}`;
const trustAdmin: CurrentUser = {
  ...makeUser({ role: 'ADMIN', username: 'trustadmin', name: 'Trust Admin', organisationId: TRUST }),
  organisation: { id: TRUST, name: 'Southshire Ambulance Service', code: 'SAS' },
  hasReports: false,
};
const trustSignIn: OrganisationSignIn = {
  organisationId: TRUST,
  domains: ['southshire-ambulance.example.uk'],
  settings: {
    protocol: 'saml', tenantId: null, samlMetadataUrl: 'https://idp.example/metadata', samlRegistered: true,
    attributeMapping: { unit: 'department' }, newPersonRole: 'STUDENT', newPersonServices: ['UKAS'],
    enabled: false, passwordSignIn: true, testedAt: null, updatedAt: '2026-11-20T09:00:00.000Z',
  },
  tests: [],
  provider: { redirectUri: 'https://l.example/auth/v1/callback', samlEntityId: 'https://l.example/m', samlAcsUrl: 'https://l.example/acs' },
};

async function problemShown(route: string) {
  const rendered = renderWithProviders(null, { routes, route });
  // (The sign-in page first: the home page a refusal can arrive at has alerts of its own.)
  await screen.findByRole('heading', { name: 'Sign in to your account' }, { timeout: 5_000 });
  expect(rendered.router.state.location.pathname).toBe('/auth');
  return screen.findByRole('alert');
}

describe('/auth/callback', () => {
  it('says a sign-in cancelled at the provider was cancelled', async () => {
    expect(await problemShown('/auth/callback?error=access_denied')).toHaveTextContent('Sign-in was cancelled.');
  });

  it('says so for a cancel the provider describes', async () => {
    const alert = await problemShown('/auth/callback?error=access_denied&error_description=AADSTS65004%3A+User+declined+to+consent');
    expect(alert).toHaveTextContent('Sign-in was cancelled.');
  });

  it('shows the organisation\'s refusal as it was sent, also from the fragment', async () => {
    const refusal = 'Your account at Northshire Police has been deactivated. Ask your administrator.';
    const alert = await problemShown(`/auth/callback#error=access_denied&error_code=signup_disabled&error_description=${encodeURIComponent(refusal)}`);
    expect(alert).toHaveTextContent(refusal);
  });

  it('says the organisation\'s sign-in is not answering when the provider fails', async () => {
    const alert = await problemShown('/auth/callback?error=server_error&error_code=unexpected_failure&error_description=Error+reaching+the+identity+provider');
    expect(alert).toHaveTextContent("Your organisation's sign-in is not answering. Try again, or sign in with your password.");
  });

  it('sends an address with no answer back to the sign-in page, with a message', async () => {
    expect(await problemShown('/auth/callback')).toHaveTextContent("Your organisation's sign-in is not answering.");
  });

  it('says to start again when the code cannot be exchanged here', async () => {
    const sso = await loadSsoSupabase();
    vi.spyOn(sso.auth, 'exchangeCodeForSession').mockResolvedValue({
      data: { session: null, user: null, redirectType: null },
      error: Object.assign(new Error('invalid flow state, no valid flow state found'), { name: 'AuthApiError', status: 404, code: 'flow_state_not_found' }),
    } as never);
    const alert = await problemShown('/auth/callback?code=0b5a6d4e-1111-4222-8333-444455556666');
    expect(alert).toHaveTextContent('The sign-in took too long, or was started in another browser. Start it again.');
  });

  it('exchanges the code, keeps the session in the app\'s client and goes to the dashboard', async () => {
    const person = { ...makeUser({ name: 'Amira Khan', email: 'amira.khan@northshire.police.uk' }), hasReports: false };
    fakeApi({ 'GET /user': { body: person } });
    const session = { access_token: 'a.b.c', refresh_token: 'r1', expires_in: 3600, expires_at: Math.floor(Date.now() / 1000) + 3600, token_type: 'bearer', user: { id: person.id } };
    const sso = await loadSsoSupabase();
    const exchange = vi.spyOn(sso.auth, 'exchangeCodeForSession').mockResolvedValue({ data: { session, user: session.user, redirectType: null }, error: null } as never);
    const main = await loadSupabase();
    const keep = vi.spyOn(main.auth, 'setSession').mockImplementation(async () => {
      window.localStorage.setItem(sessionStorageKey, JSON.stringify(session));
      return { data: { session, user: session.user }, error: null } as never;
    });
    const { router } = renderWithProviders(null, { routes, route: '/auth/callback?code=0b5a6d4e-1111-4222-8333-444455556666' });
    expect(await screen.findByLabelText('Signing you in')).toBeInTheDocument();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(exchange).toHaveBeenCalledWith('0b5a6d4e-1111-4222-8333-444455556666');
    expect(keep).toHaveBeenCalledWith({ access_token: 'a.b.c', refresh_token: 'r1' });
  });

  it('passes Auth\'s refusal sent to the site URL on from the home page, and shows it on the sign-in page', async () => {
    const alert = await problemShown(REFUSED_AT_SITE_URL);
    expect(alert).toHaveTextContent(TESTED);
  });

  it('sends an administrator whose test sign-in was refused back to the page they started it from, which shows it', async () => {
    const page = `/admin?tab=organisation&organisation=${TRUST}`;
    rememberTestPage(page);
    const { router } = renderWithProviders(null, {
      user: trustAdmin,
      route: REFUSED_AT_SITE_URL,
      routes: [
        { path: '/', Component: HomeRoute },
        { path: '/auth/callback', Component: AuthCallbackRoute },
        { path: '/admin', element: <OrganisationTab user={trustAdmin} /> },
      ],
      queryData: [
        [organisationKeys.list(), [{ id: TRUST, name: 'Southshire Ambulance Service', code: 'SAS', service: 'UKAS', createdAt: '2026-11-01T00:00:00.000Z', people: 3 }]],
        [organisationKeys.units(TRUST), []],
        [organisationKeys.scim(TRUST), { baseUrl: 'https://l.example/functions/v1/api/scim/v2', tokens: [] }],
        [organisationKeys.signIn(TRUST), trustSignIn],
      ],
    });
    const panel = within(await screen.findByRole('region', { name: /Sign-in through your identity provider/ }));
    const answer = (await panel.findByText('Test sign-in finished')).closest('[tabindex="-1"]') as HTMLElement;
    expect(answer).toHaveTextContent(`${TESTED} Its result is the first in the list below.`);
    // The panel takes the answer out of the address; the page is the one the test started from.
    await vi.waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(page));
    expect(window.sessionStorage.length).toBe(0);
  });

  it('sends anyone else refused there to the sign-in page, a test page kept for too long included', async () => {
    const now = Date.now();
    rememberTestPage('/admin?tab=organisation');
    vi.spyOn(Date, 'now').mockReturnValue(now + 11 * 60 * 1000);
    const alert = await problemShown(REFUSED_AT_SITE_URL);
    expect(alert).toHaveTextContent(TESTED);
    expect(window.sessionStorage.length).toBe(0);
  });
});
