// Sessions and passwords: which tokens the api function accepts, that a signed-out,
// deleted or password-changed session is refused at once, and that common passwords are refused
// whenever a password is chosen (never at sign-in). Against the real platform; the forged-claims
// cases also run against a second app whose JWKS this test serves, so that every claim can be
// signed with a key the app trusts and only the one claim under test is wrong.
import assert from 'node:assert/strict';
import { base64url, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, exportSPKI, SignJWT, type JWK } from 'jose';
import { createApp } from '../api/app.ts';
import { COMMON_PASSWORD } from '../_shared/schemas.ts';
import { isCommonPassword } from '../api/lib/passwords.ts';
import { call, closePoolAfterTests, config, db, newRegistration, register, test, uniqueIp } from './helpers.ts';

const enc = (value: unknown) => base64url.encode(new TextEncoder().encode(JSON.stringify(value)));

async function login(username: string, password: string) {
  const answer = await call('POST', '/api/login', { body: { username, password } });
  assert.equal(answer.status, 200, answer.text);
  return answer.json.session as { access_token: string; refresh_token: string };
}

async function status(token: string, target = call) {
  return (await target('GET', '/api/user', { token })).status;
}

async function sessionsOf(userId: string): Promise<number> {
  const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from auth.sessions where user_id = ${userId}::uuid`;
  return row.n;
}

// ---------------------------------------------------------------- which tokens are accepted

test('tokens: HS256 signed with the public key (JWK or PEM) and alg none are 401', async () => {
  const { session } = await register();
  const header = decodeProtectedHeader(session.access_token);
  const claims = decodeJwt(session.access_token);
  assert.equal(await status(session.access_token), 200);

  const jwks = await (await fetch(`${config.supabaseUrl}/auth/v1/.well-known/jwks.json`)).json() as { keys: JWK[] };
  const publicJwk = jwks.keys.find((key) => key.kid === header.kid)!;
  const pem = await exportSPKI(await importJWK(publicJwk, 'ES256') as CryptoKey);
  for (const secret of [JSON.stringify(publicJwk), pem]) {
    const hs256 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: header.kid }).sign(new TextEncoder().encode(secret));
    assert.equal(await status(hs256), 401, 'HS256 with the public key');
  }
  for (const alg of ['none', 'None', 'NONE']) {
    assert.equal(await status(`${enc({ alg, typ: 'JWT', kid: header.kid })}.${enc(claims)}.`), 401, `alg ${alg}`);
  }
  // The genuine token's signature on other claims is refused too.
  const [h, , s] = session.access_token.split('.');
  assert.equal(await status(`${h}.${enc({ ...claims, exp: claims.exp! + 3600 })}.${s}`), 401);
});

test('tokens: with a trusted key, a wrong audience, issuer, role, expiry or a missing session is 401; the right claims are 200', async () => {
  const { user, session } = await register();
  const genuine = decodeJwt(session.access_token);
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const other = await generateKeyPair('ES256');
  const kid = 'test-key';
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, () => Response.json({ keys: [jwk] }));
  const stubUrl = `http://127.0.0.1:${server.addr.port}`;
  const trusting = createApp({ ...config, supabaseUrl: stubUrl }, db);
  const viaTrusting: typeof call = async (method, path, options = {}) => {
    const response = await trusting.request(path, {
      method,
      headers: { authorization: `Bearer ${options.token}`, 'x-forwarded-for': uniqueIp() },
    });
    return { status: response.status, headers: response.headers, text: await response.text(), json: undefined };
  };
  const now = Math.floor(Date.now() / 1000);
  const sign = (changes: Record<string, unknown>, key: CryptoKey = privateKey, alg = 'ES256') =>
    new SignJWT({ ...genuine, iss: `${stubUrl}/auth/v1`, aud: 'authenticated', iat: now, exp: now + 600, ...changes })
      .setProtectedHeader({ alg, typ: 'JWT', kid })
      .sign(key);
  try {
    assert.equal(await status(await sign({}), viaTrusting), 200, 'the right claims');
    const cases: [string, string][] = [
      ['wrong audience', await sign({ aud: 'anon' })],
      ['audience list without authenticated', await sign({ aud: ['service', 'other'] })],
      ['no audience', await sign({ aud: undefined })],
      ['wrong issuer', await sign({ iss: `${config.supabaseUrl}.evil.example/auth/v1` })],
      ['a foreign issuer', await sign({ iss: 'https://attacker.example/auth/v1' })],
      ['no issuer', await sign({ iss: undefined })],
      ['expired', await sign({ iat: now - 7200, exp: now - 3600 })],
      ['not yet valid', await sign({ nbf: now + 3600 })],
      ['service_role', await sign({ role: 'service_role' })],
      ['another session', await sign({ session_id: crypto.randomUUID() })],
      ['another user for the session', await sign({ sub: crypto.randomUUID() })],
      ['signed with another key', await sign({}, other.privateKey)],
    ];
    for (const [name, token] of cases) assert.equal(await status(token, viaTrusting), 401, name);
    // The real app does not trust the stub's key at all.
    assert.equal(await status(await sign({})), 401, 'unknown key on the real platform');
    assert.equal((await viaTrusting('GET', '/api/user', { token: await sign({}) })).status, 200, user.id);
  } finally {
    await server.shutdown();
  }
});

// ---------------------------------------------------------------- sessions that end

test('sessions: signed out through Auth directly (global), every token of the user is refused at once', async () => {
  const { input, session } = await register();
  const second = await login(input.username, input.password);
  assert.equal(await status(second.access_token), 200);
  const out = await fetch(`${config.supabaseUrl}/auth/v1/logout?scope=global`, {
    method: 'POST',
    headers: { apikey: config.anonKey, authorization: `Bearer ${session.access_token}` },
  });
  assert.equal(out.status, 204);
  assert.equal(await status(session.access_token), 401);
  assert.equal(await status(second.access_token), 401);
});

test('sessions: a deleted user loses every session, and their token is refused at once', async () => {
  const { input, user, session } = await register();
  const second = await login(input.username, input.password);
  assert.equal(await sessionsOf(user.id), 2);
  const admin = await login('admin', 'password123');
  const deleted = await call('DELETE', `/api/users/${user.id}`, { token: admin.access_token });
  assert.equal(deleted.status, 204, deleted.text);
  assert.equal(await sessionsOf(user.id), 0);
  assert.equal(await status(session.access_token), 401);
  assert.equal(await status(second.access_token), 401);
  const refreshed = await fetch(`${config.supabaseUrl}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: second.refresh_token }),
  });
  assert.equal(refreshed.status, 400);
  await refreshed.body?.cancel();
});

test('password change: this session stays, every other session ends (tokens and refresh tokens)', async () => {
  const { input, user, session } = await register();
  const other = await login(input.username, input.password);
  const third = await login(input.username, input.password);
  assert.equal(await sessionsOf(user.id), 3);
  const newPassword = `${input.password}-new`;
  const changed = await call('PUT', '/api/profile/password', {
    token: session.access_token,
    body: { currentPassword: input.password, newPassword, confirmPassword: newPassword },
  });
  assert.equal(changed.status, 204, changed.text);
  assert.equal(await status(session.access_token), 200, 'the session that changed the password');
  assert.equal(await status(other.access_token), 401);
  assert.equal(await status(third.access_token), 401);
  assert.equal(await sessionsOf(user.id), 1);
  const refreshed = await fetch(`${config.supabaseUrl}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: other.refresh_token }),
  });
  assert.equal(refreshed.status, 400);
  await refreshed.body?.cancel();
  assert.equal((await call('POST', '/api/login', { body: { username: input.username, password: input.password } })).status, 401);
  await login(input.username, newPassword);
});

// ---------------------------------------------------------------- common passwords

test('common passwords: the bundled list has at least 10,000 entries and is matched ignoring case', async () => {
  const text = await Deno.readTextFile(new URL('../_shared/common-passwords.txt', import.meta.url));
  const entries = text.split('\n').filter(Boolean);
  assert.ok(entries.length >= 10_000, `${entries.length} entries`);
  assert.ok(entries.every((entry) => entry.length >= 6 && entry === entry.toLowerCase()));
  for (const word of ['password', 'Password1', 'QWERTY123', 'iloveyou', 'letmein1', 'password123']) {
    assert.equal(await isCommonPassword(word), true, word);
  }
  for (const word of ['pw-correct-horse-7', 'Blue-Watch-Station-42']) assert.equal(await isCommonPassword(word), false, word);
});

test('common passwords: registration refuses them with a field message on password, and creates nothing', async () => {
  for (const password of ['password1', 'Qwerty123', 'football']) {
    const input = { ...newRegistration(), password };
    const answer = await call('POST', '/api/register', { body: { ...input, confirmPassword: password } });
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual(answer.json, { message: COMMON_PASSWORD, fields: { password: COMMON_PASSWORD } });
    const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from auth.users where email = ${input.email}`;
    assert.equal(row.n, 0);
  }
  // The minimum length is unchanged: 6 characters.
  const short = await call('POST', '/api/register', { body: { ...newRegistration(), password: 'a1b2c', confirmPassword: 'a1b2c' } });
  assert.equal(short.status, 400);
  assert.equal(short.json.fields.password, 'Password must be at least 6 characters');
  await register({ ...newRegistration(), password: 'kq7-zp' });
});

test('common passwords: a password change refuses them on newPassword and keeps the old password', async () => {
  const { input, session } = await register();
  const answer = await call('PUT', '/api/profile/password', {
    token: session.access_token,
    body: { currentPassword: input.password, newPassword: 'Sunshine1', confirmPassword: 'Sunshine1' },
  });
  assert.equal(answer.status, 400, answer.text);
  assert.deepEqual(answer.json, { message: COMMON_PASSWORD, fields: { newPassword: COMMON_PASSWORD } });
  await login(input.username, input.password);
});

test('common passwords: Auth refuses them on direct sign-up and user update (weak_password, pwned), not at sign-in', async () => {
  const headers = { apikey: config.anonKey, 'content-type': 'application/json' };
  const email = `${newRegistration().email}`;
  const signup = await fetch(`${config.supabaseUrl}/auth/v1/signup`, { method: 'POST', headers, body: JSON.stringify({ email, password: 'monkey123' }) });
  const body = await signup.json();
  assert.equal(signup.status, 422);
  assert.equal(body.error_code, 'weak_password');
  assert.deepEqual(body.weak_password.reasons, ['pwned']);
  const { session } = await register();
  const update = await fetch(`${config.supabaseUrl}/auth/v1/user`, {
    method: 'PUT',
    headers: { ...headers, authorization: `Bearer ${session.access_token}` },
    body: JSON.stringify({ password: 'trustno1' }),
  });
  assert.equal(update.status, 422);
  await update.body?.cancel();
  // The seeded accounts keep password123: the check applies when a password is chosen.
  await login('student', 'password123');
});

// ---------------------------------------------------------------- headers

test('headers: every function answer (200, 204, 400, 401, 404, 429, preflight) carries the security headers', async () => {
  const { session } = await register();
  const ip = uniqueIp();
  const answers = [
    await call('GET', '/api/courses'),
    await call('GET', '/api/user', { token: session.access_token }),
    await call('POST', '/api/login', { body: {} }),
    await call('GET', '/api/user', { token: 'not-a-token' }),
    await call('GET', '/api/no-such-route'),
    await call('POST', '/api/logout', { token: session.access_token }),
    await call('OPTIONS', '/api/login', { headers: { origin: 'https://example.org', 'access-control-request-method': 'POST' } }),
  ];
  for (let i = 0; i < 6; i++) answers.push(await call('POST', '/api/login', { body: { username: `nobody_${ip}`, password: 'wrong-pass' }, ip }));
  assert.deepEqual([...new Set(answers.map((a) => a.status))].sort(), [200, 204, 400, 401, 404, 429]);
  for (const answer of answers) {
    assert.equal(answer.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(answer.headers.get('x-frame-options'), 'DENY');
    assert.equal(answer.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
    assert.match(answer.headers.get('permissions-policy') ?? '', /camera=\(\)/);
  }
});

closePoolAfterTests();
