// A person's language (profiles.language): every answer that returns the person says it, the person
// changes their own with PUT /api/profile/language, and Auth's user_metadata follows (for Auth's
// own emails, docs/decisions/bilingual-server-output.md).
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, db, login, newRegistration, register, test } from './helpers.ts';

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

test('language: registering on a Welsh page makes a Welsh profile; an unknown language is refused', async () => {
  const welsh = { ...newRegistration(), language: 'cy' } as ReturnType<typeof newRegistration>;
  const { user } = await register(welsh);
  assert.equal(user.language, 'cy');
  const [row] = await db.sql<{ language: string }[]>`select language from public.profiles where id = ${user.id}::uuid`;
  assert.equal(row.language, 'cy');
  const refused = await call('POST', '/api/register', { body: { ...newRegistration(), confirmPassword: 'x', language: 'fr' } });
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.json.fields?.language, 'Language must be en-GB or cy', refused.text);
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

test('language: the team and compliance CSV headers are in the caller\'s language (an English caller\'s as before)', async () => {
  const { session, user } = await register();
  const token = session.access_token;
  await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS}' where id = ${user.id}::uuid`;
  const firstLine = async (path: string) => {
    const answer = await call('GET', path, { token });
    assert.equal(answer.status, 200, answer.text);
    return answer.text.replace(/^\uFEFF/, '').split('\r\n')[0];
  };
  assert.equal(await firstLine('/api/team/export.csv'),
    'Name,Username,Unit,Direct report,Overdue,Due soon,In progress,Done,Certificates expiring (60 days),Next expiry,Last activity,'
    + 'Sessions booked,Next session,Next session status,Practicals due,Next practical due,Practicals overdue,Practicals overdue since,'
    + 'Practicals awaiting sign-off');
  assert.equal(await firstLine('/api/compliance/export.csv'), 'Name,Username,Email,Role,Services,Course,Status,Due date,Valid until,Progress (%),Recognised from');
  assert.equal((await call('PUT', '/api/profile/language', { token, body: { language: 'cy' } })).status, 200);
  assert.equal(await firstLine('/api/team/export.csv'),
    'Enw,Enw defnyddiwr,Uned,Yn adrodd yn uniongyrchol,Yn hwyr,Yn ddyledus cyn bo hir,Ar y gweill,Wedi\'i gwblhau,Tystysgrifau yn dod i ben (60 diwrnod),Yn dod i ben nesaf,Gweithgarwch diwethaf,'
    + 'Sesiynau wedi\'u harchebu,Sesiwn nesaf,Statws y sesiwn nesaf,Asesiadau ymarferol yn ddyledus,Asesiad ymarferol nesaf yn ddyledus,'
    + 'Asesiadau ymarferol yn hwyr,Asesiadau ymarferol yn hwyr ers,Asesiadau ymarferol yn aros am lofnod');
  assert.equal(await firstLine('/api/compliance/export.csv'),
    'Enw,Enw defnyddiwr,E-bost,Rôl,Gwasanaethau,Cwrs,Statws,Dyddiad dyledus,Yn ddilys tan,Cynnydd (%),Wedi\'i gydnabod o');
});

closePoolAfterTests();
