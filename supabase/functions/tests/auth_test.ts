// POST /api/register, /api/login, /api/logout and GET /api/user against the real platform.
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createApp } from '../api/app.ts';
import { createDb } from '../api/lib/db.ts';
import {
  app,
  call,
  closePoolAfterTests,
  config,
  db,
  newRegistration,
  register,
  test,
  unique,
  uniqueIp,
} from './helpers.ts';

// The signed-in user's answer (register with a session, login, GET /api/user) also says whether
// anyone reports to them; a new account has no organisation, unit or manager to name.
const USER_KEYS = ['createdAt', 'email', 'hasReports', 'id', 'language', 'name', 'role', 'services', 'username'];
const SESSION_KEYS = ['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type'];

/** No answer may carry a password, a hash, a stack trace or SQL text. */
function assertClean(text: string, password?: string) {
  assert.doesNotMatch(text, /password_hash|encrypted_password|\$2[aby]\$/i);
  if (password) assert.ok(!text.includes(password), 'answer contains the password');
  assert.doesNotMatch(text, /\bat .+:\d+:\d+|stack|select |insert into|syntax error/i);
}

// ---------------------------------------------------------------- register

test('register: 201 with the user (no password or hash) and a session', async () => {
  const input = newRegistration();
  const answer = await call('POST', '/api/register', { body: { ...input, confirmPassword: input.password } });
  assert.equal(answer.status, 201, answer.text);
  const { user, session } = answer.json;
  assert.deepEqual(Object.keys(user).sort(), USER_KEYS);
  assert.match(user.id, /^[0-9a-f-]{36}$/);
  assert.equal(user.username, input.username);
  assert.equal(user.email, input.email);
  assert.equal(user.name, input.name);
  assert.equal(user.role, 'STUDENT');
  assert.deepEqual(user.services, []);
  assert.ok(!Number.isNaN(Date.parse(user.createdAt)));
  assert.deepEqual(Object.keys(session).sort(), SESSION_KEYS);
  assert.equal(session.token_type, 'bearer');
  assert.equal(typeof session.access_token, 'string');
  assert.equal(typeof session.refresh_token, 'string');
  assert.ok(session.expires_in > 0);
  assert.ok(session.expires_at > Date.now() / 1000);
  assertClean(answer.text, input.password);

  // The new session is a working one.
  const me = await call('GET', '/api/user', { token: session.access_token });
  assert.equal(me.status, 200, me.text);
  assert.deepEqual(me.json, user);
});

test('register: a role or services in the body are refused (400) and no account is made; without them, STUDENT', async () => {
  const input = newRegistration();
  const answer = await call('POST', '/api/register', {
    body: { ...input, confirmPassword: input.password, role: 'ADMIN', services: ['UKPS'] },
  });
  assert.equal(answer.status, 400, answer.text);
  assert.deepEqual(answer.json.fields, { role: 'This field cannot be set here', services: 'This field cannot be set here' });
  const [{ n }] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.profiles where username = ${input.username}`;
  assert.equal(n, 0);
  const plain = await call('POST', '/api/register', { body: { ...input, confirmPassword: input.password } });
  assert.equal(plain.status, 201, plain.text);
  assert.equal(plain.json.user.role, 'STUDENT');
  assert.deepEqual(plain.json.user.services, []);
});

test('register: every field message of the specification', async () => {
  const empty = await call('POST', '/api/register', { body: {} });
  assert.equal(empty.status, 400);
  assert.equal(empty.json.message, 'Validation failed');
  assert.deepEqual(empty.json.fields, {
    username: 'Username must be at least 3 characters',
    email: 'Invalid email address',
    name: 'Name must be at least 2 characters',
    password: 'Password must be at least 6 characters',
    confirmPassword: 'Please confirm your password',
  });

  const short = await call('POST', '/api/register', {
    body: { username: 'ab', email: 'not-an-email', name: 'A', password: '12345', confirmPassword: '12345' },
  });
  assert.equal(short.status, 400);
  assert.deepEqual(short.json.fields, {
    username: 'Username must be at least 3 characters',
    email: 'Invalid email address',
    name: 'Name must be at least 2 characters',
    password: 'Password must be at least 6 characters',
    confirmPassword: 'Please confirm your password',
  });
  assertClean(short.text, '12345');
});

test('register: passwords that differ are refused on confirmPassword', async () => {
  const input = newRegistration();
  const answer = await call('POST', '/api/register', { body: { ...input, confirmPassword: `${input.password}x` } });
  assert.equal(answer.status, 400);
  assert.equal(answer.json.message, 'Validation failed');
  assert.deepEqual(answer.json.fields, { confirmPassword: 'Passwords do not match' });
});

test('register: 409 when the username is taken, whatever its case', async () => {
  const { input } = await register();
  const again = newRegistration();
  const answer = await call('POST', '/api/register', {
    body: { ...again, username: input.username.toUpperCase(), confirmPassword: again.password },
  });
  assert.equal(answer.status, 409, answer.text);
  assert.equal(answer.json.message, 'Username is already taken');
});

test('register: 409 when the email is registered (also in another case)', async () => {
  const { input } = await register();
  for (const email of [input.email, input.email.toUpperCase()]) {
    const again = newRegistration();
    const answer = await call('POST', '/api/register', { body: { ...again, email, confirmPassword: again.password } });
    assert.equal(answer.status, 409, answer.text);
    assert.equal(answer.json.message, 'Email is already registered');
  }
});

test('register: concurrent sign-ups of one username or one email: one 201, the others 409', async () => {
  const base = newRegistration();
  const sameUsername = await Promise.all(
    [0, 1, 2].map((i) =>
      call('POST', '/api/register', {
        body: { ...base, email: `race${i}_${base.email}`, confirmPassword: base.password },
      })
    ),
  );
  assert.deepEqual(sameUsername.map((a) => a.status).sort(), [201, 409, 409], sameUsername.map((a) => a.text).join('\n'));
  for (const a of sameUsername.filter((a) => a.status === 409)) assert.equal(a.json.message, 'Username is already taken');

  const other = newRegistration();
  const sameEmail = await Promise.all(
    [0, 1, 2].map((i) =>
      call('POST', '/api/register', {
        body: { ...other, username: `${other.username}_${i}`, confirmPassword: other.password },
      })
    ),
  );
  assert.deepEqual(sameEmail.map((a) => a.status).sort(), [201, 409, 409], sameEmail.map((a) => a.text).join('\n'));
  for (const a of sameEmail.filter((a) => a.status === 409)) assert.equal(a.json.message, 'Email is already registered');
});

// ---------------------------------------------------------------- login

test('login: every field message of the specification', async () => {
  const empty = await call('POST', '/api/login', { body: {} });
  assert.equal(empty.status, 400);
  assert.equal(empty.json.message, 'Validation failed');
  assert.deepEqual(empty.json.fields, { username: 'Username is required', password: 'Password is required' });

  const blank = await call('POST', '/api/login', { body: { username: '   ', password: '' } });
  assert.equal(blank.status, 400);
  assert.deepEqual(blank.json.fields, { username: 'Username is required', password: 'Password is required' });
});

test('login: by username (any case) and by email, 200 with the user and a session', async () => {
  const { input, user } = await register();
  for (const username of [input.username, input.username.toUpperCase(), input.email]) {
    const answer = await call('POST', '/api/login', { body: { username, password: input.password } });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json.user, user);
    assert.deepEqual(Object.keys(answer.json.session).sort(), SESSION_KEYS);
    assertClean(answer.text, input.password);
    const me = await call('GET', '/api/user', { token: answer.json.session.access_token });
    assert.equal(me.status, 200);
    assert.equal(me.json.id, user.id);
  }
});

test('login: wrong password and unknown user get the same 401', async () => {
  const { input } = await register();
  const wrong = await call('POST', '/api/login', { body: { username: input.username, password: 'not-the-password' } });
  const unknown = await call('POST', '/api/login', { body: { username: `nobody_${unique()}`, password: 'whatever1' } });
  assert.equal(wrong.status, 401);
  assert.equal(unknown.status, 401);
  assert.deepEqual(wrong.json, { message: 'Invalid username or password' });
  assert.deepEqual(unknown.json, wrong.json);
});

test('login: 429 with Retry-After after repeated failures for a username from an address, even with the right password', async () => {
  // Per account and address (and 20 per account from all addresses together).
  const { input } = await register();
  const ip = uniqueIp();
  for (let i = 0; i < 5; i++) {
    const answer = await call('POST', '/api/login', { body: { username: input.username, password: `wrong-${i}` }, ip });
    assert.equal(answer.status, 401, `attempt ${i + 1}: ${answer.text}`);
  }
  const blocked = await call('POST', '/api/login', { body: { username: input.username, password: input.password }, ip });
  assert.equal(blocked.status, 429, blocked.text);
  assert.equal(blocked.json.message, 'Too many sign-in attempts. Please wait a few minutes and try again.');
  assert.ok(Number(blocked.headers.get('retry-after')) > 0);
});

test('login: 429 after many failures from one address, for any username', async () => {
  const ip = uniqueIp();
  for (let i = 0; i < 50; i++) {
    const answer = await call('POST', '/api/login', { body: { username: `nobody_${unique()}`, password: 'whatever1' }, ip });
    assert.equal(answer.status, 401, `attempt ${i + 1}: ${answer.text}`);
  }
  const { input } = await register();
  const blocked = await call('POST', '/api/login', { body: { username: input.username, password: input.password }, ip });
  assert.equal(blocked.status, 429, blocked.text);
  // Another address is not affected.
  const other = await call('POST', '/api/login', { body: { username: input.username, password: input.password } });
  assert.equal(other.status, 200, other.text);
});

test('login: a success clears the earlier failures of that username', async () => {
  const { input } = await register();
  for (let i = 0; i < 4; i++) {
    assert.equal((await call('POST', '/api/login', { body: { username: input.username, password: 'wrong-pass' } })).status, 401);
  }
  assert.equal((await call('POST', '/api/login', { body: { username: input.username, password: input.password } })).status, 200);
  for (let i = 0; i < 4; i++) {
    assert.equal((await call('POST', '/api/login', { body: { username: input.username, password: 'wrong-pass' } })).status, 401);
  }
  assert.equal((await call('POST', '/api/login', { body: { username: input.username, password: input.password } })).status, 200);
});

// ---------------------------------------------------------------- current user, logout

test('user: 401 without a token, with the anon key, with garbage or a malformed header', async () => {
  const none = await call('GET', '/api/user');
  assert.equal(none.status, 401);
  assert.equal(typeof none.json.message, 'string');
  assert.equal((await call('GET', '/api/user', { token: config.anonKey })).status, 401);
  assert.equal((await call('GET', '/api/user', { token: 'garbage' })).status, 401);
  assert.equal((await call('GET', '/api/user', { token: 'a.b.c' })).status, 401);
  assert.equal((await call('GET', '/api/user', { headers: { authorization: 'Basic dXNlcjpwYXNz' } })).status, 401);
  assert.equal((await call('GET', '/api/user', { headers: { authorization: 'Bearer' } })).status, 401);
});

test('user: a visitor (no token or the anon key) may still reach public routes', async () => {
  // Login is a visitor's call: the anon key must not be refused as a bad token.
  const answer = await call('POST', '/api/login', { body: { username: `nobody_${unique()}`, password: 'x' }, token: config.anonKey });
  assert.equal(answer.status, 401);
  assert.equal(answer.json.message, 'Invalid username or password');
});

test('user: 401 for a token signed with another key, and for an altered token', async () => {
  const { user, session } = await register();
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const header = JSON.parse(atob(session.access_token.split('.')[0].replace(/-/g, '+').replace(/_/g, '/')));
  const claims = JSON.parse(atob(session.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: header.kid, typ: 'JWT' }).sign(privateKey);
  assert.ok(await exportJWK(publicKey));
  assert.equal((await call('GET', '/api/user', { token: forged })).status, 401);

  const [h, , s] = session.access_token.split('.');
  const altered = btoa(JSON.stringify({ ...claims, role: 'service_role' })).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  assert.equal((await call('GET', '/api/user', { token: `${h}.${altered}.${s}` })).status, 401);

  // The genuine token still works.
  assert.equal((await call('GET', '/api/user', { token: session.access_token })).json.id, user.id);
});

test('logout: 204, then the token is refused (the session is gone) and a second logout is 401', async () => {
  const { session, input } = await register();
  // A second session of the same user survives this logout.
  const other = await call('POST', '/api/login', { body: { username: input.username, password: input.password } });
  assert.equal(other.status, 200);

  const out = await call('POST', '/api/logout', { token: session.access_token });
  assert.equal(out.status, 204, out.text);
  assert.equal(out.text, '');

  const me = await call('GET', '/api/user', { token: session.access_token });
  assert.equal(me.status, 401);
  const again = await call('POST', '/api/logout', { token: session.access_token });
  assert.equal(again.status, 401);

  const otherMe = await call('GET', '/api/user', { token: other.json.session.access_token });
  assert.equal(otherMe.status, 200, otherMe.text);
});

test('logout: 401 for a visitor', async () => {
  const answer = await call('POST', '/api/logout');
  assert.equal(answer.status, 401);
  assert.equal(typeof answer.json.message, 'string');
});

// ---------------------------------------------------------------- bodies, routes, errors

test('bodies: malformed JSON or a wrong content type is 400 Invalid JSON body', async () => {
  const malformed = await call('POST', '/api/login', { raw: '{"username": ', headers: { 'content-type': 'application/json' } });
  assert.equal(malformed.status, 400);
  assert.deepEqual(malformed.json, { message: 'Invalid JSON body' });
  const plain = await call('POST', '/api/register', { raw: '{"username":"abc"}', headers: { 'content-type': 'text/plain' } });
  assert.equal(plain.status, 400);
  assert.deepEqual(plain.json, { message: 'Invalid JSON body' });
  const none = await call('POST', '/api/login');
  assert.equal(none.status, 400);
  const notObject = await call('POST', '/api/login', { body: [1, 2] });
  assert.equal(notObject.status, 400);
  assert.equal(notObject.json.message, 'Validation failed');
});

test('bodies: over 1 MB is 413', async () => {
  const big = JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 10), password: 'y' });
  const answer = await call('POST', '/api/login', { raw: big, headers: { 'content-type': 'application/json' } });
  assert.equal(answer.status, 413);
  assert.equal(typeof answer.json.message, 'string');
  // Also without a Content-Length (streamed).
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
      for (let i = 0; i < 20; i++) controller.enqueue(chunk);
      controller.close();
    },
  });
  const streamed = await call('POST', '/api/login', { raw: stream, headers: { 'content-type': 'application/json' } });
  assert.equal(streamed.status, 413);
});

test('routes: unknown paths are 404 JSON', async () => {
  for (const [method, path] of [['GET', '/api/nope'], ['POST', '/api/users/none/else'], ['GET', '/elsewhere']]) {
    const answer = await call(method, path);
    assert.equal(answer.status, 404, `${method} ${path}`);
    assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(typeof answer.json.message, 'string');
  }
});

test('errors: a database that is not there is a 503 with a clear message, without stack or SQL text', async () => {
  // The same app against a database that is not there (faults_test.ts cuts a real one mid-use).
  const brokenDb = createDb('postgres://postgres@127.0.0.1:1/none');
  const broken = createApp(config, brokenDb);
  const originalError = console.error;
  console.error = () => {};
  try {
    const response = await broken.request('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp() },
      body: JSON.stringify({ username: 'someone', password: 'secret1' }),
    });
    assert.equal(response.status, 503);
    const text = await response.text();
    assert.deepEqual(JSON.parse(text), { message: 'The service is temporarily unavailable. Please try again in a moment.' });
    assertClean(text);
  } finally {
    console.error = originalError;
    await brokenDb.end();
  }
});

test('cors: a preflight is answered without credentials, and answers carry the CORS origin', async () => {
  const preflight = await app.request('/api/login', {
    method: 'OPTIONS',
    headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
  const answer = await app.request('/api/user', { headers: { origin: 'https://example.org' } });
  assert.equal(answer.status, 401);
  assert.equal(answer.headers.get('access-control-allow-origin'), '*');
});

closePoolAfterTests();
