// GET /api/modules/:id/quiz (starts the server's clock, so it is fetched only when the learner
// starts) and POST /api/quizzes/:id/attempts (scored by the database). Offline, an untimed quiz of a
// downloaded course is served from the device (its questions, never its answers) and its answers
// kept in the learner's queue, scored by the server when the connection is back; a timed quiz needs
// a connection.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OfflineQuiz } from '@shared/offline.ts';
import type { LearnerQuiz, QuizAnswersInput, QuizResult } from '@shared/quiz.ts';
import { api, OfflineError } from '@/lib/api-client';
import { invalidateLearning, offlineKeys } from '@/lib/query-keys';
import { offlineQuizOf } from '@/lib/offline/downloads';
import { queueItem } from '@/lib/offline/queue';
import { storedUserId } from '@/lib/supabase';

export const startQuiz = (moduleId: string) => api.get<LearnerQuiz>(`/modules/${moduleId}/quiz`);

export const submitQuiz = ({ quizId, answers }: { quizId: string; answers: QuizAnswersInput['answers'] }) =>
  api.post<QuizResult>(`/quizzes/${quizId}/attempts`, { answers });

/** A timed quiz reached offline: it needs a connection. */
export class TimedQuizOfflineError extends Error {
  constructor() {
    super('timed quiz offline');
    this.name = 'TimedQuizOfflineError';
  }
}

/** The quiz as the form shows it, from a downloaded course: no attempt on the server yet. */
function fromDevice(quiz: OfflineQuiz, moduleId: string, courseId: string): LearnerQuiz & { offline: true } {
  const now = new Date().toISOString();
  return {
    id: quiz.id,
    moduleId,
    courseId,
    title: quiz.title,
    titleCy: quiz.titleCy,
    description: quiz.description,
    descriptionCy: quiz.descriptionCy,
    passingScore: quiz.passingScore,
    timeLimit: quiz.timeLimit,
    randomizeQuestions: false,
    questions: quiz.questions,
    attempt: { id: `offline-${quiz.id}`, startedAt: now, deadline: null },
    serverNow: now,
    passed: false,
    lastResult: null,
    attempts: quiz.attempts,
    showCorrectAnswers: quiz.showCorrectAnswers,
    offline: true,
  };
}

export type ServedQuiz = LearnerQuiz & { offline?: boolean };

/** Starts the quiz on the server, or offline from a downloaded course where it may be answered offline. */
async function startOnlineOrOffline(moduleId: string): Promise<ServedQuiz> {
  try {
    return await startQuiz(moduleId);
  } catch (error) {
    const personId = storedUserId();
    if (!(error instanceof OfflineError) || !personId) throw error;
    const kept = await offlineQuizOf(personId, moduleId);
    if (kept?.quiz.notOffline === 'timed') throw new TimedQuizOfflineError();
    if (!kept?.quiz.offline) throw error;
    return fromDevice(kept.quiz, moduleId, kept.courseId);
  }
}

export function useStartQuiz() {
  return useMutation({ mutationFn: startOnlineOrOffline });
}

/** The answers: scored by the server, or null when kept in the queue (offline, or the connection
 * failed while sending an untimed quiz's answers). */
async function submitOrQueue({ quiz, answers }: { quiz: ServedQuiz; answers: QuizAnswersInput['answers'] }): Promise<QuizResult | null> {
  const personId = storedUserId();
  if (quiz.offline && personId) {
    await queueItem(personId, { kind: 'quiz-answers', quizId: quiz.id, answers });
    return null;
  }
  try {
    return await submitQuiz({ quizId: quiz.id, answers });
  } catch (error) {
    if (!(error instanceof OfflineError) || !personId || quiz.attempt.deadline) throw error;
    await queueItem(personId, { kind: 'quiz-answers', quizId: quiz.id, answers });
    return null;
  }
}

export function useSubmitQuiz() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitOrQueue,
    onSuccess: (result) => (result ? invalidateLearning(queryClient) : offlineKeys.invalidate(queryClient)),
  });
}
