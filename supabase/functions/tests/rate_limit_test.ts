// Sign-in and registration limits through the api (rules in supabase/schemas/11_rate_limits.sql):
// 429 with Retry-After in seconds, counted in the database so that parallel requests and several
// function instances share one count, only failures count per address, and the client address is
// the one the gateway saw, never a header the client sent.
import assert from 'node:assert/strict';
import { createApp } from '../api/app.ts';
import { TOO_MANY_NOTIFICATION_WRITES, TOO_MANY_REGISTRATIONS, TOO_MANY_SIGN_INS } from '../api/lib/rate-limit.ts';
import { call, closePoolAfterTests, config, db, newRegistration, register, test, unique, uniqueIp } from './helpers.ts';

function assertRetryAfter(headers: Headers, max: number) {
  const value = headers.get('retry-after') ?? '';
  assert.match(value, /^\d+$/, `Retry-After "${value}" is whole seconds`);
  assert.ok(Number(value) >= 1 && Number(value) <= max, `Retry-After ${value} within 1..${max}`);
}

test('sign-in: a burst of 20 parallel wrong passwords for one account from one address gets exactly 5 tries, on two function instances', async () => {
  const { input } = await register();
  const second = createApp(config, db);
  const ip = uniqueIp();
  const statuses = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const init = {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ username: input.username, password: `wrong-${i}` }),
      };
      if (i % 2 === 0) return (await call('POST', '/api/login', { body: JSON.parse(init.body), ip: init.headers['x-forwarded-for'] })).status;
      const response = await second.request('/api/login', init);
      await response.body?.cancel();
      return response.status;
    }),
  );
  assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
  assert.equal(statuses.filter((s) => s === 429).length, 15, statuses.join(','));
  // Naming the account by its email counts against the same account.
  const byEmail = await call('POST', '/api/login', { body: { username: input.email, password: input.password }, ip });
  assert.equal(byEmail.status, 429);
  assert.deepEqual(byEmail.json, { message: TOO_MANY_SIGN_INS });
  assertRetryAfter(byEmail.headers, 900);
});

test('sign-in: guessing from many addresses cannot lock the owner out of a browser they signed in from before', async () => {
  const { input } = await register();
  // The owner signs in from their browser, which keeps the device token it is given.
  const home = uniqueIp();
  const first = await call('POST', '/api/login', { body: { username: input.username, password: input.password }, ip: home });
  assert.equal(first.status, 200, first.text);
  const device: string = first.json.device;
  assert.match(device, /^[A-Za-z0-9_-]{43}$/);
  // The attack as performed: wrong passwords for the account from many addresses, and 50 failures
  // for other accounts from the owner's own (shared) address.
  for (let i = 0; i < 20; i++) {
    const wrong = await call('POST', '/api/login', { body: { username: input.username, password: `wrong-${i}` } });
    assert.equal(wrong.status, 401, `guess ${i + 1}: ${wrong.text}`);
  }
  for (let i = 0; i < 50; i++) {
    const other = await call('POST', '/api/login', { body: { username: `nobody_${unique()}`, password: 'wrong' }, ip: home });
    assert.equal(other.status, 401);
  }
  // A new browser is refused for now (the documented trade-off) ...
  const stranger = await call('POST', '/api/login', { body: { username: input.username, password: input.password }, ip: home });
  assert.equal(stranger.status, 429);
  // ... but the owner's browser, with its device token, gets in with the correct password.
  const owner = await call('POST', '/api/login', { body: { username: input.username, password: input.password, device }, ip: home });
  assert.equal(owner.status, 200, owner.text);
  assert.equal(owner.json.device, device);
  // A malformed device token is ignored, not an error.
  const odd = await call('POST', '/api/login', { body: { username: input.username, password: input.password, device: 'x' } });
  assert.ok([200, 429].includes(odd.status), odd.text);
});

test('sign-in: only failures count per address; 52 successes from one address are all let in', async () => {
  const ip = uniqueIp();
  const { input } = await register();
  for (let i = 0; i < 52; i++) {
    const answer = await call('POST', '/api/login', { body: { username: input.username, password: input.password }, ip });
    assert.equal(answer.status, 200, `sign-in ${i + 1}: ${answer.text}`);
  }
  const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from private.rate_limit_attempts where address = ${ip}`;
  assert.equal(row.n, 0);
});

test('registration: 20 attempts per address in an hour, then 429 with Retry-After and nothing created', async () => {
  const ip = uniqueIp();
  for (let i = 0; i < 20; i++) {
    // Attempts count whatever their outcome: a taken username (409) is one too.
    const input = i === 0 ? { ...newRegistration(), username: 'student' } : newRegistration();
    const answer = await call('POST', '/api/register', { body: { ...input, confirmPassword: input.password }, ip });
    assert.equal(answer.status, i === 0 ? 409 : 201, `registration ${i + 1}: ${answer.text}`);
  }
  const input = newRegistration();
  const refused = await call('POST', '/api/register', { body: { ...input, confirmPassword: input.password }, ip });
  assert.equal(refused.status, 429, refused.text);
  assert.deepEqual(refused.json, { message: TOO_MANY_REGISTRATIONS });
  assertRetryAfter(refused.headers, 3600);
  const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from auth.users where email = ${input.email}`;
  assert.equal(row.n, 0);
  // Another address may still register.
  assert.equal((await call('POST', '/api/register', { body: { ...input, confirmPassword: input.password } })).status, 201);
});

test('registration: 5 attempts per email in an hour, from any address (probing whether an email is registered)', async () => {
  const { input } = await register();
  for (let i = 0; i < 4; i++) {
    const probe = { ...newRegistration(), email: input.email.toUpperCase() };
    const answer = await call('POST', '/api/register', { body: { ...probe, confirmPassword: probe.password } });
    assert.equal(answer.status, 409, answer.text);
  }
  const probe = { ...newRegistration(), email: input.email };
  const refused = await call('POST', '/api/register', { body: { ...probe, confirmPassword: probe.password } });
  assert.equal(refused.status, 429, refused.text);
  assertRetryAfter(refused.headers, 3600);
});

test('bad input is 400 and not counted: it never reaches the limits', async () => {
  const ip = uniqueIp();
  for (let i = 0; i < 25; i++) {
    assert.equal((await call('POST', '/api/register', { body: { username: 'x' }, ip })).status, 400);
    assert.equal((await call('POST', '/api/login', { body: { username: '' }, ip })).status, 400);
  }
  const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from private.rate_limit_attempts where address = ${ip}`;
  assert.equal(row.n, 0);
});

test('notification writes: 60 in 10 minutes per person, preferences and "mark all read" together, from any address; then 429', async () => {
  const { session } = await register();
  const other = await register();
  const token = session.access_token;
  for (let i = 0; i < 60; i++) {
    const answer = i % 2 === 0
      ? await call('PUT', '/api/me/notification-preferences', { token, body: { language: 'en-GB', email: {} } })
      : await call('POST', '/api/notifications/read-all', { token });
    assert.equal(answer.status, 200, `write ${i + 1}: ${answer.text}`);
  }
  for (const answer of [
    await call('PUT', '/api/me/notification-preferences', { token, body: { language: 'en-GB', email: {} } }),
    await call('POST', '/api/notifications/read-all', { token, ip: uniqueIp() }),
  ]) {
    assert.equal(answer.status, 429, answer.text);
    assert.equal(answer.json.message, TOO_MANY_NOTIFICATION_WRITES);
    assertRetryAfter(answer.headers, 600);
  }
  // Reading is not limited, nor is anyone else.
  assert.equal((await call('GET', '/api/me/notification-preferences', { token })).status, 200);
  assert.equal((await call('POST', '/api/notifications/read-all', { token: other.session.access_token })).status, 200);
});

test('gateway: the address counted is the peer the gateway saw, not an X-Forwarded-For the client sent', async () => {
  const username = `nobody_${unique()}`;
  const spoofed = uniqueIp();
  const response = await fetch(`${config.supabaseUrl}/functions/v1/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': spoofed, 'x-real-ip': spoofed, forwarded: `for=${spoofed}` },
    body: JSON.stringify({ username, password: 'not-the-password' }),
  });
  assert.equal(response.status, 401);
  await response.body?.cancel();
  const rows = await db.sql<{ address: string }[]>`
    select address from private.rate_limit_attempts where account = ${username.toLowerCase()}`;
  assert.equal(rows.length, 1);
  assert.notEqual(rows[0].address, spoofed);
  assert.match(rows[0].address, /^(127\.0\.0\.1|::1)$/);
});

closePoolAfterTests();
