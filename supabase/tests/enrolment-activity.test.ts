// private.enrolment_activity (migration 20260400000300_enrolment_activity) gives a learner's
// completed modules and latest activity per course for their enrolments list, with the rules of the
// user_module_progress and course_modules policies stated in its own WHERE clause. Both ways, for
// every persona and two learners: it returns exactly what the same aggregate returns when it is
// read under row-level security, so it shows nobody a figure they could not count themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor, backends, createUser, ids, personas, queryAs, seedCourses, sqlState, type Persona, type TestDatabase,
} from './helpers/database';

const secondLearner: Persona = { id: '00000000-0000-4000-a000-0000000000bb', email: 'second.learner@example.uk' };

type Activity = { course_id: string; done: number; last_read: unknown; last_completed: unknown };

/** The figures as the persona can count them under row-level security. */
const UNDER_RLS = `
  select m.course_id, (count(*) filter (where p.completed))::integer as done,
         max(p.read_at) as last_read, max(p.completed_at) as last_completed
  from public.user_module_progress p
  join public.course_modules m on m.id = p.module_id
  where p.user_id = $1
  group by m.course_id
  order by m.course_id`;
const FROM_FUNCTION = 'select course_id, done, last_read, last_completed from private.enrolment_activity($1) order by course_id';

describe.each(backends)('private.enrolment_activity on $name', ({ create }) => {
  let db: TestDatabase;
  let otherCourse: string;

  beforeAll(async () => {
    db = await create();
    const other = await addOtherInstructor(db);
    await createUser(db, { id: secondLearner.id, email: secondLearner.email, username: 'second_learner', name: 'Sam Second' });
    // A published course of the other instructor, so that each instructor authors some of the
    // courses the learners have progress in and not others.
    otherCourse = (await db.query<{ id: string }>(
      `insert into public.courses (title, description, service, author_id, status)
       values ('Activity course', 'A course of the other instructor', 'UKPS', $1, 'ACTIVE') returning id`,
      [other.id],
    )).rows[0].id;
    await db.query(
      `insert into public.course_modules (course_id, title, content, order_index)
       select $1, 'Activity module ' || n, 'Body', n from generate_series(1, 3) n`,
      [otherCourse],
    );
    // Progress of both learners in published courses of each author, in a draft and in an archived
    // course (neither visible to learners): every other module completed, each read a day apart.
    const courses = [ids.course(1), ids.course(4), ids.course(seedCourses.draftByInstructor), ids.course(seedCourses.archivedByAdmin), otherCourse];
    for (const learner of [personas.learner, secondLearner]) {
      await db.query(
        `insert into public.user_module_progress (user_id, module_id, read_at, completed, completed_at)
         select $1, m.id, now() - make_interval(days => row_number() over (order by m.id)::int),
                (row_number() over (order by m.id)) % 2 = 1,
                case when (row_number() over (order by m.id)) % 2 = 1 then now() - make_interval(hours => row_number() over (order by m.id)::int) end
         from public.course_modules m where m.course_id = any($2::uuid[])
         on conflict (user_id, module_id) do update set read_at = excluded.read_at, completed = excluded.completed, completed_at = excluded.completed_at`,
        [learner.id, courses],
      );
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  it('gives every persona the figures they can count under row-level security, for each learner', async () => {
    for (const [name, persona] of Object.entries({ ...personas, secondLearner })) {
      for (const learner of [personas.learner, secondLearner]) {
        const expected = (await queryAs<Activity>(db, persona, UNDER_RLS, [learner.id])).rows;
        const actual = (await queryAs<Activity>(db, persona, FROM_FUNCTION, [learner.id])).rows;
        expect(actual, `${name} reading ${learner.email}`).toEqual(expected);
      }
    }
  });

  it('shows a learner their own courses they can see, and nothing of another learner', async () => {
    const own = (await queryAs<Activity>(db, personas.learner, FROM_FUNCTION, [personas.learner.id])).rows;
    const courses = own.map((r) => r.course_id);
    expect(courses).toEqual(expect.arrayContaining([ids.course(1), ids.course(4), otherCourse]));
    expect(courses).not.toContain(ids.course(seedCourses.draftByInstructor));
    expect(courses).not.toContain(ids.course(seedCourses.archivedByAdmin));
    expect(own.every((r) => r.done >= 1 && r.last_read !== null)).toBe(true);
    expect((await queryAs(db, personas.learner, FROM_FUNCTION, [secondLearner.id])).rows).toEqual([]);
  });

  it("shows an instructor only their own courses' figures and an admin every course", async () => {
    const byInstructor = (await queryAs<Activity>(db, personas.instructor, FROM_FUNCTION, [secondLearner.id])).rows;
    expect(byInstructor.map((r) => r.course_id).sort()).toEqual([ids.course(1), ids.course(seedCourses.draftByInstructor)].sort());
    const byOther = (await queryAs<Activity>(db, personas.otherInstructor, FROM_FUNCTION, [secondLearner.id])).rows;
    expect(byOther.map((r) => r.course_id)).toEqual([otherCourse]);
    const byAdmin = (await queryAs<Activity>(db, personas.admin, FROM_FUNCTION, [secondLearner.id])).rows;
    expect(byAdmin).toHaveLength(5);
  });

  it('cannot be called by a visitor', async () => {
    expect(await sqlState(() => queryAs(db, null, FROM_FUNCTION, [personas.learner.id]))).toBe('42501');
  });
});
