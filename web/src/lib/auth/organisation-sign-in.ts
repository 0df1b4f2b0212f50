// Sign-in through an organisation's identity provider, shared by the sign-in page (a person signing
// in), /auth/callback (where Auth sends the browser back) and the Organisation tab (an
// administrator's test sign-in): supabase-js starts it (OpenID Connect: signInWithOAuth with Entra
// ID; SAML: signInWithSSO for the organisation's domain), Auth answers the page named in redirectTo
// with ?code= (PKCE), or with ?error=&error_description= (also in the fragment, as GoTrue does).
import type { Session } from '@supabase/supabase-js';
import type { SignInProtocol } from '@shared/sign-in.ts';
import { loadMessages, translateMessage } from '../i18n/messages';
import { safeRedirect } from '../safe-redirect';
import { loadSsoSupabase, loadSupabase } from '../supabase';

// The home page's part (what it passes on to /auth/callback) is a module of its own, out of the
// first page's code.
export { CALLBACK_PATH, authErrorQuery } from './auth-refusal';

export const SIGN_IN_CANCELLED = 'Sign-in was cancelled.';
export const PROVIDER_NOT_ANSWERING = "Your organisation's sign-in is not answering. Try again, or sign in with your password.";
export const SIGN_IN_EXPIRED = 'The sign-in took too long, or was started in another browser. Start it again.';

/** The browser's navigation, as an object so that a test can watch it (jsdom cannot navigate). */
export const browserNavigation = {
  assign: (url: string) => window.location.assign(url),
};

export interface ProviderSignInRequest {
  protocol: SignInProtocol;
  /** SAML: the email domain Auth finds the organisation's provider by. */
  domain: string;
  /** The page Auth sends the browser back to (on its allow list). */
  redirectTo: string;
  /** OpenID Connect: passed on to the provider (Entra's login_hint, prompt). */
  queryParams?: Record<string, string>;
}

/** Sends the browser to the organisation's identity provider. Resolves as the page is left. */
export async function startProviderSignIn({ protocol, domain, redirectTo, queryParams }: ProviderSignInRequest): Promise<void> {
  const supabase = await loadSsoSupabase();
  if (protocol === 'oidc') {
    // supabase-js sends the browser on itself.
    // Entra ID puts the address in the id_token only when the email scope is asked for (Supabase's
    // azure guide asks for it too); without it Auth refuses the sign-in.
    const { error } = await supabase.auth.signInWithOAuth({ provider: 'azure', options: { redirectTo, queryParams, scopes: 'email profile' } });
    if (error) throw error;
    return;
  }
  const { data, error } = await supabase.auth.signInWithSSO({ domain, options: { redirectTo } });
  if (error) throw error;
  browserNavigation.assign(data.url);
}

/** What Auth put in the address of the page it sent the browser back to. */
export type ProviderAnswer =
  | { kind: 'code'; code: string }
  | { kind: 'error'; error: string; description: string; errorCode: string | null }
  | { kind: 'none' };

/** The parameters of Auth's answer, which the page removes from its address once read. */
export const ANSWER_PARAMS = ['code', 'error', 'error_code', 'error_description', 'state'] as const;

/**
 * The page an administrator's test sign-in was started from, with Auth's refusal added to its
 * query, for that page to show as the test's answer; `page` is a path on this site.
 */
export function withAuthError(page: string, answer: { error: string; description: string; errorCode: string | null }): string {
  const url = new URL(page, 'http://app.invalid');
  for (const name of ANSWER_PARAMS) url.searchParams.delete(name);
  url.searchParams.set('error', answer.error);
  if (answer.errorCode) url.searchParams.set('error_code', answer.errorCode);
  if (answer.description) url.searchParams.set('error_description', answer.description);
  return `${url.pathname}${url.search}`;
}

export function readProviderAnswer(search: string, hash: string): ProviderAnswer {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  for (const params of [query, fragment]) {
    const error = params.get('error');
    if (error) return { kind: 'error', error, description: (params.get('error_description') ?? '').trim(), errorCode: params.get('error_code') || null };
  }
  const code = query.get('code');
  return code ? { kind: 'code', code } : { kind: 'none' };
}

/**
 * What a refused or failed sign-in says to the person: a cancel at the provider (its access_denied
 * with no reason, or a reason that says so) as a cancel; the provider or Auth failing as "not
 * answering"; a refusal with a reason (the organisation's rules, in the database) as it was sent.
 * In the reader's language (the messages catalogue, once loaded; a reason it does not know stays
 * as Auth wrote it).
 */
export function providerProblem(answer: { error: string; description: string }): string {
  return translateMessage(providerProblemInEnglish(answer));
}

function providerProblemInEnglish({ error, description }: { error: string; description: string }): string {
  if (error === 'server_error' || error === 'temporarily_unavailable') return PROVIDER_NOT_ANSWERING;
  // "End-User aborted interaction" is oidc-provider's words (Entra's own: AADSTS65004 … declined).
  if (!description || /cancel|declined|aborted/i.test(description)) return error === 'access_denied' ? SIGN_IN_CANCELLED : PROVIDER_NOT_ANSWERING;
  return description;
}

/** A sign-in that did not finish, in words for the person. */
export class SignInProblem extends Error {
  override name = 'SignInProblem';
}

/**
 * Exchanges Auth's code for the session, which the app's own client then keeps. Fails with a
 * SignInProblem, its message in the reader's language.
 */
export async function finishProviderSignIn(code: string): Promise<Session> {
  try {
    return await exchangeForSession(code);
  } catch (error) {
    await loadMessages();
    throw new SignInProblem(translateMessage((error as Error).message));
  }
}

async function exchangeForSession(code: string): Promise<Session> {
  let session: Session;
  try {
    const sso = await loadSsoSupabase();
    const { data, error } = await sso.auth.exchangeCodeForSession(code);
    if (error || !data.session) throw new SignInProblem(exchangeProblem(error));
    session = data.session;
    const { error: kept } = await (await loadSupabase()).auth.setSession({
      access_token: session.access_token,
      refresh_token: session.refresh_token,
    });
    if (kept) throw new SignInProblem(PROVIDER_NOT_ANSWERING);
  } catch (error) {
    throw error instanceof SignInProblem ? error : new SignInProblem(PROVIDER_NOT_ANSWERING);
  }
  return session;
}

function exchangeProblem(error: { name?: string; code?: string; status?: number; message?: string } | null): string {
  if (!error) return PROVIDER_NOT_ANSWERING;
  if (error.name === 'AuthPKCECodeVerifierMissingError' || error.code === 'flow_state_not_found' || error.code === 'flow_state_expired') {
    return SIGN_IN_EXPIRED;
  }
  // A refusal with its reason (the access token hook's message) is shown as sent.
  if (error.status && error.status >= 400 && error.status < 500 && error.message) return error.message;
  return PROVIDER_NOT_ANSWERING;
}

/** Where the person was going before the sign-in page, kept across the provider's pages. */
const TARGET_KEY = 'esl-sign-in-target';

export function rememberSignInTarget(target: string): void {
  try {
    window.sessionStorage.setItem(TARGET_KEY, target);
  } catch {
    // Storage refused: the sign-in still ends on the dashboard.
  }
}

export function takeSignInTarget(): string | null {
  try {
    const target = window.sessionStorage.getItem(TARGET_KEY);
    window.sessionStorage.removeItem(TARGET_KEY);
    return target;
  } catch {
    return null;
  }
}

/**
 * The page (path and query) an administrator started a test sign-in from, kept across the provider's
 * pages for /auth/callback: a SAML test's refusal comes back through the site URL, not to that page.
 * Kept for ten minutes, and read once.
 */
const TEST_PAGE_KEY = 'esl-sign-in-test-page';
const TEST_PAGE_LIFETIME_MS = 10 * 60 * 1000;

export function rememberTestPage(page: string): void {
  try {
    window.sessionStorage.setItem(TEST_PAGE_KEY, JSON.stringify({ page, at: Date.now() }));
  } catch {
    // Storage refused: a refused test then ends on the sign-in page, with its message.
  }
}

/** The page a test sign-in was started from (then forgotten), or null: none, too old, or not a path here. */
export function takeTestPage(now = Date.now()): string | null {
  try {
    const stored = window.sessionStorage.getItem(TEST_PAGE_KEY);
    window.sessionStorage.removeItem(TEST_PAGE_KEY);
    if (!stored) return null;
    const { page, at } = JSON.parse(stored) as { page?: unknown; at?: unknown };
    if (typeof page !== 'string' || typeof at !== 'number' || now - at > TEST_PAGE_LIFETIME_MS || now < at) return null;
    return safeRedirect(page, '') || null;
  } catch {
    return null;
  }
}
