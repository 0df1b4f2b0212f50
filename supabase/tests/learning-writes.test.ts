// private.mark_module_read (supabase/schemas/04_enrolment_and_progress.sql): marking a module read
// writes only what changes. Reading a module again leaves the learner's enrolment and progress row as
// they were (the same row versions), while a first reading still records it, completes the module
// and moves the progress on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, personas, queryAs, type TestDatabase } from './helpers/database';

type Versions = { enrolment: string; progress: string | null; progressValue: number; lastAccessed: string | null };

describe.each(backends)('learning writes on $name', ({ create }) => {
  let db: TestDatabase;
  let enrolmentId: string;
  let modules: string[];

  beforeAll(async () => {
    db = await create();
    // The learner's unfinished enrolment, and its course's modules without a quiz.
    const [row] = (await db.query<{ id: string; course_id: string }>(
      `select e.id, e.course_id from public.enrollments e
       where e.user_id = $1 and e.status = 'ACTIVE' and not e.completed
         and (select count(*) from public.course_modules m where m.course_id = e.course_id and not m.has_quiz) >= 2
       order by e.id limit 1`,
      [personas.learner.id],
    )).rows;
    enrolmentId = row.id;
    modules = (await db.query<{ id: string }>(
      `select m.id from public.course_modules m
       where m.course_id = $1 and not m.has_quiz
         and not exists (select 1 from public.user_module_progress p where p.user_id = $2 and p.module_id = m.id)
       order by m.order_index`,
      [row.course_id, personas.learner.id],
    )).rows.map((r) => r.id);
  });
  afterAll(async () => {
    await db?.close();
  });

  const versions = async (moduleId: string): Promise<Versions> => {
    const { rows } = await db.query<Versions>(
      `select e.xmin::text as enrolment, e.progress as "progressValue", e.last_accessed_module_id::text as "lastAccessed",
              (select p.xmin::text from public.user_module_progress p where p.user_id = e.user_id and p.module_id = $2) as progress
       from public.enrollments e where e.id = $1`,
      [enrolmentId, moduleId],
    );
    return rows[0];
  };
  const markRead = (moduleId: string) =>
    queryAs<{ id: string; progress: number }>(db, personas.learner, 'select (e).id, (e).progress from (select private.mark_module_read($1) as e) x', [moduleId]);

  it('has an unread module to read, so both ways are shown', () => {
    expect(modules.length).toBeGreaterThanOrEqual(1);
  });

  it('records a first reading: the module completes and the progress moves on', async () => {
    const before = await versions(modules[0]);
    expect(before.progress).toBeNull();
    const { rows } = await markRead(modules[0]);
    const after = await versions(modules[0]);
    expect(after.progress).not.toBeNull();
    expect(after.enrolment).not.toBe(before.enrolment);
    expect(after.lastAccessed).toBe(modules[0]);
    expect(after.progressValue).toBeGreaterThan(before.progressValue);
    expect(rows[0]).toEqual({ id: enrolmentId, progress: after.progressValue });
  });

  it('writes nothing when the same module is read again, and answers the same', async () => {
    const before = await versions(modules[0]);
    const { rows } = await markRead(modules[0]);
    expect(await versions(modules[0])).toEqual(before);
    expect(rows[0]).toEqual({ id: enrolmentId, progress: before.progressValue });
  });
});
