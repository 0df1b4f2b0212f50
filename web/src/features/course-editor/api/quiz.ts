// Quiz authoring: GET /api/modules/:id/quiz/authoring (with answers), PUT/DELETE /api/modules/:id/quiz,
// questions: POST /api/quizzes/:id/questions, PUT/DELETE /api/questions/:id, PUT .../questions/reorder.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AuthoringQuiz, QuestionInput, QuizInput, QuizQuestion } from '@shared/authoring.ts';
import { api } from '@/lib/api-client';
import { courseKeys, moduleKeys } from '@/lib/query-keys';

export function quizQueryOptions(moduleId: string) {
  return queryOptions({
    queryKey: moduleKeys.authoringQuiz(moduleId),
    queryFn: () => api.get<AuthoringQuiz | null>(`/modules/${moduleId}/quiz/authoring`),
  });
}

export function useAuthoringQuiz(moduleId: string) {
  return useQuery(quizQueryOptions(moduleId));
}

/** A quiz change also changes the module's Has Quiz badge: both are refetched. */
function useRefresh(courseId: string, moduleId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: moduleKeys.authoringQuiz(moduleId) }),
      queryClient.invalidateQueries({ queryKey: courseKeys.modules(courseId) }),
    ]);
}

export function useSaveQuiz(courseId: string, moduleId: string) {
  const refresh = useRefresh(courseId, moduleId);
  return useMutation({
    mutationFn: (input: QuizInput) => api.put<AuthoringQuiz>(`/modules/${moduleId}/quiz`, input),
    onSuccess: refresh,
  });
}

export function useDeleteQuiz(courseId: string, moduleId: string) {
  const refresh = useRefresh(courseId, moduleId);
  return useMutation({ mutationFn: () => api.delete<void>(`/modules/${moduleId}/quiz`), onSuccess: refresh });
}

export function useSaveQuestion(courseId: string, moduleId: string, quizId: string) {
  const refresh = useRefresh(courseId, moduleId);
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: QuestionInput }) =>
      id ? api.put<QuizQuestion>(`/questions/${id}`, input) : api.post<QuizQuestion>(`/quizzes/${quizId}/questions`, input),
    onSuccess: refresh,
  });
}

export function useDeleteQuestion(courseId: string, moduleId: string) {
  const refresh = useRefresh(courseId, moduleId);
  return useMutation({ mutationFn: (id: string) => api.delete<void>(`/questions/${id}`), onSuccess: refresh });
}

export function useReorderQuestions(courseId: string, moduleId: string, quizId: string) {
  const refresh = useRefresh(courseId, moduleId);
  return useMutation({
    mutationFn: (questionIds: string[]) => api.put<QuizQuestion[]>(`/quizzes/${quizId}/questions/reorder`, { questionIds }),
    onSuccess: refresh,
  });
}
