// A module's quiz: the learner's copy (GET /api/modules/:id/quiz, no answers: opening it starts an
// attempt) and the author's writes (PUT and DELETE /api/modules/:id/quiz). The author's copy with
// answers is read by ../quizzes/queries.ts readQuizOfModule.
import type { LearnerQuiz, AnswerDisplay } from '../../../_shared/quiz.ts';
import type { quizSchema } from '../../../_shared/authoring.ts';
import type { z } from 'zod';
import type { Tx } from '../../lib/db.ts';
import type { Caller } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { guarded } from '../../lib/authoring.ts';
import { access, AttemptFailed, iso, MSG, quizAttempts, refusal, type Row, toLearnerQuestion } from '../../lib/learning.ts';

/** Opens the module's quiz for the caller: starts (or resumes) an attempt and serves its questions.
 * A start the database refuses throws AttemptFailed. */
export async function openLearnerQuiz(tx: Tx, caller: Caller, id: string): Promise<LearnerQuiz | ApiError> {
  // The quiz and the rights on its course in one pipeline.
  const [[quiz], rights] = await Promise.all([
    tx<Row[]>`
      select q.id, q.module_id, m.course_id, q.title, q.description, q.title_cy, q.description_cy, q.passing_score, q.time_limit,
             q.randomize_questions, q.show_correct_answers
      from public.course_modules m
      left join public.quizzes q on q.module_id = m.id
      where m.id = ${id}::uuid`,
    access(tx, { ofModule: id }),
  ]);
  if (!quiz) return new ApiError(404, MSG.moduleNotFound);
  if (!rights.visible) return new ApiError(404, MSG.moduleNotFound);
  if (!quiz.id) return new ApiError(404, MSG.quizNotFound);
  if (caller.kind !== 'user' || !rights.studiable) return refusal(caller, rights.enrollmentStatus, 'quiz');
  const quizId = String(quiz.id);
  // The attempt first: beyond the quiz's maximum or within its wait nothing (no question) is served
  // (the refusal is thrown out of the transaction: see AttemptFailed).
  const [attempt] = await tx<Row[]>`select a.id, a.started_at, now() as server_now from private.start_quiz_attempt(${quizId}::uuid) a`
    .catch((error) => {
      throw new AttemptFailed(quizId, error);
    });
  // The questions, the standing and the history do not depend on each other: one pipeline.
  const [questions, attempts, [history]] = await Promise.all([
    tx<Row[]>`select * from private.quiz_questions_for_learner(${quizId}::uuid)`,
    quizAttempts(tx, quizId),
    tx<Row[]>`
    select bool_or(a.passed) as passed,
           (array_agg(json_build_object('score', a.score, 'maxScore', a.max_score, 'passed', a.passed,
                                        'completedAt', a.completed_at) order by a.completed_at desc))[1] as last_result
    from public.quiz_attempts a
    where a.quiz_id = ${quizId}::uuid and a.user_id = ${caller.userId}::uuid and a.completed_at is not null
      -- Recertifying: only this cycle's attempts count (earlier ones stay in the history).
      and not exists (select 1 from public.enrollments e
                      where e.user_id = a.user_id and e.course_id = ${String(quiz.courseId)}::uuid
                        and e.cycle > 1 and a.completed_at < e.started_at)`,
  ]);
  const timeLimit = quiz.timeLimit == null ? null : Number(quiz.timeLimit);
  const startedAt = attempt.startedAt as Date;
  return {
    id: quizId,
    moduleId: String(quiz.moduleId),
    courseId: String(quiz.courseId),
    title: String(quiz.title),
    description: (quiz.description as string | null) ?? null,
    titleCy: (quiz.titleCy as string | null) ?? null,
    descriptionCy: (quiz.descriptionCy as string | null) ?? null,
    passingScore: Number(quiz.passingScore),
    timeLimit,
    randomizeQuestions: Boolean(quiz.randomizeQuestions),
    questions: questions.map(toLearnerQuestion),
    attempt: {
      id: String(attempt.id),
      startedAt: iso(startedAt),
      deadline: timeLimit == null ? null : new Date(startedAt.getTime() + timeLimit * 60_000).toISOString(),
    },
    serverNow: iso(attempt.serverNow),
    passed: Boolean(history?.passed),
    lastResult: history?.lastResult ? history.lastResult as LearnerQuiz['lastResult'] : null,
    attempts,
    showCorrectAnswers: String(quiz.showCorrectAnswers) as AnswerDisplay,
  };
}

/** Creates or replaces the module's quiz; true when it was created. */
export async function upsertQuiz(tx: Tx, moduleId: string, input: z.infer<typeof quizSchema>): Promise<boolean> {
  const [row] = await guarded(() => tx<{ inserted: boolean }[]>`
    insert into public.quizzes (module_id, title, description, passing_score, time_limit, randomize_questions,
                                show_correct_answers, max_attempts, retry_wait_minutes, title_cy, description_cy)
    values (${moduleId}::uuid, ${input.title}, ${input.description ?? null}, ${input.passingScore},
            ${input.timeLimit ?? null}::integer, ${input.randomizeQuestions},
            ${input.showCorrectAnswers ?? 'AFTER_PASSING'}, ${input.maxAttempts ?? null}::integer,
            ${input.retryWaitMinutes ?? 0}::integer, ${input.titleCy ?? null}::text, ${input.descriptionCy ?? null}::text)
    on conflict (module_id) do update set
      title = excluded.title, description = excluded.description, passing_score = excluded.passing_score,
      title_cy = excluded.title_cy, description_cy = excluded.description_cy,
      time_limit = excluded.time_limit, randomize_questions = excluded.randomize_questions,
      -- Quiz integrity settings left out of the body keep their stored values.
      show_correct_answers = case when ${input.showCorrectAnswers !== undefined} then excluded.show_correct_answers
                                  else public.quizzes.show_correct_answers end,
      max_attempts = case when ${input.maxAttempts !== undefined} then excluded.max_attempts else public.quizzes.max_attempts end,
      retry_wait_minutes = case when ${input.retryWaitMinutes !== undefined} then excluded.retry_wait_minutes
                                else public.quizzes.retry_wait_minutes end
    returning (xmax = 0) as inserted`);
  return row.inserted;
}
