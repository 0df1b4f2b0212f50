// Auth's refusal of a sign-in, as the home page passes it on to /auth/callback: apart from the rest of
// the organisation sign-in (organisation-sign-in.ts, which re-exports it), so the first page's code
// does not carry the rest.

/** Where Auth sends the browser back after a person's sign-in. */
export const CALLBACK_PATH = '/auth/callback';

/** The parameters of Auth's refusal, which the callback passes on to the page a test was started from. */
const ERROR_PARAMS = ['error', 'error_code', 'error_description'] as const;

/**
 * Auth's refusal in a query: `error` with `error_description` or `error_code`, as Auth words it. A
 * SAML refusal at the ACS goes to the site URL (`/`), never to redirect_to (GoTrue and the local
 * Auth alike), so the home page passes such an address on to /auth/callback with this query.
 */
export function authErrorQuery(search: string): string | null {
  const query = new URLSearchParams(search);
  if (!query.get('error') || !(query.get('error_description') || query.get('error_code'))) return null;
  const kept = new URLSearchParams();
  for (const name of ERROR_PARAMS) {
    const value = query.get(name);
    if (value !== null) kept.set(name, value);
  }
  return `?${kept.toString()}`;
}
