// /auth/callback: Auth's answer after a sign-in through an organisation's identity provider. A code
// is exchanged (supabase-js watched) and the person lands on the dashboard; an error goes back to
// the sign-in page with a message a person can act on, never a blank page.
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '@/app/routes';
import { loadSsoSupabase, loadSupabase, sessionStorageKey } from '@/lib/supabase';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';

afterEach(() => {
  vi.restoreAllMocks();
});

async function problemShown(route: string) {
  const rendered = renderWithProviders(null, { routes, route });
  const alert = await screen.findByRole('alert');
  expect(rendered.router.state.location.pathname).toBe('/auth');
  expect(screen.getByRole('heading', { name: 'Sign in to your account' })).toBeInTheDocument();
  return alert;
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
});
