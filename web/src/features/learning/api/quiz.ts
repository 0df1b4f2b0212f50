// GET /api/modules/:id/quiz (starts the server's clock, so it is fetched only when the learner
// starts) and POST /api/quizzes/:id/attempts (scored by the database).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LearnerQuiz, QuizAnswersInput, QuizResult } from '@shared/quiz.ts';
import { api } from '@/lib/api-client';
import { invalidateLearning } from '@/lib/query-keys';

export const startQuiz = (moduleId: string) => api.get<LearnerQuiz>(`/modules/${moduleId}/quiz`);

export const submitQuiz = ({ quizId, answers }: { quizId: string; answers: QuizAnswersInput['answers'] }) =>
  api.post<QuizResult>(`/quizzes/${quizId}/attempts`, { answers });

export function useStartQuiz() {
  return useMutation({ mutationFn: startQuiz });
}

export function useSubmitQuiz() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: submitQuiz, onSuccess: () => invalidateLearning(queryClient) });
}
