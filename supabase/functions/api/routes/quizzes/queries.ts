// The SQL and row mapping of quizzes and their questions: the author's copy (with the answers),
// and a learner's submitted attempt as the result screen shows it.
import { type AuthoringQuiz, correctAnswerIndexes, type QuizQuestion, type questionSchema } from '../../../_shared/authoring.ts';
import type { QuizResult } from '../../../_shared/quiz.ts';
import type { z } from 'zod';
import type { Tx } from '../../lib/db.ts';
import { guarded, notFound } from '../../lib/authoring.ts';
import { iso, quizAttempts, readEnrollment, type Row } from '../../lib/learning.ts';

export async function readQuestions(tx: Tx, quizId: string): Promise<QuizQuestion[]> {
  return await tx<QuizQuestion[]>`
    select id, quiz_id, question_text, question_type::text as question_type, order_index, points, options,
           correct_answers, explanation, question_text_cy as question_cy, options_cy, explanation_cy, created_at, updated_at
    from public.quiz_questions where quiz_id = ${quizId}::uuid order by order_index, created_at, id`;
}

export async function readQuestion(tx: Tx, questionId: string): Promise<QuizQuestion> {
  const [row] = await tx<QuizQuestion[]>`
    select id, quiz_id, question_text, question_type::text as question_type, order_index, points, options,
           correct_answers, explanation, question_text_cy as question_cy, options_cy, explanation_cy, created_at, updated_at
    from public.quiz_questions where id = ${questionId}::uuid`;
  if (!row) throw notFound('Question');
  return row;
}

/** The module's quiz with its questions and answers (the author's copy), or null. */
export async function readQuizOfModule(tx: Tx, moduleId: string): Promise<AuthoringQuiz | null> {
  const [quiz] = await tx<Omit<AuthoringQuiz, 'questions'>[]>`
    select id, module_id, title, description, title_cy, description_cy, passing_score, time_limit, randomize_questions,
           show_correct_answers, max_attempts, retry_wait_minutes, created_at, updated_at
    from public.quizzes where module_id = ${moduleId}::uuid`;
  if (!quiz) return null;
  return { ...quiz, questions: await readQuestions(tx, quiz.id) };
}

/** A new question at the end of the quiz. */
export async function insertQuestion(tx: Tx, quizId: string, input: z.infer<typeof questionSchema>): Promise<string> {
  const [row] = await guarded(() => tx<{ id: string }[]>`
    insert into public.quiz_questions (quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation,
                                       question_text_cy, options_cy, explanation_cy)
    values (${quizId}::uuid, ${input.questionText}, ${input.questionType}::public.question_type,
            (select count(*)::int + 1 from public.quiz_questions where quiz_id = ${quizId}::uuid),
            ${input.points}, ${tx.json(input.options)}, ${tx.json(correctAnswerIndexes(input.options))},
            ${input.explanation ?? null}, ${input.questionCy ?? null}::text,
            ${input.optionsCy == null ? null : tx.json(input.optionsCy)}::jsonb, ${input.explanationCy ?? null}::text)
    returning id`);
  return row.id;
}

/** The quiz with its module and course (before an attempt is scored). */
export async function readQuizForAttempt(tx: Tx, id: string): Promise<Row | undefined> {
  const [quiz] = await tx<Row[]>`
    select q.id, q.module_id, q.passing_score, m.course_id
    from public.quizzes q join public.course_modules m on m.id = q.module_id
    where q.id = ${id}::uuid`;
  return quiz;
}

/**
 * A scored attempt as the result screen shows it: the review (answers only when the quiz shows
 * them), the standing, the module's state and the enrolment after the attempt, in one pipeline.
 */
export async function attemptResult(tx: Tx, userId: string, quiz: Row, attempt: Row, chosenAnswers: Record<string, number[]>): Promise<QuizResult> {
  const id = String(quiz.id);
  const [review, attempts, [progress], enrollment] = await Promise.all([
    tx<Row[]>`select * from private.quiz_attempt_review(${String(attempt.id)}::uuid)`,
    quizAttempts(tx, id),
    tx<Row[]>`
    select p.completed from public.user_module_progress p
    where p.user_id = ${userId}::uuid and p.module_id = ${String(quiz.moduleId)}::uuid`,
    readEnrollment(tx, { userId, courseId: String(quiz.courseId) }),
  ]);
  const score = Number(attempt.score);
  const maxScore = Number(attempt.maxScore);
  // The database decides (the quiz's show_correct_answers); hidden answers never reach this code.
  const answersShown = review.length > 0 && review.every((q) => q.answersShown === true);
  return {
    id: String(attempt.id),
    quizId: id,
    score,
    maxScore,
    percentage: maxScore > 0 ? Math.round((100 * score) / maxScore) : 0,
    passingScore: Number(quiz.passingScore),
    passed: Boolean(attempt.passed),
    startedAt: iso(attempt.startedAt),
    completedAt: iso(attempt.completedAt),
    answersShown,
    // Display only: the score above is the database's.
    questions: review.map((q) => {
      const chosen = chosenAnswers[String(q.questionId)] ?? [];
      const options = (q.options as { text?: unknown }[]).map((o) => String(o.text ?? ''));
      const optionsCy = Array.isArray(q.optionsCy) ? (q.optionsCy as unknown[]).map(String) : null;
      if (!answersShown || !Array.isArray(q.correctAnswers)) {
        return {
          id: String(q.questionId),
          chosen,
          correctAnswers: null,
          correct: null,
          options: options.map((text) => ({ text, isCorrect: null })),
          explanation: null,
          optionsCy,
          explanationCy: null,
        };
      }
      const correctAnswers = [...new Set((q.correctAnswers as unknown[]).map(Number))].sort((a, b) => a - b);
      return {
        id: String(q.questionId),
        chosen,
        correctAnswers,
        correct: chosen.length === correctAnswers.length && chosen.every((v, i) => v === correctAnswers[i]),
        options: options.map((text, index) => ({ text, isCorrect: correctAnswers.includes(index) })),
        explanation: (q.explanation as string | null) ?? null,
        optionsCy,
        explanationCy: (q.explanationCy as string | null) ?? null,
      };
    }),
    attempts,
    moduleCompleted: Boolean(progress?.completed),
    enrollment,
  };
}
