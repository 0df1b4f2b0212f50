// Sign-in through an organisation's identity provider, shared by the sign-in page (a person signing
// in), /auth/callback (where Auth sends the browser back) and the Organisation tab (an
// administrator's test sign-in): supabase-js starts it (OpenID Connect: signInWithOAuth with Entra
// ID; SAML: signInWithSSO for the organisation's domain), Auth answers the page named in redirectTo
// with ?code= (PKCE), or with ?error=&error_description= (also in the fragment, as GoTrue does).
import type { Session } from '@supabase/supabase-js';
import type { SignInProtocol } from '@shared/sign-in.ts';
import { loadSsoSupabase, loadSupabase } from '../supabase';

/** Where Auth sends the browser back after a person's sign-in. */
export const CALLBACK_PATH = '/auth/callback';

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
    const { error } = await supabase.auth.signInWithOAuth({ provider: 'azure', options: { redirectTo, queryParams } });
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
  | { kind: 'error'; error: string; description: string }
  | { kind: 'none' };

/** The parameters of Auth's answer, which the page removes from its address once read. */
export const ANSWER_PARAMS = ['code', 'error', 'error_code', 'error_description', 'state'] as const;

export function readProviderAnswer(search: string, hash: string): ProviderAnswer {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  for (const params of [query, fragment]) {
    const error = params.get('error');
    if (error) return { kind: 'error', error, description: (params.get('error_description') ?? '').trim() };
  }
  const code = query.get('code');
  return code ? { kind: 'code', code } : { kind: 'none' };
}

/**
 * What a refused or failed sign-in says to the person: a cancel at the provider (its access_denied
 * with no reason, or a reason that says so) as a cancel; the provider or Auth failing as "not
 * answering"; a refusal with a reason (the organisation's rules, in the database) as it was sent.
 */
export function providerProblem(answer: { error: string; description: string }): string {
  const { error, description } = answer;
  if (error === 'server_error' || error === 'temporarily_unavailable') return PROVIDER_NOT_ANSWERING;
  if (!description || /cancel|declined/i.test(description)) return error === 'access_denied' ? SIGN_IN_CANCELLED : PROVIDER_NOT_ANSWERING;
  return description;
}

/** A sign-in that did not finish, in words for the person. */
export class SignInProblem extends Error {
  override name = 'SignInProblem';
}

/** Exchanges Auth's code for the session, which the app's own client then keeps. Fails with a SignInProblem. */
export async function finishProviderSignIn(code: string): Promise<Session> {
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
