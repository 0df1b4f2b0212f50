// The CPD record (supabase/schemas/08_cpd.sql) under each persona's RLS: CPD entries
// (the learner does everything with their own, admins read all and change nothing, instructors and
// other learners see nothing, visitors reach nothing), the table's checks (quarter hours, lengths,
// no future date) and private.learning_record (every certificate with hours, score per cycle,
// state; only for the learner themselves or an admin).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
  backends,
  createUser,
  ids,
  type Persona,
  personas,
  type Queryable,
  queryAs,
  rolledBack,
  sqlState,
  type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner } = personas;
const visitor = null;
const otherLearner: Persona = { id: '00000000-0000-4000-a000-0000000000cc', email: 'other.learner@example.uk' };

const insertEntry = `insert into public.cpd_entries (activity_date, activity, hours, learnt, reflection)
                     values ($1::date, $2, $3, $4, $5) returning id, user_id`;
const londonToday = `(now() at time zone 'Europe/London')::date`;

/** Runs fn as the superuser inside a persona's rolled-back transaction, then returns to the persona. */
async function asOwner<R>(tx: Queryable, fn: () => Promise<R>): Promise<R> {
  await tx.query('reset role');
  const result = await fn();
  await tx.query('set local role authenticated');
  return result;
}

interface RecordRow {
  certificate_id: string;
  course_id: string | null;
  course_title: string;
  service: string | null;
  cycle: number;
  hours: number | null;
  score: number | null;
  verification_code: string;
  state: string;
}

describe.each(backends)('CPD records on $name', ({ create }) => {
  let db: TestDatabase;
  const learnerEntry = '80000000-0000-4000-a000-000000000001';
  const otherEntry = '80000000-0000-4000-a000-000000000002';

  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
    await createUser(db, { id: otherLearner.id, email: otherLearner.email, username: 'other_learner', name: 'Olu Other' });
    // One entry each, written as the owners would (through their own RLS).
    for (const [persona, id] of [[learner, learnerEntry], [otherLearner, otherEntry]] as const) {
      const r = await queryAs<{ id: string }>(db, persona, insertEntry, ['2026-01-15', 'Trauma study day', 6.5, 'Catastrophic haemorrhage control', 'Use the tourniquet sooner']);
      await db.query('update public.cpd_entries set id = $1 where id = $2', [id, r.rows[0].id]);
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('CPD entries: who may do what', () => {
    const all = 'select id, user_id from public.cpd_entries order by id';

    it('a learner adds an entry, always as themselves', async () => {
      const r = await rolledBack(db, learner, (tx) => tx.query<{ user_id: string }>(insertEntry, ['2026-02-01', 'Read JRCALC update', 1.25, 'New sepsis guidance', '']));
      expect(r.rows[0].user_id).toBe(learner.id);
      // The owner column is not theirs to write: not even naming themselves.
      const forged = `insert into public.cpd_entries (user_id, activity_date, activity, hours, learnt) values ($1, '2026-02-01', 'Forged entry', 1, 'x')`;
      expect(await sqlState(() => queryAs(db, learner, forged, [otherLearner.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, forged, [learner.id]))).toBe('42501');
    });

    it('a learner reads only their own entries; another learner only theirs', async () => {
      expect((await queryAs(db, learner, all)).rows).toEqual([{ id: learnerEntry, user_id: learner.id }]);
      expect((await queryAs(db, otherLearner, all)).rows).toEqual([{ id: otherEntry, user_id: otherLearner.id }]);
    });

    it('an admin reads everyone\'s entries', async () => {
      expect((await queryAs(db, admin, all)).rows).toEqual([
        { id: learnerEntry, user_id: learner.id },
        { id: otherEntry, user_id: otherLearner.id },
      ]);
    });

    it('an instructor sees nothing, not even of the learners on their courses', async () => {
      // The seeded student is enrolled on the instructor's courses.
      const enrolled = await queryAs(db, instructor, 'select 1 from public.enrollments where user_id = $1', [learner.id]);
      expect(enrolled.rows.length).toBeGreaterThan(0);
      expect((await queryAs(db, instructor, all)).rows).toEqual([]);
      expect((await rolledBack(db, instructor, (tx) => tx.query('update public.cpd_entries set activity = $1 returning id', ['Changed by instructor']))).rows).toEqual([]);
      expect((await rolledBack(db, instructor, (tx) => tx.query('delete from public.cpd_entries returning id'))).rows).toEqual([]);
    });

    it('a visitor can neither read nor write entries', async () => {
      expect(await sqlState(() => queryAs(db, visitor, all))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, insertEntry, ['2026-02-01', 'Visitor entry', 1, 'x', '']))).toBe('42501');
    });

    it('a learner changes their own entry, not another\'s, and never its owner or timestamps', async () => {
      const update = 'update public.cpd_entries set activity = $2, hours = $3 where id = $1 returning activity, hours::float8 as hours';
      const mine = await rolledBack(db, learner, (tx) => tx.query(update, [learnerEntry, 'Trauma study day (revised)', 7]));
      expect(mine.rows).toEqual([{ activity: 'Trauma study day (revised)', hours: 7 }]);
      expect((await rolledBack(db, learner, (tx) => tx.query(update, [otherEntry, 'Hijacked', 1]))).rows).toEqual([]);
      expect(await sqlState(() => queryAs(db, learner, 'update public.cpd_entries set user_id = $2 where id = $1', [learnerEntry, otherLearner.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, learner, `update public.cpd_entries set created_at = now() - interval '1 year' where id = $1`, [learnerEntry]))).toBe('42501');
    });

    it('an update stamps updated_at', async () => {
      const r = await rolledBack(db, learner, async (tx) => {
        await asOwner(tx, () => tx.query(`update public.cpd_entries set updated_at = now() - interval '1 day' where id = $1`, [learnerEntry]));
        return tx.query<{ fresh: boolean }>(`update public.cpd_entries set learnt = 'More' where id = $1 returning updated_at >= now() - interval '1 minute' as fresh`, [learnerEntry]);
      });
      expect(r.rows).toEqual([{ fresh: true }]);
    });

    it('a learner deletes their own entry, not another\'s', async () => {
      const remove = 'delete from public.cpd_entries where id = $1 returning id';
      expect((await rolledBack(db, learner, (tx) => tx.query(remove, [learnerEntry]))).rows).toEqual([{ id: learnerEntry }]);
      expect((await rolledBack(db, learner, (tx) => tx.query(remove, [otherEntry]))).rows).toEqual([]);
    });

    it('an admin changes and deletes no one\'s entry (read-only for audits)', async () => {
      expect((await rolledBack(db, admin, (tx) => tx.query('update public.cpd_entries set activity = $2 where id = $1 returning id', [learnerEntry, 'Admin edit']))).rows).toEqual([]);
      expect((await rolledBack(db, admin, (tx) => tx.query('delete from public.cpd_entries where id = $1 returning id', [learnerEntry]))).rows).toEqual([]);
      expect((await db.query('select activity from public.cpd_entries where id = $1', [learnerEntry])).rows).toEqual([{ activity: 'Trauma study day' }]);
    });

    it('entries go with the learner when the user is deleted', async () => {
      const r = await rolledBack(db, null, async (tx) => {
        await tx.query('reset role');
        await tx.query('delete from auth.users where id = $1', [otherLearner.id]);
        return tx.query('select id from public.cpd_entries where id = $1', [otherEntry]);
      });
      expect(r.rows).toEqual([]);
    });
  });

  describe('CPD entries: the checks', () => {
    const attempt = (values: [string, string, number | string, string, string]) =>
      sqlState(() => rolledBack(db, learner, (tx) => tx.query(insertEntry, values)));

    it('hours are quarter hours from 0.25 to 1000', async () => {
      expect(await attempt(['2026-01-02', 'Quarter hour', 0.25, 'x', ''])).toBeNull();
      expect(await attempt(['2026-01-02', 'A thousand hours', 1000, 'x', ''])).toBeNull();
      expect(await attempt(['2026-01-02', 'Odd minutes', 0.3, 'x', ''])).toBe('23514');
      expect(await attempt(['2026-01-02', 'Nothing', 0, 'x', ''])).toBe('23514');
      expect(await attempt(['2026-01-02', 'Negative', -1, 'x', ''])).toBe('23514');
      expect(await attempt(['2026-01-02', 'Too long', 1000.25, 'x', ''])).toBe('23514');
    });

    it('activity 3 to 200 characters, learnt required up to 5000, reflection up to 5000', async () => {
      expect(await attempt(['2026-01-02', 'ab', 1, 'x', ''])).toBe('23514');
      expect(await attempt(['2026-01-02', '   abc   ', 1, 'x', ''])).toBeNull();
      expect(await attempt(['2026-01-02', 'a'.repeat(201), 1, 'x', ''])).toBe('23514');
      expect(await attempt(['2026-01-02', 'Learnt nothing', 1, '   ', ''])).toBe('23514');
      expect(await attempt(['2026-01-02', 'Learnt a lot', 1, 'l'.repeat(5000), 'r'.repeat(5000)])).toBeNull();
      expect(await attempt(['2026-01-02', 'Learnt too much', 1, 'l'.repeat(5001), ''])).toBe('23514');
      expect(await attempt(['2026-01-02', 'Reflected too much', 1, 'x', 'r'.repeat(5001)])).toBe('23514');
    });

    it('the date may be today in London but not tomorrow, nor before 1950', async () => {
      const [{ today, tomorrow }] = (await db.query<{ today: string; tomorrow: string }>(
        `select ${londonToday}::text as today, (${londonToday} + 1)::text as tomorrow`,
      )).rows;
      expect(await attempt([today, 'Today', 1, 'x', ''])).toBeNull();
      expect(await attempt([tomorrow, 'Tomorrow', 1, 'x', ''])).toBe('23514');
      expect(await attempt(['1949-12-31', 'Long ago', 1, 'x', ''])).toBe('23514');
      // Moving an existing entry into the future is refused too.
      expect(await sqlState(() => rolledBack(db, learner, (tx) =>
        tx.query('update public.cpd_entries set activity_date = $2::date where id = $1', [learnerEntry, tomorrow])))).toBe('23514');
    });

    it('the learner\'s entries are found by an index led by user_id and date', async () => {
      const r = await db.query<{ indexdef: string }>(`select indexdef from pg_indexes where schemaname = 'public' and tablename = 'cpd_entries'`);
      expect(r.rows.some((i) => /\(user_id, activity_date DESC\)/.test(i.indexdef))).toBe(true);
    });
  });

  describe('private.learning_record', () => {
    const record = 'select * from private.learning_record($1)';
    const airwaveQuiz = ids.quiz(3, 3);
    const jesipQuiz = ids.quiz(1, 2);

    it('shows the seeded student\'s completed Airwave course: 2 hours, UKPS, 100 %, the code, valid', async () => {
      const r = await queryAs<RecordRow>(db, learner, record, [learner.id]);
      expect(r.rows).toEqual([
        expect.objectContaining({
          certificate_id: ids.certificate, course_id: ids.course(3), course_title: 'Airwave Radio Voice Procedure',
          service: 'UKPS', cycle: 1, hours: 2, score: 100, verification_code: 'DEMO2026CERT0001', state: 'valid',
        }),
      ]);
    });

    it('answers an admin for anyone; refuses instructors, other learners and visitors', async () => {
      expect((await queryAs<RecordRow>(db, admin, record, [learner.id])).rows.map((r) => r.certificate_id)).toEqual([ids.certificate]);
      expect(await sqlState(() => queryAs(db, instructor, record, [learner.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, otherLearner, record, [learner.id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, record, [learner.id]))).toBe('42501');
      expect((await queryAs(db, otherLearner, record, [otherLearner.id])).rows).toEqual([]);
    });

    it('lists every cycle with the score of its own period and its state (expired, revoked)', async () => {
      const r = await rolledBack(db, learner, async (tx) => {
        await asOwner(tx, async () => {
          // Cycle 1 (seed, issued 15 days ago) expired; cycle 2 issued a day ago with a 2/3 pass three days
          // ago, then revoked; a 3/3 pass after cycle 2 was issued belongs to neither.
          await tx.query(`update public.certificates set expires_at = issued_at + interval '7 days' where id = $1`, [ids.certificate]);
          await tx.query(
            `insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, started_at, completed_at) values
               ($1, $2, 1, 3, false, now() - interval '4 days', now() - interval '4 days'),
               ($1, $2, 2, 3, true, now() - interval '3 days', now() - interval '3 days'),
               ($1, $2, 3, 3, true, now(), now())`,
            [learner.id, airwaveQuiz],
          );
          await tx.query(
            `insert into public.certificates (user_id, course_id, cycle, learner_name, course_title, service, issued_at, expires_at,
                                              revoked_at, revoked_reason)
             values ($1, $2, 2, 'Sam Patel', 'Airwave Radio Voice Procedure', 'UKPS', now() - interval '1 day',
                     now() + interval '1 year', now(), 'Issued in error')`,
            [learner.id, ids.course(3)],
          );
        });
        return tx.query<RecordRow>(record, [learner.id]);
      });
      expect(r.rows.map((row) => [row.cycle, row.score, row.state, row.hours])).toEqual([
        [2, 67, 'revoked', 2],
        [1, 100, 'expired', 2],
      ]);
    });

    it('a course with several quizzes scores the mean of their best passes; one without a quiz has no score', async () => {
      const r = await rolledBack(db, learner, async (tx) => {
        await asOwner(tx, async () => {
          // JESIP (4 hours): its module-2 quiz passed at 100 % (seed, 9 days ago) and 67 %; a second quiz on module 4
          // passed at 50 %: mean of 100 and 50 is 75. Data Protection (course 14, 1 hour) has no modules.
          await tx.query(`insert into public.quizzes (id, module_id, title, passing_score) values ('30000000-0000-4000-a000-0000ffff0004', $1, 'Extra quiz', 50)`, [ids.module(1, 4)]);
          await tx.query(
            `insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, started_at, completed_at) values
               ($1, $2, 2, 3, true, now() - interval '8 days', now() - interval '8 days'),
               ($1, '30000000-0000-4000-a000-0000ffff0004', 1, 2, true, now() - interval '2 days', now() - interval '2 days')`,
            [learner.id, jesipQuiz],
          );
          await tx.query(
            `insert into public.certificates (user_id, course_id, learner_name, course_title, service, issued_at)
             values ($1, $2, 'Sam Patel', 'JESIP Joint Doctrine', 'UKPS', now() - interval '1 day'),
                    ($1, $3, 'Sam Patel', 'Data Protection and UK GDPR Essentials', 'MISC', now() - interval '2 hours')`,
            [learner.id, ids.course(1), ids.course(14)],
          );
        });
        return tx.query<RecordRow>(record, [learner.id]);
      });
      expect(r.rows.map((row) => [row.course_id, row.hours, row.score])).toEqual([
        [ids.course(14), 1, null],
        [ids.course(1), 4, 75],
        [ids.course(3), 2, 100],
      ]);
    });

    it('an archived course keeps its hours and score for the learner; an erased one keeps the snapshot without hours', async () => {
      const archived = await rolledBack(db, learner, async (tx) => {
        await asOwner(tx, () => tx.query(`update public.courses set status = 'ARCHIVED' where id = $1`, [ids.course(3)]));
        const visible = await tx.query('select id from public.courses where id = $1', [ids.course(3)]);
        return { visible: visible.rows.length, rows: (await tx.query<RecordRow>(record, [learner.id])).rows };
      });
      expect(archived.visible).toBe(0);
      expect(archived.rows.map((row) => [row.hours, row.score])).toEqual([[2, 100]]);

      const deleted = await rolledBack(db, learner, async (tx) => {
        // A course with learner records is never deleted; only the owner's deliberate erasure removes it.
        await asOwner(tx, () => tx.query('select private.erase_course($1)', [ids.course(3)]));
        return (await tx.query<RecordRow>(record, [learner.id])).rows;
      });
      expect(deleted.map((row) => [row.course_id, row.course_title, row.service, row.hours, row.score])).toEqual([
        [null, 'Airwave Radio Voice Procedure', 'UKPS', null, null],
      ]);
    });
  });
});
