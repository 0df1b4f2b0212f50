// Auth's answer in the address a sign-in through an identity provider comes back to, what it says to
// the person, and the sign-in client's PKCE flow: its code verifier kept for the page Auth sends the
// browser back to, nothing of a session left behind by it.
import { describe, expect, it } from 'vitest';
import { createSsoClient } from '../supabase-client';
import { PROVIDER_NOT_ANSWERING, providerProblem, readProviderAnswer, SIGN_IN_CANCELLED } from './organisation-sign-in';

describe('readProviderAnswer', () => {
  it('reads a code, or an error from the query or the fragment', () => {
    expect(readProviderAnswer('?code=abc', '')).toEqual({ kind: 'code', code: 'abc' });
    expect(readProviderAnswer('?error=access_denied&error_description=Sign-in+is+being+tested', '#error=access_denied'))
      .toEqual({ kind: 'error', error: 'access_denied', description: 'Sign-in is being tested' });
    expect(readProviderAnswer('?tab=organisation', '#error=server_error&error_description=Unable%20to%20exchange%20external%20code'))
      .toEqual({ kind: 'error', error: 'server_error', description: 'Unable to exchange external code' });
    expect(readProviderAnswer('?tab=organisation', '')).toEqual({ kind: 'none' });
  });
});

describe('providerProblem', () => {
  it('words a cancel, a failing provider and a refusal with its reason', () => {
    expect(providerProblem({ error: 'access_denied', description: '' })).toBe(SIGN_IN_CANCELLED);
    expect(providerProblem({ error: 'access_denied', description: 'The user has cancelled the sign-in' })).toBe(SIGN_IN_CANCELLED);
    expect(providerProblem({ error: 'server_error', description: 'Error getting user profile from external provider' })).toBe(PROVIDER_NOT_ANSWERING);
    expect(providerProblem({ error: 'temporarily_unavailable', description: '' })).toBe(PROVIDER_NOT_ANSWERING);
    expect(providerProblem({ error: 'invalid_request', description: '' })).toBe(PROVIDER_NOT_ANSWERING);
    expect(providerProblem({ error: 'access_denied', description: 'Your account has been deactivated' })).toBe('Your account has been deactivated');
  });
});

describe('createSsoClient', () => {
  it('starts the PKCE flow, its code verifier in local storage for the page it comes back to', async () => {
    const client = createSsoClient('http://localhost:54321', 'test-anon-key', 'sb-test-auth-token-sso');
    const { data, error } = await client.auth.signInWithOAuth({
      provider: 'azure',
      options: { redirectTo: 'http://localhost:54321/auth/callback', skipBrowserRedirect: true },
    });
    expect(error).toBeNull();
    const url = new URL(data.url!);
    expect(url.pathname).toBe('/auth/v1/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('s256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(window.localStorage.getItem('sb-test-auth-token-sso-code-verifier')).toBeTruthy();
    expect(window.localStorage.getItem('sb-test-auth-token-sso')).toBeNull();
  });
});
