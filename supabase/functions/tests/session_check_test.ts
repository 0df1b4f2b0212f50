// The session check folded into the first transaction of a request (lib/db.ts, lib/auth.ts): a
// session that is gone is refused at once on every path, reads and writes alike, and a refused
// write leaves nothing behind; a request that never reaches the database is checked afterwards.
import { assertEquals, call, closePoolAfterTests, db, register, sessionIdOf, test } from './helpers.ts';

test('a live session is served; once its row is gone every path is 401 and nothing is written', async () => {
  const { user, session, input } = await register();
  const token = session.access_token as string;
  const [course] = await db.sql<{ id: string }[]>`
    select id::text from public.courses c where c.status = 'ACTIVE'
      and not exists (select 1 from public.enrollments e where e.course_id = c.id and e.user_id = ${user.id}::uuid)
    order by id limit 1`;

  assertEquals((await call('GET', '/api/user', { token })).status, 200);
  assertEquals((await call('GET', '/api/courses', { token })).status, 200);

  await db.sql`delete from auth.sessions where id = ${sessionIdOf(token)}::uuid`;

  const refused = [
    await call('GET', '/api/user', { token }),
    await call('GET', '/api/courses', { token }),
    await call('GET', `/api/users/${user.id}/enrollments`, { token }),
    await call('POST', `/api/courses/${course.id}/enroll`, { token }),
    await call('PUT', '/api/profile', { token, body: { name: 'Written With A Gone Session', email: input.email } }),
    // Refused by validation before any query: checked afterwards, still 401.
    await call('GET', '/api/courses?page=0', { token }),
    await call('POST', '/api/logout', { token }),
  ];
  for (const answer of refused) {
    assertEquals(answer.status, 401, answer.text);
    assertEquals(answer.json, { message: 'Invalid or expired session' });
  }
  const [{ n }] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.enrollments where user_id = ${user.id}::uuid and course_id = ${course.id}::uuid`;
  assertEquals(n, 0, 'no enrolment was written');
  const [profile] = await db.sql<{ name: string }[]>`select name from public.profiles where id = ${user.id}::uuid`;
  assertEquals(profile.name, input.name, 'the profile was not changed');
});

test('the session row is read with the function\'s own privileges: the API roles cannot read auth.sessions', async () => {
  const { session } = await register();
  const token = session.access_token as string;
  assertEquals((await call('GET', '/api/user', { token })).status, 200);
  for (const role of ['anon', 'authenticated']) {
    const [row] = await db.sql<{ allowed: boolean }[]>`select has_table_privilege(${role}, 'auth.sessions', 'select') as allowed`;
    assertEquals(row.allowed, false, role);
  }
});

test('caching: the catalogue and a course are public to visitors for 30 s; answers to a signed-in user are private, no-store', async () => {
  const [course] = await db.sql<{ id: string }[]>`select id::text from public.courses where status = 'ACTIVE' and organisation_id is null order by id limit 1`;
  for (const path of ['/api/courses', `/api/courses/${course.id}`, `/api/courses/${course.id}/modules`]) {
    const answer = await call('GET', path);
    assertEquals(answer.status, 200, answer.text);
    assertEquals(answer.headers.get('cache-control'), 'public, max-age=30, stale-while-revalidate=60', path);
    assertEquals(answer.headers.get('vary')?.toLowerCase().includes('authorization'), true, path);
  }
  // Not public: other visitor answers, refusals.
  assertEquals((await call('GET', '/api/settings')).headers.get('cache-control'), null);
  assertEquals((await call('GET', '/api/courses/00000000-0000-4000-8000-000000000000')).headers.get('cache-control'), null);
  const { session } = await register();
  for (const path of ['/api/courses', `/api/courses/${course.id}`, '/api/user']) {
    const answer = await call('GET', path, { token: session.access_token });
    assertEquals(answer.status, 200, answer.text);
    assertEquals(answer.headers.get('cache-control'), 'private, no-store', path);
  }
});

closePoolAfterTests();
