// The Overview's counters (supabase/schemas/06_instructor_dashboard.sql): after each of a
// mix of writes made as the api makes them (enrolling, approving, declining, reading modules,
// passing a quiz, stepping a course without modules, withdrawing, archiving, a course changing
// hands, a course deleted, its author deleted), the counters equal the figures counted afresh from
// the tables, and private.instructor_stats answers what the aggregate it replaced answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
  backends,
  createUser,
  ids,
  personas,
  queryAs,
  sqlState,
  withCourseAccess,
  type Persona,
  type TestDatabase,
} from './helpers/database';
import { keptCountsDrift } from './helpers/kept-counts';

const { admin, instructor, learner, otherInstructor } = personas;

// The figures as private.instructor_stats computed them before the counters (aggregating the
// author's enrolments on every call).
const AGGREGATED = `
  with mine as (select c.id from public.courses c where c.author_id = $1),
  requests as (select e.user_id, e.progress, e.completed, e.status from public.enrollments e where e.course_id in (select id from mine)),
  enrolled as (select r.user_id, r.progress, r.completed from requests r where r.status = 'ACTIVE'),
  figures as (
    select count(*)::integer as total, (count(*) filter (where en.completed))::integer as done,
           coalesce(round(avg(en.progress)), 0)::integer as progress
    from enrolled en
  )
  select (select count(distinct en.user_id) from enrolled en)::integer as total_students,
         f.progress as average_completion,
         case when f.total = 0 then 0 else round(100.0 * f.done / f.total)::integer end as completion_rate,
         f.progress as average_progress,
         f.done as completed_enrolments,
         f.total as total_enrolments,
         (select count(*) from requests r where r.status = 'PENDING')::integer as pending_requests
  from figures f`;
const KEPT = `
  select total_students, average_completion, completion_rate, average_progress, completed_enrolments,
         total_enrolments, pending_requests
  from private.instructor_stats()`;

describe.each(backends)('the instructor Overview\'s counters on $name', ({ create }) => {
  let db: TestDatabase;
  const first: Persona = { id: '00000000-0000-4000-a000-0000000000c1', email: 'figures.first@example.uk' };
  const second: Persona = { id: '00000000-0000-4000-a000-0000000000c2', email: 'figures.second@example.uk' };
  const heir: Persona = { id: '00000000-0000-4000-a000-0000000000c3', email: 'figures.heir@example.uk' };
  const authors = [instructor, otherInstructor, heir, admin];

  /** Counters equal to the tables, and every author's Overview equal to the aggregate. */
  async function expectInStep(step: string) {
    expect(await keptCountsDrift(db), step).toEqual([]);
    for (const author of authors) {
      const kept = (await queryAs(db, author, KEPT)).rows[0];
      const aggregated = (await db.query(AGGREGATED, [author.id])).rows[0];
      expect(kept, `${step}: ${author.email}`).toEqual(aggregated);
    }
  }
  const enrol = async (persona: Persona, course: number) =>
    (await queryAs<{ id: string; status: string }>(db, persona,
      'insert into public.enrollments (user_id, course_id) values ($1, $2) returning id, status', [persona.id, ids.course(course)])).rows[0];
  const readAll = async (persona: Persona, course: number) => {
    const modules = await db.query<{ id: string }>(
      'select id from public.course_modules where course_id = $1 order by order_index', [ids.course(course)]);
    for (const m of modules.rows) await queryAs(db, persona, 'select private.mark_module_read($1)', [m.id]);
  };

  /** Opens the quiz and submits the right answers (pass) or wrong ones, as the api does. */
  const takeQuiz = async (persona: Persona, quiz: string, pass: boolean) => {
    const questions = await db.query<{ id: string; correct_answers: number[] }>(
      'select id, correct_answers from public.quiz_questions where quiz_id = $1', [quiz]);
    const answers = Object.fromEntries(questions.rows.map((q) => [q.id, pass ? q.correct_answers : [9]]));
    await queryAs(db, persona, 'select private.start_quiz_attempt($1)', [quiz]);
    const attempt = await queryAs<{ passed: boolean }>(db, persona,
      'select passed from private.finish_quiz_attempt($1, $2::text::jsonb, 30)', [quiz, JSON.stringify(answers)]);
    expect(attempt.rows[0].passed).toBe(pass);
  };

  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
    await createUser(db, { id: first.id, email: first.email, username: 'figures_first', name: 'Fay First' });
    await createUser(db, { id: second.id, email: second.email, username: 'figures_second', name: 'Sam Second' });
    await createUser(db, { id: heir.id, email: heir.email, username: 'figures_heir', name: 'Hana Heir', role: 'INSTRUCTOR', services: ['UKPS'] });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('holds the seed\'s figures (the migration\'s backfill and the triggers agree)', async () => {
    await expectInStep('seed');
    const before = (await db.query('select * from private.course_enrolment_figures order by course_id')).rows;
    await db.query('select private.recount_enrolment_figures()');
    expect((await db.query('select * from private.course_enrolment_figures order by course_id')).rows).toEqual(before);
    await expectInStep('recounted');
    // The seed's own figures, as instructor_test.ts and e2e/instructor.test.ts expect them.
    expect((await queryAs(db, instructor, KEPT)).rows[0]).toMatchObject({ total_students: 1, total_enrolments: 3, completed_enrolments: 1 });
  });

  it('stays in step through a mix of writes', async () => {
    // Enrolling: active on courses 1, 2 and 14 (no modules), pending on 2 under approval.
    await enrol(first, 1);
    await enrol(first, 2);
    await enrol(first, 14);
    await expectInStep('enrolled');
    const pending = await withCourseAccess(db, 'login-approval', () => enrol(second, 2));
    expect(pending.status).toBe('PENDING');
    await expectInStep('pending');
    await queryAs(db, instructor, 'select private.approve_enrollment($1)', [pending.id]);
    await expectInStep('approved');

    // Progress: every module of course 2 read, its quiz passed (completed, certified); course 1
    // read, then its quiz failed and passed; course 14 stepped to 100.
    const progress = `select course_id, progress, completed from public.enrollments where user_id = $1 order by course_id`;
    await readAll(first, 2);
    await expectInStep('course 2 read');
    await takeQuiz(first, ids.quiz(2, 3), true);
    expect((await db.query(progress, [first.id])).rows).toContainEqual({ course_id: ids.course(2), progress: 100, completed: true });
    await expectInStep('course 2 completed');
    await readAll(first, 1);
    await expectInStep('course 1 read');
    await takeQuiz(first, ids.quiz(1, 2), false);
    await expectInStep('quiz failed');
    await takeQuiz(first, ids.quiz(1, 2), true);
    await expectInStep('quiz passed');
    expect((await db.query(progress, [first.id])).rows).toContainEqual({ course_id: ids.course(1), progress: 100, completed: true });
    const courseFourteen = (await db.query<{ id: string }>(
      'select id from public.enrollments where user_id = $1 and course_id = $2', [first.id, ids.course(14)])).rows[0].id;
    for (let i = 0; i < 5; i++) await queryAs(db, first, 'select private.step_course_progress($1)', [courseFourteen]);
    await expectInStep('course 14 stepped to 100');
    expect((await db.query(progress, [first.id])).rows).toContainEqual({ course_id: ids.course(14), progress: 100, completed: true });

    // Leaving: the second learner withdraws; a pending request is declined.
    await queryAs(db, second, 'delete from public.enrollments where user_id = $1 and course_id = $2', [second.id, ids.course(2)]);
    const declined = await withCourseAccess(db, 'login-approval', () => enrol(second, 3));
    await expectInStep('pending again');
    await queryAs(db, instructor, 'select private.decline_enrollment($1)', [declined.id]);
    await expectInStep('declined');

    // Courses: archived (still the instructor's), given to another author, erased with its
    // enrolments, and left without an author when that author's account is deleted.
    await queryAs(db, instructor, `update public.courses set status = 'ARCHIVED' where id = $1`, [ids.course(12)]);
    await expectInStep('archived');
    await queryAs(db, admin, 'update public.courses set author_id = $2 where id = $1', [ids.course(1), heir.id]);
    await expectInStep('course 1 given to another instructor');
    expect((await queryAs(db, heir, KEPT)).rows[0]).toMatchObject({ total_students: 2, total_enrolments: 2 });
    // A course with enrolments is never deleted through the API roles; the owner's erasure is.
    await db.query('select private.erase_course($1)', [ids.course(2)]);
    await expectInStep('course 2 erased');
    await db.query('delete from auth.users where id = $1', [heir.id]);
    authors.splice(authors.indexOf(heir), 1);
    await expectInStep('the author of course 1 deleted');
    expect((await db.query('select author_id from public.courses where id = $1', [ids.course(1)])).rows[0].author_id).toBeNull();
    // The learner's account deleted: every enrolment of theirs goes.
    await db.query('delete from auth.users where id = $1', [first.id]);
    await expectInStep('a learner deleted');
    expect((await queryAs(db, instructor, KEPT)).rows[0]).toMatchObject({ total_students: 1 });
  });

  it('lets no API role read or write the counters', async () => {
    for (const persona of [null, learner, instructor, admin]) {
      for (const table of ['course_enrolment_figures', 'instructor_learners', 'instructor_figures']) {
        expect(await sqlState(() => queryAs(db, persona, `select * from private.${table}`)), table).toBe('42501');
        expect(await sqlState(() => queryAs(db, persona, `delete from private.${table}`)), table).toBe('42501');
      }
      expect(await sqlState(() => queryAs(db, persona, 'select private.recount_enrolment_figures()'))).toBe('42501');
    }
  });
});
