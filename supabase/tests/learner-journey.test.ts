// Timed quizzes (supabase/schemas/03_quizzes.sql): private.start_quiz_attempt records when a
// learner opens a quiz, private.finish_quiz_attempt scores it and refuses answers after the time
// limit plus grace. Both are the learner's only way to write an attempt; proven both ways per persona.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, backends, createUser, ids, personas, queryAs, sqlState, type TestDatabase } from './helpers/database';

const { learner, instructor } = personas;
const visitor = null;
const timed = { id: '00000000-0000-4000-a000-0000000000d1', email: 'timed@example.uk' };
const outsider = { id: '00000000-0000-4000-a000-0000000000d2', email: 'outsider@example.uk' };
const quizId = ids.quiz(1, 2);
const right = JSON.stringify({ [ids.question(1, 2, 1)]: [0], [ids.question(1, 2, 2)]: [1], [ids.question(1, 2, 3)]: [0] });

interface Attempt {
  id: string;
  started_at: Date | string;
  completed_at: Date | string | null;
  score: number;
  passed: boolean;
}

describe.each(backends)('learner journey SQL on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await createUser(db, { id: timed.id, email: timed.email, username: 'timed', name: 'Tim Timed' });
    await createUser(db, { id: outsider.id, email: outsider.email, username: 'outsider', name: 'Oscar Outsider' });
    await db.query(`insert into public.enrollments (user_id, course_id) values ($1, $2)`, [timed.id, ids.course(1)]);
  });
  afterAll(async () => {
    await db?.close();
  });

  const start = (persona: typeof timed | null) =>
    queryAs<Attempt>(db, persona, 'select * from private.start_quiz_attempt($1)', [quizId]);
  const finish = (persona: typeof timed | null, answers = right) =>
    queryAs<Attempt>(db, persona, 'select * from private.finish_quiz_attempt($1, ($2::text)::jsonb, 30)', [quizId, answers]);
  const openAttempts = async (userId: string) =>
    (await db.query<Attempt>('select * from public.quiz_attempts where user_id = $1 and completed_at is null', [userId])).rows;

  it('refuses a visitor (no execute) and a learner who is not enrolled', async () => {
    expect(await sqlState(() => start(visitor))).toBe('42501');
    expect(await sqlState(() => finish(visitor))).toBe('42501');
    expect(await sqlState(() => start(outsider))).toBe('42501');
    expect(await sqlState(() => finish(outsider))).toBe('42501');
    expect(await openAttempts(outsider.id)).toHaveLength(0);
  });

  it('starts one running attempt for an enrolled learner and keeps it while within the time limit', async () => {
    const first = (await start(timed)).rows[0];
    expect(first.completed_at).toBeNull();
    const again = (await start(timed)).rows[0];
    expect(again.id).toBe(first.id);
    expect(new Date(again.started_at).getTime()).toBe(new Date(first.started_at).getTime());
    expect(await openAttempts(timed.id)).toHaveLength(1);
  });

  it('the running attempt is the learner\'s own: hidden from other learners, not writable directly', async () => {
    const [open] = await openAttempts(timed.id);
    expect((await queryAs(db, timed, 'select id from public.quiz_attempts where id = $1', [open.id])).rows).toHaveLength(1);
    expect((await queryAs(db, outsider, 'select id from public.quiz_attempts where id = $1', [open.id])).rows).toHaveLength(0);
    expect((await queryAs(db, instructor, 'select id from public.quiz_attempts where id = $1', [open.id])).rows).toHaveLength(1);
    expect(await sqlState(() => queryAs(db, timed, 'update public.quiz_attempts set started_at = now() where id = $1', [open.id]))).toBe('42501');
    expect(await sqlState(() => queryAs(db, timed, 'insert into public.quiz_attempts (user_id, quiz_id) values ($1, $2)', [timed.id, quizId]))).toBe('42501');
  });

  it('refuses answers after the limit plus grace (22023, hint quiz_time_up), and restarts on the next start', async () => {
    await db.query(`update public.quiz_attempts set started_at = now() - interval '10 minutes 31 seconds'
                    where user_id = $1 and completed_at is null`, [timed.id]);
    let hint: string | undefined;
    const state = await sqlState(async () => {
      try {
        await finish(timed);
      } catch (error) {
        hint = (error as { hint?: string }).hint;
        throw error;
      }
    });
    expect(state).toBe('22023');
    expect(hint).toBe('quiz_time_up');
    expect((await db.query('select 1 from public.quiz_attempts where user_id = $1 and completed_at is not null', [timed.id])).rows).toHaveLength(0);
    const restarted = (await start(timed)).rows[0];
    expect(Date.now() - new Date(restarted.started_at).getTime()).toBeLessThan(60_000);
    expect(await openAttempts(timed.id)).toHaveLength(1);
  });

  it('scores in time: the running attempt becomes the scored one, keeping its start', async () => {
    await db.query(`update public.quiz_attempts set started_at = now() - interval '10 minutes 20 seconds'
                    where user_id = $1 and completed_at is null`, [timed.id]);
    const [open] = await openAttempts(timed.id);
    const scored = (await finish(timed)).rows[0];
    expect(scored.passed).toBe(true);
    expect(scored.score).toBe(3);
    expect(new Date(scored.started_at).getTime()).toBe(new Date(open.started_at).getTime());
    expect(await openAttempts(timed.id)).toHaveLength(0);
    const progress = await queryAs<{ quiz_passed: boolean }>(db, timed, 'select quiz_passed from public.user_module_progress where module_id = $1', [ids.module(1, 2)]);
    expect(progress.rows[0].quiz_passed).toBe(true);
  });

  it('a quiz, timed or not, cannot be submitted without being opened (so a duplicate submission scores nothing)', async () => {
    let hint: string | undefined;
    expect(await sqlState(async () => {
      try {
        await finish(timed);
      } catch (error) {
        hint = (error as { hint?: string }).hint;
        throw error;
      }
    })).toBe('22023');
    expect(hint).toBe('quiz_not_started');
    await db.query('update public.quizzes set time_limit = null where id = $1', [quizId]);
    try {
      expect(await sqlState(() => finish(timed))).toBe('22023');
      await start(timed);
      expect((await finish(timed)).rows[0].passed).toBe(true);
      expect(await sqlState(() => finish(timed))).toBe('22023');
    } finally {
      await db.query('update public.quizzes set time_limit = 10 where id = $1', [quizId]);
    }
  });

  it('the catalogue order has its index', async () => {
    const r = await db.query(`select 1 from pg_indexes where schemaname = 'public' and indexname = 'courses_featured_created_at_idx'`);
    expect(r.rows).toHaveLength(1);
    // The seeded learner still reads only their own attempts (unchanged policy).
    await asUser(db, learner, async (tx) => {
      const own = await tx.query<{ user_id: string }>('select user_id from public.quiz_attempts');
      expect(own.rows.every((row) => row.user_id === learner.id)).toBe(true);
    });
  });
});
