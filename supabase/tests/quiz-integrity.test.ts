// Quiz integrity (supabase/schemas/03_quizzes.sql): per-quiz settings for when the
// correct answers are shown, the maximum number of attempts and the wait between attempts, enforced
// by the database for a learner calling it directly: the review hides the answers unless the setting
// allows, starting or scoring beyond the maximum or within the wait is refused (55000 with a hint),
// and the learner cannot read the answers from quiz_questions nor change the settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, ids, personas, queryAs, sqlState, type TestDatabase } from './helpers/database';

const { instructor } = personas;
const quizId = ids.quiz(1, 2);
const [q1, q2, q3] = [ids.question(1, 2, 1), ids.question(1, 2, 2), ids.question(1, 2, 3)];
const right = JSON.stringify({ [q1]: [0], [q2]: [1], [q3]: [0] });
const wrong = JSON.stringify({ [q1]: [1], [q2]: [0], [q3]: [1] });

const learners = {
  never: { id: '00000000-0000-4000-a000-0000000000e1', email: 'integrity.never@example.uk' },
  passing: { id: '00000000-0000-4000-a000-0000000000e2', email: 'integrity.passing@example.uk' },
  always: { id: '00000000-0000-4000-a000-0000000000e3', email: 'integrity.always@example.uk' },
  limited: { id: '00000000-0000-4000-a000-0000000000e4', email: 'integrity.limited@example.uk' },
  waiting: { id: '00000000-0000-4000-a000-0000000000e5', email: 'integrity.waiting@example.uk' },
  cycling: { id: '00000000-0000-4000-a000-0000000000e6', email: 'integrity.cycling@example.uk' },
};
type Learner = (typeof learners)[keyof typeof learners];

interface Review {
  question_id: string;
  correct_answers: number[] | null;
  options: { text: string; isCorrect?: boolean }[];
  explanation: string | null;
  answers_shown: boolean;
}
interface Status {
  attempts_used: number;
  max_attempts: number | null;
  attempts_remaining: number | null;
  next_attempt_at: Date | string | null;
}

/** The SQLSTATE and hint of the error fn raises. */
async function refusal(fn: () => Promise<unknown>): Promise<{ code: string | null; hint?: string }> {
  let hint: string | undefined;
  const code = await sqlState(async () => {
    try {
      await fn();
    } catch (error) {
      hint = (error as { hint?: string }).hint;
      throw error;
    }
  });
  return { code, hint };
}

describe.each(backends)('quiz integrity on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    for (const [key, l] of Object.entries(learners)) {
      await createUser(db, { id: l.id, email: l.email, username: `integrity_${key}`, name: `Ida ${key}` });
      await db.query(`insert into public.enrollments (user_id, course_id) values ($1, $2)`, [l.id, ids.course(1)]);
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  const settings = (show: string, max: number | null, wait: number) =>
    db.query(`update public.quizzes set show_correct_answers = $2, max_attempts = $3, retry_wait_minutes = $4 where id = $1`,
      [quizId, show, max, wait]);
  const start = (l: Learner) => queryAs<{ id: string }>(db, l, 'select * from private.start_quiz_attempt($1)', [quizId]);
  const finish = (l: Learner, answers: string) =>
    queryAs<{ id: string; passed: boolean }>(db, l, 'select * from private.finish_quiz_attempt($1, ($2::text)::jsonb, 30)', [quizId, answers]);
  const attempt = async (l: Learner, answers: string) => {
    await start(l);
    return (await finish(l, answers)).rows[0];
  };
  const review = async (l: Learner, attemptId: string) =>
    (await queryAs<Review>(db, l, 'select * from private.quiz_attempt_review($1)', [attemptId])).rows;
  const status = async (l: Learner) => (await queryAs<Status>(db, l, 'select * from private.quiz_attempt_status($1)', [quizId])).rows[0];

  it('existing quizzes take the safe defaults: answers after passing, unlimited attempts, no wait', async () => {
    const { rows } = await db.query(`select show_correct_answers, max_attempts, retry_wait_minutes from public.quizzes where id = $1`, [quizId]);
    expect(rows).toEqual([{ show_correct_answers: 'AFTER_PASSING', max_attempts: null, retry_wait_minutes: 0 }]);
  });

  it('a learner cannot read the answers from quiz_questions directly', async () => {
    const direct = await queryAs(db, learners.never, 'select correct_answers, options from public.quiz_questions where quiz_id = $1', [quizId]);
    expect(direct.rows).toHaveLength(0);
    const view = await queryAs<Record<string, unknown>>(db, learners.never, 'select * from private.quiz_questions_for_learner($1)', [quizId]);
    expect(JSON.stringify(view.rows)).not.toContain('isCorrect');
  });

  it('NEVER: the review of a failed and of a passed attempt holds no correct answer, mark or explanation', async () => {
    await settings('NEVER', null, 0);
    for (const answers of [wrong, right]) {
      const scored = await attempt(learners.never, answers);
      const rows = await review(learners.never, scored.id);
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        expect(row.answers_shown).toBe(false);
        expect(row.correct_answers).toBeNull();
        expect(row.explanation).toBeNull();
        expect(row.options.every((o) => Object.keys(o).join() === 'text')).toBe(true);
      }
    }
  });

  it('AFTER_PASSING (default): hidden after a failed attempt, shown after a passed one', async () => {
    await settings('AFTER_PASSING', null, 0);
    const failed = await attempt(learners.passing, wrong);
    expect(failed.passed).toBe(false);
    expect((await review(learners.passing, failed.id)).every((r) => r.correct_answers === null && !r.answers_shown)).toBe(true);
    const passed = await attempt(learners.passing, right);
    expect(passed.passed).toBe(true);
    const rows = await review(learners.passing, passed.id);
    expect(rows.every((r) => r.answers_shown)).toBe(true);
    expect(rows.map((r) => r.correct_answers)).toEqual([[0], [1], [0]]);
    expect(rows[0].options.some((o) => o.isCorrect === true)).toBe(true);
  });

  it('ALWAYS: a failed attempt\'s review carries the correct answers', async () => {
    await settings('ALWAYS', null, 0);
    const failed = await attempt(learners.always, wrong);
    const rows = await review(learners.always, failed.id);
    expect(rows.map((r) => r.correct_answers)).toEqual([[0], [1], [0]]);
  });

  it('the maximum: a third start and a third scoring are refused (55000 quiz_no_attempts_left)', async () => {
    await settings('NEVER', 2, 0);
    expect(await status(learners.limited)).toMatchObject({ attempts_used: 0, max_attempts: 2, attempts_remaining: 2, next_attempt_at: null });
    await attempt(learners.limited, wrong);
    expect(await status(learners.limited)).toMatchObject({ attempts_used: 1, attempts_remaining: 1 });
    await attempt(learners.limited, wrong);
    expect(await status(learners.limited)).toMatchObject({ attempts_used: 2, attempts_remaining: 0, next_attempt_at: null });
    expect(await refusal(() => start(learners.limited))).toEqual({ code: '55000', hint: 'quiz_no_attempts_left' });
    // An attempt opened before the maximum was reached (a race, or the setting lowered) is not scored either.
    await db.query(`insert into public.quiz_attempts (user_id, quiz_id) values ($1, $2)`, [learners.limited.id, quizId]);
    expect(await refusal(() => finish(learners.limited, right))).toEqual({ code: '55000', hint: 'quiz_no_attempts_left' });
    const scored = await db.query(`select count(*)::int as n from public.quiz_attempts where user_id = $1 and completed_at is not null`, [learners.limited.id]);
    expect(scored.rows[0]).toEqual({ n: 2 });
    // Raising the maximum gives the learner another attempt.
    await settings('NEVER', 3, 0);
    expect((await finish(learners.limited, right)).rows[0].passed).toBe(true);
  });

  it('the wait: no start until it has passed (55000 quiz_retry_wait), nor scoring an attempt opened within it', async () => {
    await settings('NEVER', null, 60);
    await attempt(learners.waiting, wrong);
    const waiting = await status(learners.waiting);
    const next = new Date(waiting.next_attempt_at as string).getTime();
    expect(next - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(next - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    expect(await refusal(() => start(learners.waiting))).toEqual({ code: '55000', hint: 'quiz_retry_wait' });
    // A running attempt written within the wait (not through start) is not scored.
    await db.query(`insert into public.quiz_attempts (user_id, quiz_id) values ($1, $2)`, [learners.waiting.id, quizId]);
    expect(await refusal(() => finish(learners.waiting, right))).toEqual({ code: '55000', hint: 'quiz_retry_wait' });
    // An hour later the learner may start again; the attempt that began within the wait is still not
    // scored, but the next start restarts it (so the learner is never stuck with it).
    await db.query(`update public.quiz_attempts set started_at = started_at - interval '61 minutes', completed_at = completed_at - interval '61 minutes'
                    where user_id = $1`, [learners.waiting.id]);
    expect((await status(learners.waiting)).next_attempt_at).toBeNull();
    expect(await refusal(() => finish(learners.waiting, right))).toEqual({ code: '55000', hint: 'quiz_retry_wait' });
    const [stale] = (await db.query<{ id: string }>(`select id from public.quiz_attempts where user_id = $1 and completed_at is null`, [learners.waiting.id])).rows;
    const restarted = (await queryAs<{ id: string; started_at: Date | string }>(db, learners.waiting, 'select * from private.start_quiz_attempt($1)', [quizId])).rows[0];
    expect(restarted.id).toBe(stale.id);
    expect(Date.now() - new Date(restarted.started_at).getTime()).toBeLessThan(60_000);
    expect((await finish(learners.waiting, right)).rows[0].passed).toBe(true);
    expect(await refusal(() => finish(learners.waiting, right))).toEqual({ code: '55000', hint: 'quiz_retry_wait' });
  });

  it('a recertification cycle starts the count again', async () => {
    await settings('NEVER', 1, 0);
    await attempt(learners.cycling, wrong);
    expect(await refusal(() => start(learners.cycling))).toEqual({ code: '55000', hint: 'quiz_no_attempts_left' });
    await db.query(`update public.enrollments set cycle = 2, started_at = now() + interval '1 second' where user_id = $1 and course_id = $2`,
      [learners.cycling.id, ids.course(1)]);
    expect(await status(learners.cycling)).toMatchObject({ attempts_used: 0, attempts_remaining: 1 });
    await start(learners.cycling);
  });

  it('learners cannot change the settings; the author can, within range', async () => {
    await settings('NEVER', 2, 30);
    const byLearner = await queryAs(db, learners.limited, `update public.quizzes set max_attempts = null, retry_wait_minutes = 0, show_correct_answers = 'ALWAYS' where id = $1 returning id`, [quizId]);
    expect(byLearner.rows).toHaveLength(0);
    const row = await db.query<{ max_attempts: number }>(`select max_attempts from public.quizzes where id = $1`, [quizId]);
    expect(row.rows[0].max_attempts).not.toBeNull();
    const byAuthor = await queryAs(db, instructor, `update public.quizzes set max_attempts = 5, retry_wait_minutes = 120, show_correct_answers = 'ALWAYS' where id = $1 returning id`, [quizId]);
    expect(byAuthor.rows).toHaveLength(1);
    for (const bad of [`max_attempts = 0`, `max_attempts = 101`, `retry_wait_minutes = -1`, `retry_wait_minutes = 43201`, `show_correct_answers = 'SOMETIMES'`]) {
      expect(await sqlState(() => queryAs(db, instructor, `update public.quizzes set ${bad} where id = $1`, [quizId]))).toBe('23514');
    }
  });
});
