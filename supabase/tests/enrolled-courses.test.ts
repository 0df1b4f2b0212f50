// private.enrolled_courses (supabase/schemas/04_enrolment_and_progress.sql) gives, for each of a
// learner's enrolled courses, its details, its number of modules, the modules completed and the
// latest activity, with the rules of the user_module_progress, courses and course_modules policies
// stated in its own WHERE clause. Both ways, for every persona and two learners: it returns exactly what the same aggregate
// returns when it is read under row-level security, so it shows nobody a figure they could not
// count themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor, backends, createUser, ids, personas, queryAs, seedCourses, sqlState, type Persona, type TestDatabase,
} from './helpers/database';

const secondLearner: Persona = { id: '00000000-0000-4000-a000-0000000000bb', email: 'second.learner@example.uk' };

type Activity = { course_id: string; title: string; modules: number; done: number; last_read: unknown; last_completed: unknown };

/** The figures as the persona can count them under row-level security. */
const UNDER_RLS = `
  select e.course_id, c.title, c.description, c.service, c.duration,
         count(m.id)::integer as modules, (count(*) filter (where p.completed))::integer as done,
         max(p.read_at) as last_read, max(p.completed_at) as last_completed
  from public.enrollments e
  join public.courses c on c.id = e.course_id
  left join public.course_modules m on m.course_id = e.course_id
  left join public.user_module_progress p on p.user_id = e.user_id and p.module_id = m.id
  where e.user_id = $1
  group by e.course_id, c.title, c.description, c.service, c.duration
  order by e.course_id`;
const FROM_FUNCTION = `
  select course_id, title, description, service, duration, modules, done, last_read, last_completed
  from private.enrolled_courses($1) order by course_id`;

describe.each(backends)('private.enrolled_courses on $name', ({ create }) => {
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
    // Both learners are enrolled in published courses of each author, in a draft and in an archived
    // course (neither visible to learners), in a published course without progress and in one
    // without modules. They have progress in each of those with modules, and in one more course
    // they are not enrolled in: every other module completed, each read a day apart.
    const enrolled = [ids.course(1), ids.course(4), ids.course(seedCourses.draftByInstructor), ids.course(seedCourses.archivedByAdmin), otherCourse];
    const withProgress = [...enrolled, ids.course(6)];
    // An archived course takes no one new: they enrolled while it was published.
    const archived = ids.course(seedCourses.archivedByAdmin);
    await db.query(`update public.courses set status = 'ACTIVE' where id = $1`, [archived]);
    for (const learner of [personas.learner, secondLearner]) {
      await db.query(
        `insert into public.enrollments (user_id, course_id, status)
         select $1, c, 'ACTIVE' from unnest($2::uuid[]) c
         on conflict (user_id, course_id) do nothing`,
        [learner.id, [...enrolled, ids.course(5), ids.course(seedCourses.noModules)]],
      );
      await db.query(
        `insert into public.user_module_progress (user_id, module_id, read_at, completed, completed_at)
         select $1, m.id, now() - make_interval(days => row_number() over (order by m.id)::int),
                (row_number() over (order by m.id)) % 2 = 1,
                case when (row_number() over (order by m.id)) % 2 = 1 then now() - make_interval(hours => row_number() over (order by m.id)::int) end
         from public.course_modules m where m.course_id = any($2::uuid[])
         on conflict (user_id, module_id) do update set read_at = excluded.read_at, completed = excluded.completed, completed_at = excluded.completed_at`,
        [learner.id, withProgress],
      );
    }
    await db.query(`update public.courses set status = 'ARCHIVED' where id = $1`, [archived]);
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

  it('shows a learner their own enrolled courses they can see, and nothing of another learner', async () => {
    const own = (await queryAs<Activity>(db, personas.learner, FROM_FUNCTION, [personas.learner.id])).rows;
    const byCourse = new Map(own.map((r) => [r.course_id, r]));
    expect([...byCourse.keys()]).toEqual(
      expect.arrayContaining([ids.course(1), ids.course(4), ids.course(5), ids.course(seedCourses.noModules), otherCourse]),
    );
    for (const hidden of [seedCourses.draftByInstructor, seedCourses.archivedByAdmin, 6]) {
      expect(byCourse.has(ids.course(hidden)), `course ${hidden}`).toBe(false);
    }
    expect(byCourse.get(ids.course(1))).toMatchObject({ modules: 4, done: 2 });
    expect(byCourse.get(otherCourse)).toMatchObject({ title: 'Activity course', modules: 3 });
    expect(byCourse.get(ids.course(seedCourses.noModules))).toMatchObject({ modules: 0, done: 0, last_read: null });
    expect(byCourse.get(otherCourse)!.last_read).not.toBeNull();
    expect(byCourse.get(ids.course(5))).toMatchObject({ modules: 3, done: 0, last_read: null, last_completed: null });
    expect((await queryAs(db, personas.learner, FROM_FUNCTION, [secondLearner.id])).rows).toEqual([]);
  });

  it("shows an instructor only their own courses and an admin every enrolled course", async () => {
    const byInstructor = (await queryAs<Activity>(db, personas.instructor, FROM_FUNCTION, [secondLearner.id])).rows;
    expect(byInstructor.map((r) => r.course_id).sort()).toEqual(
      [1, seedCourses.noModules, seedCourses.draftByInstructor].map(ids.course).sort(),
    );
    const byOther = (await queryAs<Activity>(db, personas.otherInstructor, FROM_FUNCTION, [secondLearner.id])).rows;
    expect(byOther.map((r) => r.course_id)).toEqual([otherCourse]);
    const byAdmin = (await queryAs<Activity>(db, personas.admin, FROM_FUNCTION, [secondLearner.id])).rows;
    expect(byAdmin.map((r) => r.course_id).sort()).toEqual(
      [1, 4, 5, seedCourses.noModules, seedCourses.draftByInstructor, seedCourses.archivedByAdmin].map(ids.course).concat(otherCourse).sort(),
    );
  });

  it('cannot be called by a visitor', async () => {
    expect(await sqlState(() => queryAs(db, null, FROM_FUNCTION, [personas.learner.id]))).toBe('42501');
  });
});
