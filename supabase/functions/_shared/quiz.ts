// A learner's quiz answers: { answers: { "<question id>": optionIndex | [optionIndexes] } }.
// Scored by the database (private.submit_quiz_attempt); shared by the api function and the quiz form.
import { z } from 'zod';
import { longDateTime } from './dates.ts';
import type { Enrollment } from './enrollment.ts';
import { uuidSchema } from './ids.ts';

export const MAX_QUIZ_QUESTIONS = 200;
export const MAX_OPTIONS = 20;

const optionIndex = z.number({ error: 'An answer must be an option number' }).int('An answer must be an option number')
  .min(0, 'An answer must be an option number').max(MAX_OPTIONS - 1, 'An answer must be an option number');

export const quizAnswersSchema = z.object({
  answers: z
    .record(uuidSchema, z.union([optionIndex, z.array(optionIndex).max(MAX_OPTIONS, 'Too many options chosen')]), {
      error: 'Answers must map question ids to chosen options',
    })
    .refine((value) => Object.keys(value).length <= MAX_QUIZ_QUESTIONS, 'Too many answers'),
});
export type QuizAnswersInput = z.infer<typeof quizAnswersSchema>;

/** Answers as the database scores them: question ids in lower case, each question's chosen options
 * as a sorted list without repeats. */
export function normaliseAnswers(answers: QuizAnswersInput['answers']): Record<string, number[]> {
  const normalised: Record<string, number[]> = {};
  for (const [questionId, chosen] of Object.entries(answers)) {
    normalised[questionId.toLowerCase()] = [...new Set(Array.isArray(chosen) ? chosen : [chosen])].sort((a, b) => a - b);
  }
  return normalised;
}

/** The client check before submitting: every question answered. */
export const UNANSWERED_MESSAGE = 'Answer every question before submitting';

/** How long after the time limit a submission is still accepted (network delay), in seconds. */
export const QUIZ_GRACE_SECONDS = 30;

/** When a learner's attempt review shows the correct answers (quiz integrity). */
export const ANSWER_DISPLAYS = ['NEVER', 'AFTER_PASSING', 'ALWAYS'] as const;
export type AnswerDisplay = (typeof ANSWER_DISPLAYS)[number];
export const ANSWER_DISPLAY_LABELS: Record<AnswerDisplay, string> = {
  NEVER: 'Never',
  AFTER_PASSING: 'After passing',
  ALWAYS: 'After every attempt',
};

/** The caller's standing on a quiz (private.quiz_attempt_status). */
export interface QuizAttempts {
  /** Scored attempts in the current cycle. */
  used: number;
  /** The quiz's maximum, or null for unlimited. */
  max: number | null;
  /** Attempts left, or null for unlimited. */
  remaining: number | null;
  /** When waiting after an attempt: the time the next one may start (ISO), else null. */
  nextAttemptAt: string | null;
}

/** `1 attempt remaining`, `3 attempts remaining`, `No attempts remaining`; null when unlimited. */
export function attemptsRemainingText(attempts: Pick<QuizAttempts, 'remaining'>): string | null {
  if (attempts.remaining == null) return null;
  if (attempts.remaining === 0) return 'No attempts remaining';
  return `${attempts.remaining} ${attempts.remaining === 1 ? 'attempt' : 'attempts'} remaining`;
}

/** The refusals of a start or a submission (409). */
export const noAttemptsLeftMessage = (max: number) =>
  `You have used all ${max} ${max === 1 ? 'attempt' : 'attempts'} at this quiz.`;
export const retryWaitMessage = (nextAttemptAt: string) =>
  `You can take this quiz again from ${longDateTime(nextAttemptAt)}.`;

/** GET /api/modules/:id/quiz: the learner's view, without answers. */
export interface LearnerQuiz {
  id: string;
  moduleId: string;
  courseId: string;
  title: string;
  description: string | null;
  /** The title and description in Welsh; null: not translated. */
  titleCy: string | null;
  descriptionCy: string | null;
  passingScore: number;
  /** Minutes, or null. */
  timeLimit: number | null;
  randomizeQuestions: boolean;
  questions: {
    id: string;
    questionText: string;
    questionType: string;
    orderIndex: number;
    points: number;
    options: { text: string }[];
    /** The question and its option texts in Welsh (as many as options, in their order); null: not translated. */
    questionCy: string | null;
    optionsCy: string[] | null;
    /** Several options are correct: answered with checkboxes, scored only when exactly those are chosen. */
    multipleAnswers: boolean;
  }[];
  /** The running attempt: when it started and, for a timed quiz, when answers stop being accepted. */
  attempt: { id: string; startedAt: string; deadline: string | null };
  /** The server's clock when answering, so a countdown does not depend on the device's clock. */
  serverNow: string;
  /** The caller has passed this quiz before. */
  passed: boolean;
  lastResult: { score: number; maxScore: number; passed: boolean; completedAt: string } | null;
  /** The attempts used and left, counting the running one as not yet used. */
  attempts: QuizAttempts;
  showCorrectAnswers: AnswerDisplay;
}

/** POST /api/quizzes/:id/attempts */
export interface QuizResult {
  id: string;
  quizId: string;
  score: number;
  maxScore: number;
  /** round(100 x score / maxScore). */
  percentage: number;
  passingScore: number;
  passed: boolean;
  startedAt: string;
  completedAt: string;
  /** The quiz's setting allowed the correct answers for this attempt; when false, correctAnswers,
   * correct, isCorrect and explanation are null (the answers never leave the database). */
  answersShown: boolean;
  questions: {
    id: string;
    chosen: number[];
    correctAnswers: number[] | null;
    correct: boolean | null;
    options: { text: string; isCorrect: boolean | null }[];
    explanation: string | null;
    /** The option texts in Welsh, in the options' order; null: not translated. */
    optionsCy: string[] | null;
    /** The explanation in Welsh, under the same rule as explanation. */
    explanationCy: string | null;
  }[];
  /** The caller's standing after this attempt. */
  attempts: QuizAttempts;
  /** The module is now complete for the caller (read and passed). */
  moduleCompleted: boolean;
  enrollment: Enrollment | null;
}
