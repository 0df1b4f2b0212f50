// The outside attack's requests performed again against the real platform, straight at
// Auth, Storage and the database API as hosted Supabase exposes them, and through /api where the
// function acted on what the attack had written. Each must now be refused, and nothing of another
// course or person may change.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, config, db, newRegistration, register, test } from './helpers.ts';

const INSTRUCTOR = '00000000-0000-4000-a000-000000000002';
const INSTRUCTOR_COURSE = '10000000-0000-4000-a000-000000000001';
const ADMIN_COURSE = '10000000-0000-4000-a000-000000000004';

const PNG = Uint8Array.from(atob(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
), (ch) => ch.charCodeAt(0));

async function login(username: string, password = 'password123') {
  const answer = await call('POST', '/api/login', { body: { username, password } });
  if (answer.status !== 200) throw new Error(`login ${username} failed: ${answer.status} ${answer.text}`);
  return answer.json.session;
}

function cover(field = 'coverImage'): FormData {
  const form = new FormData();
  form.append(field, new File([PNG], 'cover.png', { type: 'image/png' }));
  return form;
}

const asInstructor = { role: 'authenticated' as const, claims: { role: 'authenticated', sub: INSTRUCTOR, aud: 'authenticated' } };
const sqlState = async (work: () => Promise<unknown>) => {
  try {
    await work();
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
};

test('16.1: an instructor cannot point their course at another course\'s cover, so the function never deletes it', async () => {
  const admin = await login('admin');
  const instructor = await login('instructor');
  const theirs = await call('POST', `/api/courses/${ADMIN_COURSE}/cover`, { token: admin.access_token, raw: cover() });
  assert.equal(theirs.status, 200, theirs.text);
  const victimUrl: string = theirs.json.coverImage;

  // The attack: write the column straight through the database API, as the author of course 1.
  assert.equal(await sqlState(() => db.withCaller(asInstructor, (tx) =>
    tx`update public.courses set cover_image = ${victimUrl} where id = ${INSTRUCTOR_COURSE}::uuid`)), '42501');
  assert.equal(await sqlState(() => db.withCaller(asInstructor, (tx) =>
    tx`select private.set_course_cover(${INSTRUCTOR_COURSE}::uuid, ${victimUrl})`)), '22023');
  assert.equal(await sqlState(() => db.withCaller(asInstructor, (tx) =>
    tx`select private.set_course_cover(${ADMIN_COURSE}::uuid, null)`)), '42501');
  // Then what made the function delete the other file: a new cover, and deleting the module.
  const own = await call('POST', `/api/courses/${INSTRUCTOR_COURSE}/cover`, { token: instructor.access_token, raw: cover() });
  assert.equal(own.status, 200, own.text);
  const again = await call('POST', `/api/courses/${INSTRUCTOR_COURSE}/cover`, { token: instructor.access_token, raw: cover() });
  assert.equal(again.status, 200, again.text);
  const served = await fetch(victimUrl);
  await served.body?.cancel();
  assert.equal(served.status, 200, 'the other course\'s cover is still served');
  const [row] = await db.sql<{ coverImage: string }[]>`select cover_image from public.courses where id = ${ADMIN_COURSE}::uuid`;
  assert.equal(row.coverImage, victimUrl);
  // The replaced cover of their own course is gone, as before.
  const replaced = await fetch(own.json.coverImage);
  await replaced.body?.cancel();
  assert.equal(replaced.status, 404);
});

test('16.1: a module image column cannot be pointed at another course\'s file either', async () => {
  const admin = await login('admin');
  const theirs = await call('POST', `/api/courses/${ADMIN_COURSE}/cover`, { token: admin.access_token, raw: cover() });
  const victimUrl: string = theirs.json.coverImage;
  const moduleUrl = victimUrl.replace('/course-covers/', '/module-images/');
  const [module] = await db.sql<{ id: string }[]>`
    select id from public.course_modules where course_id = ${INSTRUCTOR_COURSE}::uuid order by order_index limit 1`;
  assert.equal(await sqlState(() => db.withCaller(asInstructor, (tx) =>
    tx`update public.course_modules set image = ${moduleUrl} where id = ${module.id}::uuid`)), '42501');
  assert.equal(await sqlState(() => db.withCaller(asInstructor, (tx) =>
    tx`select private.set_module_image(${module.id}::uuid, ${moduleUrl})`)), '22023');
  const served = await fetch(victimUrl);
  await served.body?.cancel();
  assert.equal(served.status, 200);
});

test('16.2: a sign-up straight through Auth cannot take someone\'s email as its username, nor a look-alike', async () => {
  const headers = { apikey: config.anonKey, 'content-type': 'application/json' };
  for (const username of ['student@example.uk', 'adm\u200bin', '<b>x</b>', '=HYPERLINK("x")']) {
    const signup = await fetch(`${config.supabaseUrl}/auth/v1/signup`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: newRegistration().email, password: 'a-long-secret-42', data: { username, name: 'Mallory' } }),
    });
    await signup.body?.cancel();
    assert.ok(signup.status >= 400, `${username}: ${signup.status}`);
  }
  const bidi = await fetch(`${config.supabaseUrl}/auth/v1/signup`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: newRegistration().email, password: 'a-long-secret-42', data: { username: `bidi_${Date.now()}`, name: 'Sam\u202ePatel' } }),
  });
  await bidi.body?.cancel();
  assert.ok(bidi.status >= 400);
  // The owner of the email still signs in with it, and with their username.
  await login('student@example.uk');
  await login('student');
});

test('16.5: a user cannot set their profile email through the database API', async () => {
  const { user } = await register();
  const asUser = { role: 'authenticated' as const, claims: { role: 'authenticated', sub: user.id, aud: 'authenticated' } };
  assert.equal(await sqlState(() => db.withCaller(asUser, (tx) =>
    tx`update public.profiles set email = 'unverified@example.org' where id = ${user.id}::uuid`)), '42501');
});

test('16.7: nobody but an administrator lists the public buckets; public files are still served by URL', async () => {
  const admin = await login('admin');
  const stored = await call('POST', `/api/courses/${ADMIN_COURSE}/cover`, { token: admin.access_token, raw: cover() });
  const learner = (await register()).session;
  const list = (token: string) => fetch(`${config.supabaseUrl}/storage/v1/object/list/course-covers`, {
    method: 'POST',
    headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prefix: ADMIN_COURSE }),
  });
  for (const token of [config.anonKey, learner.access_token]) {
    const answer = await list(token);
    assert.deepEqual(await answer.json(), []);
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
  }
  const byAdmin = await list(admin.access_token);
  assert.ok((await byAdmin.json()).length >= 1);
  const served = await fetch(stored.json.coverImage);
  await served.body?.cancel();
  assert.equal(served.status, 200);
  // Auth's JSON answers carry nosniff too.
  const settings = await fetch(`${config.supabaseUrl}/auth/v1/settings`, { headers: { apikey: config.anonKey } });
  await settings.body?.cancel();
  assert.equal(settings.headers.get('x-content-type-options'), 'nosniff');
});

test('16.9: Auth and Storage refuse a request without the project\'s key, as hosted Supabase does', async () => {
  const signup = await fetch(`${config.supabaseUrl}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: newRegistration().email, password: 'a-long-secret-42' }),
  });
  assert.equal(signup.status, 401);
  assert.equal((await signup.json()).message, 'No API key found in request');
  const list = await fetch(`${config.supabaseUrl}/storage/v1/object/list/course-covers`, { method: 'POST', body: '{}' });
  assert.equal(list.status, 401);
  await list.body?.cancel();
});

test('16.8: an instructor without MISC gets no MISC people from the list or the CSV, as the summary says', async () => {
  const MISC_COURSE = '10000000-0000-4000-a000-000000000012';
  const { user: dual } = await register();
  await db.sql`update public.profiles set services = '{UKPS,MISC}' where id = ${dual.id}::uuid`;
  const { user: ukpsInstructor, input } = await register();
  await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS}' where id = ${ukpsInstructor.id}::uuid`;
  const [rule] = await db.sql<{ id: string }[]>`
    insert into public.required_training (course_id, role) values (${MISC_COURSE}::uuid, 'STUDENT')
    on conflict do nothing returning id`;
  try {
    const token = (await login(input.username, input.password)).access_token;
    const people = await call('GET', '/api/compliance/people?service=MISC', { token });
    assert.equal(people.status, 200, people.text);
    assert.deepEqual(people.json.items, []);
    const summary = await call('GET', '/api/compliance?service=MISC', { token });
    assert.equal(summary.status, 200, summary.text);
    const csv = await call('GET', '/api/compliance/export.csv?service=MISC', { token });
    assert.equal(csv.status, 200);
    assert.equal(csv.text.trim().split('\n').length, 1, 'the header only');
    // Under their own service they do see the person who shares it.
    const ukps = await call('GET', '/api/compliance/people?service=UKPS&pageSize=100', { token });
    assert.ok(ukps.json.items.some((p: { user: { id: string } } & Record<string, unknown>) => JSON.stringify(p).includes(dual.id)));
  } finally {
    if (rule) await db.sql`delete from public.required_training where id = ${rule.id}::uuid`;
  }
});

// ---------------------------------------------------------------- 16.3: Auth's own changes

const mailUrl = (Deno.env.get('MAIL_URL') ?? '').replace(/\/+$/, '');

/** The newest code the mail catcher holds for an address (as the person reads it in their email). */
async function codeSentTo(address: string): Promise<string> {
  const list = await (await fetch(`${mailUrl}/api/v1/messages`)).json() as { messages: { ID: string; To: { Address: string }[] }[] };
  const message = list.messages.find((m) => m.To.some((t) => t.Address === address.toLowerCase()));
  assert.ok(message, `no email to ${address}`);
  const full = await (await fetch(`${mailUrl}/api/v1/message/${message.ID}`)).json() as { Text: string };
  return /code: (\d{6})/.exec(full.Text)![1];
}

/** Makes a session look 25 hours old, as a browser that stays signed in for days holds. */
async function ageSession(token: string) {
  const claims = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  await db.sql`update auth.sessions set created_at = now() - interval '25 hours' where id = ${claims.session_id}::uuid`;
}

const authHeaders = (token: string) => ({ apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' });

test('16.3: PUT /auth/v1/user cannot change the password of an old session without the emailed code, even while sign-in is locked', async () => {
  const { input, session } = await register();
  await ageSession(session.access_token);
  // The account is locked at /api/login from this address ...
  const ip = '10.16.3.1';
  for (let i = 0; i < 5; i++) await call('POST', '/api/login', { body: { username: input.username, password: `wrong-${i}` }, ip });
  assert.equal((await call('POST', '/api/login', { body: { username: input.username, password: input.password }, ip })).status, 429);
  // ... and Auth directly refuses the change without the code.
  const refused = await fetch(`${config.supabaseUrl}/auth/v1/user`, {
    method: 'PUT', headers: authHeaders(session.access_token), body: JSON.stringify({ password: 'a-new-secret-163' }),
  });
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).error_code, 'reauthentication_needed');
  const wrong = await fetch(`${config.supabaseUrl}/auth/v1/user`, {
    method: 'PUT', headers: authHeaders(session.access_token), body: JSON.stringify({ password: 'a-new-secret-163', nonce: '000000' }),
  });
  assert.equal(wrong.status, 400);
  await wrong.body?.cancel();
  await login(input.username, input.password); // unchanged
  // The owner asks for the code, reads it in their email, and changes the password with it.
  const asked = await fetch(`${config.supabaseUrl}/auth/v1/reauthenticate`, { headers: authHeaders(session.access_token) });
  assert.equal(asked.status, 200);
  await asked.body?.cancel();
  const nonce = await codeSentTo(input.email);
  const changed = await fetch(`${config.supabaseUrl}/auth/v1/user`, {
    method: 'PUT', headers: authHeaders(session.access_token), body: JSON.stringify({ password: 'a-new-secret-163', nonce }),
  });
  assert.equal(changed.status, 200, await changed.text());
  await login(input.username, 'a-new-secret-163');
  // A code works once.
  const reused = await fetch(`${config.supabaseUrl}/auth/v1/user`, {
    method: 'PUT', headers: authHeaders(session.access_token), body: JSON.stringify({ password: 'another-secret-163', nonce }),
  });
  assert.equal(reused.status, 400);
  await reused.body?.cancel();
});

test('16.3: an email change through Auth takes effect only when both addresses confirm it', async () => {
  const { input, user, session } = await register();
  const next = `changed_${Date.now()}@example.test`;
  const asked = await fetch(`${config.supabaseUrl}/auth/v1/user`, {
    method: 'PUT', headers: authHeaders(session.access_token), body: JSON.stringify({ email: next }),
  });
  assert.equal(asked.status, 200);
  assert.equal((await asked.json()).new_email, next);
  const emailOf = async () => (await db.sql<{ email: string }[]>`select email from auth.users where id = ${user.id}::uuid`)[0].email;
  assert.equal(await emailOf(), input.email, 'nothing changes yet');
  const verify = (email: string, token: string) => fetch(`${config.supabaseUrl}/auth/v1/verify`, {
    method: 'POST', headers: authHeaders(config.anonKey), body: JSON.stringify({ type: 'email_change', email, token }),
  });
  const bad = await verify(next, '123456');
  assert.equal(bad.status, 403);
  await bad.body?.cancel();
  const newSide = await verify(next, await codeSentTo(next));
  assert.equal(newSide.status, 200);
  await newSide.body?.cancel();
  assert.equal(await emailOf(), input.email, 'the new address alone is not enough');
  const currentSide = await verify(input.email, await codeSentTo(input.email));
  assert.equal(currentSide.status, 200);
  await currentSide.body?.cancel();
  assert.equal(await emailOf(), next);
  const [profile] = await db.sql<{ email: string }[]>`select email from public.profiles where id = ${user.id}::uuid`;
  assert.equal(profile.email, next);
  await login(next, input.password);
});

test('16.3: /api/profile/password from a session over 24 hours old: checked there, then the browser carries on with a new session', async () => {
  const { input, session } = await register();
  await ageSession(session.access_token);
  const answer = await call('PUT', '/api/profile/password', {
    token: session.access_token,
    body: { currentPassword: input.password, newPassword: 'a-fresh-secret-163', confirmPassword: 'a-fresh-secret-163' },
  });
  assert.equal(answer.status, 200, answer.text);
  const fresh = answer.json.session.access_token as string;
  assert.equal((await call('GET', '/api/user', { token: session.access_token })).status, 401, 'the old session ended');
  assert.equal((await call('GET', '/api/user', { token: fresh })).status, 200);
  await login(input.username, 'a-fresh-secret-163');
  // A wrong current password is still refused, whatever the session's age.
  const wrong = await call('PUT', '/api/profile/password', {
    token: fresh, body: { currentPassword: 'not-it-at-all', newPassword: 'another-163-x', confirmPassword: 'another-163-x' },
  });
  assert.equal(wrong.status, 400);
});

closePoolAfterTests();
