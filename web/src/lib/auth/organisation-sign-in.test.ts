// Auth's answer in the address a sign-in through an identity provider comes back to, what it says to
// the person, and the sign-in client's PKCE flow: its code verifier kept for the page Auth sends the
// browser back to, nothing of a session left behind by it.
import { afterEach, describe, expect, it } from 'vitest';
import { createSsoClient } from '../supabase-client';
import {
  authErrorQuery, PROVIDER_NOT_ANSWERING, providerProblem, readProviderAnswer, rememberTestPage, SIGN_IN_CANCELLED, takeTestPage,
  withAuthError,
} from './organisation-sign-in';

afterEach(() => {
  window.sessionStorage.clear();
});

describe('readProviderAnswer', () => {
  it('reads a code, or an error from the query or the fragment', () => {
    expect(readProviderAnswer('?code=abc', '')).toEqual({ kind: 'code', code: 'abc' });
    expect(readProviderAnswer('?error=access_denied&error_description=Sign-in+is+being+tested', '#error=access_denied'))
      .toEqual({ kind: 'error', error: 'access_denied', description: 'Sign-in is being tested', errorCode: null });
    expect(readProviderAnswer('?tab=organisation', '#error=server_error&error_description=Unable%20to%20exchange%20external%20code'))
      .toEqual({ kind: 'error', error: 'server_error', description: 'Unable to exchange external code', errorCode: null });
    expect(readProviderAnswer('?error=access_denied&error_code=signup_disabled&error_description=Refused', ''))
      .toEqual({ kind: 'error', error: 'access_denied', description: 'Refused', errorCode: 'signup_disabled' });
    expect(readProviderAnswer('?tab=organisation', '')).toEqual({ kind: 'none' });
  });
});

describe('providerProblem', () => {
  it('words a cancel, a failing provider and a refusal with its reason', () => {
    expect(providerProblem({ error: 'access_denied', description: '' })).toBe(SIGN_IN_CANCELLED);
    expect(providerProblem({ error: 'access_denied', description: 'The user has cancelled the sign-in' })).toBe(SIGN_IN_CANCELLED);
    // The local OpenID provider's Cancel (oidc-provider's words).
    expect(providerProblem({ error: 'access_denied', description: 'End-User aborted interaction' })).toBe(SIGN_IN_CANCELLED);
    expect(providerProblem({ error: 'server_error', description: 'Error getting user profile from external provider' })).toBe(PROVIDER_NOT_ANSWERING);
    expect(providerProblem({ error: 'temporarily_unavailable', description: '' })).toBe(PROVIDER_NOT_ANSWERING);
    expect(providerProblem({ error: 'invalid_request', description: '' })).toBe(PROVIDER_NOT_ANSWERING);
    expect(providerProblem({ error: 'access_denied', description: 'Your account has been deactivated' })).toBe('Your account has been deactivated');
  });
});

describe('authErrorQuery', () => {
  it('keeps Auth\'s refusal (error with a description or a code) and nothing else of the query', () => {
    expect(authErrorQuery('?error=access_denied&error_code=signup_disabled&error_description=Being+tested&service=UKPS'))
      .toBe('?error=access_denied&error_code=signup_disabled&error_description=Being+tested');
    expect(authErrorQuery('?error=server_error&error_code=unexpected_failure')).toBe('?error=server_error&error_code=unexpected_failure');
    expect(authErrorQuery('?error=access_denied&error_description=Refused')).toBe('?error=access_denied&error_description=Refused');
  });

  it('leaves any other address alone', () => {
    expect(authErrorQuery('')).toBeNull();
    expect(authErrorQuery('?service=UKPS')).toBeNull();
    expect(authErrorQuery('?error=access_denied')).toBeNull();
    expect(authErrorQuery('?error=&error_description=x')).toBeNull();
  });
});

describe('withAuthError', () => {
  it('adds Auth\'s refusal to the page\'s own query, in place of any earlier answer', () => {
    expect(withAuthError('/admin?tab=organisation&organisation=o1&error=old&code=c', { error: 'access_denied', description: 'Being tested', errorCode: 'signup_disabled' }))
      .toBe('/admin?tab=organisation&organisation=o1&error=access_denied&error_code=signup_disabled&error_description=Being+tested');
    expect(withAuthError('/admin', { error: 'access_denied', description: '', errorCode: null })).toBe('/admin?error=access_denied');
  });
});

describe('the page a test sign-in was started from', () => {
  it('is read once', () => {
    rememberTestPage('/admin?tab=organisation');
    expect(takeTestPage()).toBe('/admin?tab=organisation');
    expect(takeTestPage()).toBeNull();
  });

  it('is forgotten after ten minutes', () => {
    rememberTestPage('/admin?tab=organisation');
    expect(takeTestPage(Date.now() + 11 * 60 * 1000)).toBeNull();
    expect(takeTestPage()).toBeNull();
  });

  it('is only ever a path on this site', () => {
    for (const page of ['https://attacker.example/', '//attacker.example/x', '/auth/callback']) {
      rememberTestPage(page);
      expect(takeTestPage()).toBeNull();
    }
    window.sessionStorage.setItem('esl-sign-in-test-page', 'not json');
    expect(takeTestPage()).toBeNull();
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
