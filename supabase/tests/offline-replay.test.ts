// Offline learning in the database (supabase/schemas/30_offline_replay.sql): the accepted items are
// out of every API role's reach; an item is accepted once per person and key through the online
// functions, for an enrolled learner only (a deactivated person, someone not enrolled and a visitor
// are refused); the course's files are listed for its enrolled learner only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherInstructor, backends, ids, personas, type Persona, queryAs, sqlState, type TestDatabase } from './helpers/database';

const { admin, instructor, learner } = personas;
const visitor = null;
const JESIP = ids.course(1);
const UNREAD = ids.module(1, 3);

/** The hint of the error fn raises (the refusal's reason), or null when it succeeds. */
async function hintOf(fn: () => Promise<unknown>): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (error) {
    const hint = (error as { hint?: unknown }).hint;
    if (typeof hint === 'string') return hint;
    throw error;
  }
}

const replay = (db: TestDatabase, persona: Persona | null, key: string, moduleId = UNREAD) =>
  queryAs<{ result: Record<string, unknown> }>(
    db,
    persona,
    `select private.replay_offline_item($1::uuid, 'module-read', jsonb_build_object('moduleId', $2::text)) as result`,
    [key, moduleId],
  );

describe.each(backends)('offline replay on $name', ({ create }) => {
  let db: TestDatabase;
  let other: Persona;
  beforeAll(async () => {
    db = await create();
    other = await addOtherInstructor(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('keeps the accepted items away from every API role: RLS on, no grants', async () => {
    const rls = await db.query<{ relrowsecurity: boolean }>(`select relrowsecurity from pg_class where oid = 'private.offline_replays'::regclass`);
    expect(rls.rows).toEqual([{ relrowsecurity: true }]);
    for (const persona of [visitor, learner, admin]) {
      expect(await sqlState(() => queryAs(db, persona, 'select * from private.offline_replays'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, `delete from private.offline_replays`))).toBe('42501');
    }
    expect(await sqlState(() => queryAs(db, visitor, `select private.replay_offline_item(gen_random_uuid(), 'module-read', '{}')`))).toBe('42501');
    expect(await sqlState(() => queryAs(db, visitor, `select * from private.offline_course_files($1::uuid)`, [JESIP]))).toBe('42501');
  });

  it('accepts an enrolled learner\'s item once per key; a replay answers the stored result and changes nothing', async () => {
    const key = crypto.randomUUID();
    const first = (await replay(db, learner, key)).rows[0].result;
    expect(first).toMatchObject({ moduleId: UNREAD, courseId: JESIP, moduleCompleted: true, replayed: false });
    const progress = first.courseProgress as number;
    const again = (await replay(db, learner, key)).rows[0].result;
    expect(again).toEqual({ ...first, replayed: true });
    const rows = await db.query<{ n: number }>(`select count(*)::int as n from private.offline_replays where key = $1`, [key]);
    expect(rows.rows).toEqual([{ n: 1 }]);
    const enrolment = await db.query<{ progress: number }>(
      `select progress from public.enrollments where user_id = $1 and course_id = $2`,
      [learner.id, JESIP],
    );
    expect(enrolment.rows).toEqual([{ progress }]);
    // The same key with another module: refused, the stored item untouched.
    expect(await hintOf(() => replay(db, learner, key, ids.module(1, 4)))).toBe('offline_key_reused');
  });

  it('refuses someone not enrolled (the author, another instructor) and a deactivated learner, and keeps nothing', async () => {
    for (const persona of [instructor, other, admin]) {
      expect(await hintOf(() => replay(db, persona, crypto.randomUUID()))).toBe('offline_not_enrolled');
    }
    expect(await hintOf(() => replay(db, learner, crypto.randomUUID(), ids.module(15, 1)))).toBe('offline_course_unavailable');
    await db.query(`update public.profiles set deactivated_at = now() where id = $1`, [learner.id]);
    try {
      expect(await hintOf(() => replay(db, learner, crypto.randomUUID(), ids.module(1, 4)))).toBe('offline_deactivated');
    } finally {
      await db.query(`update public.profiles set deactivated_at = null where id = $1`, [learner.id]);
    }
    const kept = await db.query<{ n: number }>(
      `select count(*)::int as n from private.offline_replays where user_id <> $1 or subject_id = $2`,
      [learner.id, ids.module(1, 4)],
    );
    expect(kept.rows).toEqual([{ n: 0 }]);
  });

  it('lists a course\'s stored files for its enrolled learner only', async () => {
    const names = [`${JESIP}/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa.png`, `${ids.course(2)}/bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb.png`];
    await db.query(
      `insert into storage.objects (bucket_id, name, metadata) values
         ('module-images', $1, '{"size": 1234, "mimetype": "image/png"}'), ('module-images', $2, '{"size": 99, "mimetype": "image/png"}')`,
      names,
    );
    const files: Record<string, unknown[]> = {};
    try {
      for (const [name, persona] of [['learner', learner], ['instructor', instructor], ['admin', admin]] as const) {
        files[name] = (await queryAs(db, persona, `select bucket, name, bytes::int as bytes from private.offline_course_files($1::uuid)`, [JESIP])).rows;
      }
    } finally {
      await db.query(`delete from storage.objects where bucket_id = 'module-images' and name = any($1::text[])`, [names]);
    }
    expect(files.learner).toEqual([{ bucket: 'module-images', name: `${JESIP}/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa.png`, bytes: 1234 }]);
    expect(files.instructor).toEqual([]);
    expect(files.admin).toEqual([]);
  });
});
