// /api/quizzes/:id: a learner's attempt (scored by the database: private.finish_quiz_attempt), and
// the author's questions (add, reorder). SQL and row mapping: ./queries.ts.
import { Hono } from 'hono';
import { MESSAGES, questionReorderSchema, questionSchema } from '../../../_shared/authoring.ts';
import { normaliseAnswers, QUIZ_GRACE_SECONDS, quizAnswersSchema, type QuizResult } from '../../../_shared/quiz.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { ApiError, pgError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { NOT_YOURS, quizToChange } from '../../lib/authoring.ts';
import { access, AttemptFailed, attemptRefusal, MSG, refusal, type Row } from '../../lib/learning.ts';
import { attemptResult, insertQuestion, readQuestion, readQuestions, readQuizForAttempt } from './queries.ts';

export function quizRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.post('/:id/attempts', async (c) => {
    const id = pathId(c, 'id', MSG.quizNotFound);
    const caller = c.get('caller');
    if (caller.kind !== 'user') throw new ApiError(401, MSG.signInToQuiz);
    const { answers } = await jsonBody(c, quizAnswersSchema);
    const normalised = normaliseAnswers(answers);
    const result = await db.withCaller(caller.db, async (tx): Promise<QuizResult | ApiError> => {
      // The quiz and the rights on its course in one pipeline.
      const [quiz, rights] = await Promise.all([readQuizForAttempt(tx, id), access(tx, { ofQuiz: id })]);
      if (!quiz) return new ApiError(404, MSG.quizNotFound);
      if (!rights.visible) return new ApiError(404, MSG.quizNotFound);
      if (!rights.studiable) return refusal(caller, rights.enrollmentStatus, 'quiz');
      // A refusal is thrown out of the transaction (AttemptFailed) and answered below.
      const [attempt] = await tx<Row[]>`select * from private.finish_quiz_attempt(${id}::uuid, ${tx.json(normalised)}, ${QUIZ_GRACE_SECONDS})`
        .catch((error) => {
          throw new AttemptFailed(id, error);
        });
      return await attemptResult(tx, caller.userId, quiz, attempt, normalised);
    }).catch(async (error) => {
      if (!(error instanceof AttemptFailed)) throw error;
      const refused = await attemptRefusal(db, caller.db, id, error.cause);
      if (refused) return refused;
      const pg = pgError(error.cause);
      if (pg?.hint === 'quiz_time_up') return new ApiError(400, MSG.timeUp);
      if (pg?.hint === 'quiz_not_started') return new ApiError(400, MSG.notStarted);
      if (pg?.code === '42501') return new ApiError(403, MSG.enrolToQuiz);
      throw error.cause;
    });
    if (result instanceof ApiError) throw result;
    return c.json(result, 201);
  });

  routes.post('/:id/questions', async (c) => {
    const caller = requireUser(c);
    const quizId = pathId(c, 'id', MSG.quizNotFound);
    const input = await jsonBody(c, questionSchema);
    const question = await db.withCaller(caller.db, async (tx) => {
      await quizToChange(tx, quizId, caller.userId);
      return await readQuestion(tx, await insertQuestion(tx, quizId, input));
    });
    return c.json(question, 201);
  });

  routes.put('/:id/questions/reorder', async (c) => {
    const caller = requireUser(c);
    const quizId = pathId(c, 'id', MSG.quizNotFound);
    const input = await jsonBody(c, questionReorderSchema);
    const questions = await db.withCaller(caller.db, async (tx) => {
      await quizToChange(tx, quizId, caller.userId);
      try {
        await tx`select private.reorder_quiz_questions(${quizId}::uuid, ${input.questionIds}::uuid[])`;
      } catch (error) {
        if ((error as { code?: string }).code === '22023') {
          throw new ApiError(400, MESSAGES.questionIds, { questionIds: MESSAGES.questionIds });
        }
        if ((error as { code?: string }).code === '42501') throw new ApiError(403, NOT_YOURS);
        throw error;
      }
      return await readQuestions(tx, quizId);
    });
    return c.json(questions);
  });

  return routes;
}
