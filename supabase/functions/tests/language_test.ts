// A person's language (profiles.language): every answer that returns the person says it, the person
// changes their own with PUT /api/profile/language, and Auth's user_metadata follows (for Auth's
// own emails, docs/decisions/bilingual-server-output.md).
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, login, register, test } from './helpers.ts';

test('language: a new person reads English; GET /api/user and the admin list say so', async () => {
  const { session, user } = await register();
  assert.equal(user.language, 'en-GB');
  const me = await call('GET', '/api/user', { token: session.access_token });
  assert.equal(me.status, 200, me.text);
  assert.equal(me.json.language, 'en-GB');
  const admin = await login('admin');
  const list = await call('GET', `/api/users?search=${encodeURIComponent(user.username)}`, { token: admin });
  assert.equal(list.status, 200, list.text);
  const item = list.json.items.find((u: { id: string }) => u.id === user.id);
  assert.equal(item?.language, 'en-GB');
});

test('language: PUT /api/profile/language sets the caller\'s own and returns the CurrentUser', async () => {
  const { session, user } = await register();
  const token = session.access_token;
  const answer = await call('PUT', '/api/profile/language', { token, body: { language: 'cy' } });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.id, user.id);
  assert.equal(answer.json.language, 'cy');
  assert.equal(answer.json.hasReports, false);
  const [row] = await db.sql<{ language: string; meta: string | null }[]>`
    select p.language, u.raw_user_meta_data ->> 'language' as meta
    from public.profiles p join auth.users u on u.id = p.id where p.id = ${user.id}::uuid`;
  assert.deepEqual({ ...row }, { language: 'cy', meta: 'cy' });
  const me = await call('GET', '/api/user', { token });
  assert.equal(me.json.language, 'cy');
  const back = await call('PUT', '/api/profile/language', { token, body: { language: 'en-GB' } });
  assert.equal(back.status, 200, back.text);
  assert.equal(back.json.language, 'en-GB');
});

test('language: anything but en-GB or cy is refused with the field\'s message; signed out is 401', async () => {
  const { session, user } = await register();
  for (const body of [{ language: 'fr' }, { language: 'cy-GB' }, { language: 'CY' }, { language: '' }, { language: null }, {}, { language: ['cy'] }]) {
    const answer = await call('PUT', '/api/profile/language', { token: session.access_token, body });
    assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
    assert.equal(answer.json.fields?.language, 'Language must be en-GB or cy', answer.text);
  }
  const [row] = await db.sql<{ language: string }[]>`select language from public.profiles where id = ${user.id}::uuid`;
  assert.equal(row.language, 'en-GB');
  const signedOut = await call('PUT', '/api/profile/language', { body: { language: 'cy' } });
  assert.equal(signedOut.status, 401);
});

closePoolAfterTests();
