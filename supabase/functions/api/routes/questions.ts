// /api/questions/:id: the author changes or deletes one question of a quiz. Questions are visible
// only to their authors and admins (RLS): anyone else gets 404.
import { Hono } from 'hono';
import { correctAnswerIndexes, questionSchema } from '../../_shared/authoring.ts';
import type { Config } from '../lib/config.ts';
import type { Db } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { pathId } from '../lib/params.ts';
import { guarded, NOT_YOURS, quizToChange } from '../lib/authoring.ts';
import { readQuestion } from './quizzes/queries.ts';

const QUESTION_NOT_FOUND = 'Question not found';

export function questionRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.put('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', QUESTION_NOT_FOUND);
    const input = await jsonBody(c, questionSchema);
    const question = await db.withCaller(caller.db, async (tx) => {
      const current = await readQuestion(tx, id);
      await quizToChange(tx, current.quizId, caller.userId);
      const rows = await guarded(() => tx`
        update public.quiz_questions set
          question_text = ${input.questionText}, question_type = ${input.questionType}::public.question_type,
          points = ${input.points}, options = ${tx.json(input.options)},
          correct_answers = ${tx.json(correctAnswerIndexes(input.options))}, explanation = ${input.explanation ?? null},
          -- The whole question: Welsh left out is none.
          question_text_cy = ${input.questionCy ?? null}::text,
          options_cy = ${input.optionsCy == null ? null : tx.json(input.optionsCy)}::jsonb,
          explanation_cy = ${input.explanationCy ?? null}::text
        where id = ${id}::uuid returning id`);
      if (rows.length === 0) throw new ApiError(403, NOT_YOURS);
      return await readQuestion(tx, id);
    });
    return c.json(question);
  });

  routes.delete('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', QUESTION_NOT_FOUND);
    await db.withCaller(caller.db, async (tx) => {
      const current = await readQuestion(tx, id);
      await quizToChange(tx, current.quizId, caller.userId);
      const rows = await guarded(() => tx`delete from public.quiz_questions where id = ${id}::uuid returning id`);
      if (rows.length === 0) throw new ApiError(403, NOT_YOURS);
      await tx`select private.renumber_quiz_questions(${current.quizId}::uuid)`;
    });
    return c.body(null, 204);
  });

  return routes;
}
