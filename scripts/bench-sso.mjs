// The server's time of a sign-in through an organisation's identity provider (OpenID Connect, the
// local Entra ID stand-in) against a password sign-in's, in the same run: the budget is 3 times.
// An SSO sign-in's server time is that of its three requests to Auth (/authorize: discovery and the
// flow state; /callback: the provider's code exchanged and checked, the identity and person brought
// up to date; the PKCE grant: the session, through the custom access token hook); the provider's own
// pages are the provider's and are not counted. A password sign-in is one token request.
//
//   import { benchSso } from './bench-sso.mjs';
//   await benchSso({ url, anonKey, idpUrl, dbUrl, organisationId, learner: { email, password } });
// The organisation's sign-in, its domain and the officers it made are removed afterwards.
import { createHash, randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { NORTHSHIRE, demoPeople } from '../platform/idp/oidc.mjs';
import { isRedirect, newCookieBrowser, nextUrl } from '../platform/idp/cookie-browser.mjs';

/** An SSO sign-in's server time may be this many times a password sign-in's. */
export const SSO_BUDGET_RATIO = 3;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function timed(fn) {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}

/** One sign-in through the provider as a browser makes it; answers the server's milliseconds. */
async function ssoSignIn({ url, anonKey, person }) {
  const browser = newCookieBrowser();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const back = `${url}/auth/callback`;
  const authorize = `${url}/auth/v1/authorize?${new URLSearchParams({
    provider: 'azure', redirect_to: back, scopes: 'email profile', code_challenge: challenge, code_challenge_method: 's256',
  })}`;
  const start = await timed(() => browser.go(authorize, { headers: { apikey: anonKey } }));
  let location = nextUrl(start.result, authorize);
  // At the provider (not counted): its login page, the form, its redirects back to Auth.
  let response = await browser.go(location);
  while (isRedirect(response)) {
    location = nextUrl(response, location);
    response = await browser.go(location);
  }
  const page = await response.text();
  const action = /action="([^"]+\/login)"/.exec(page)?.[1];
  if (!action) throw new Error(`the provider's page has no sign-in form (${response.status})`);
  location = new URL(action, location).href;
  response = await browser.go(location, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: person.username, password: NORTHSHIRE.password }).toString(),
  });
  while (isRedirect(response) && !location.startsWith(`${url}/auth/v1/callback`)) {
    location = nextUrl(response, location);
    if (location.startsWith(`${url}/auth/v1/callback`)) break;
    response = await browser.go(location);
  }
  if (!location.startsWith(`${url}/auth/v1/callback`)) throw new Error(`the provider refused ${person.username} (${response.status})`);
  const callback = await timed(() => browser.go(location));
  const landed = new URL(nextUrl(callback.result, location));
  const code = landed.searchParams.get('code');
  if (!code) throw new Error(`the sign-in of ${person.username} was refused: ${landed.searchParams.get('error_description')}`);
  const grant = await timed(() => fetch(`${url}/auth/v1/token?grant_type=pkce`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
  }));
  if (!grant.result.ok) throw new Error(`the PKCE grant answered ${grant.result.status}: ${await grant.result.text()}`);
  await grant.result.arrayBuffer();
  return start.ms + callback.ms + grant.ms;
}

/**
 * @param {{ url: string, anonKey: string, dbUrl: string, organisationId: string,
 *   learner: { email: string, password: string }, rounds?: number, log?: (msg: string) => void }} options
 */
export async function benchSso({ url, anonKey, dbUrl, organisationId, learner, rounds = 15, log = () => {} }) {
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
  const people = demoPeople();
  try {
    // The bench's organisation signs in through the Northshire tenant, switched on as after a test.
    await sql`insert into public.organisation_domains (domain, organisation_id) values (${NORTHSHIRE.emailDomain}, ${organisationId})`;
    await sql`insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, attribute_mapping, tested_at)
      values (${organisationId}, 'oidc', ${NORTHSHIRE.tenantId}, ${sql.json({ unit: 'department', manager: 'manager', employee_number: 'employeeid' })}, now())`;
    await sql`update public.organisation_sign_in set enabled = true where organisation_id = ${organisationId}`;

    const password = async () => (await timed(async () => {
      const response = await fetch(`${url}/auth/v1/token?grant_type=password`, {
        method: 'POST', headers: { apikey: anonKey, 'content-type': 'application/json' }, body: JSON.stringify(learner),
      });
      if (!response.ok) throw new Error(`a password sign-in answered ${response.status}`);
      await response.arrayBuffer();
    })).ms;

    // First sign-ins create the officers (a warm-up for both kinds, reported apart).
    const firsts = [];
    for (const person of people) firsts.push(await ssoSignIn({ url, anonKey, person }));
    await password();
    const sso = [];
    const passwords = [];
    for (let i = 0; i < rounds; i += 1) {
      // Alternated, so that a change in the machine's load falls on both alike.
      sso.push(await ssoSignIn({ url, anonKey, person: people[i % people.length] }));
      passwords.push(await password());
    }
    const result = {
      rounds,
      ssoMs: Number(median(sso).toFixed(1)),
      passwordMs: Number(median(passwords).toFixed(1)),
      firstSsoMs: Number(median(firsts).toFixed(1)),
    };
    result.ratio = Number((result.ssoMs / result.passwordMs).toFixed(2));
    log(`SSO sign-in: server time ${result.ssoMs} ms (median of ${rounds}; a first one, creating the officer, ${result.firstSsoMs} ms) against a password sign-in's ${result.passwordMs} ms: ${result.ratio}×`);
    return result;
  } finally {
    await sql`delete from auth.users where lower(email) = any(${people.map((p) => p.email)})`;
    await sql`delete from public.organisation_sign_in where organisation_id = ${organisationId}`;
    await sql`delete from public.organisation_domains where domain = ${NORTHSHIRE.emailDomain}`;
    await sql.end({ timeout: 5 });
  }
}
