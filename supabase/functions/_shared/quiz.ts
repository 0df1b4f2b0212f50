// A learner's quiz answers (issue 3): { answers: { "<question id>": optionIndex | [optionIndexes] } }.
// Scored by the database (private.submit_quiz_attempt); shared by the api function and the quiz form.
import { z } from 'zod';
import { uuidSchema } from './catalogue.ts';

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

/** The client check before submitting: every question answered. */
export const UNANSWERED_MESSAGE = 'Answer every question before submitting';

/** How long after the time limit a submission is still accepted (network delay), in seconds. */
export const QUIZ_GRACE_SECONDS = 30;

/** GET /api/modules/:id/quiz: the learner's view, without answers. */
export interface LearnerQuiz {
  id: string;
  moduleId: string;
  courseId: string;
  title: string;
  description: string | null;
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
  questions: {
    id: string;
    chosen: number[];
    correctAnswers: number[];
    correct: boolean;
    options: { text: string; isCorrect: boolean }[];
    explanation: string | null;
  }[];
  /** The module is now complete for the caller (read and passed). */
  moduleCompleted: boolean;
  enrollment: import('./catalogue.ts').Enrollment | null;
}
