// Required training: the rules (GET/POST/PUT/DELETE /api/required-training, admins and
// instructors) and the signed-in user's own list (GET /api/me/required-training), which the dashboard
// section and the header notice share through one query.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { complianceKeys, enrollmentKeys, requiredTrainingKeys } from '@/lib/query-keys';
import type {
  MyRequiredTraining,
  RequiredTrainingCreateInput,
  RequiredTrainingRule,
  RequiredTrainingUpdateInput,
} from '@shared/compliance.ts';

export interface RulesPage {
  items: RequiredTrainingRule[];
  total: number;
  page: number;
  pageSize: number;
}

export const RULES_PAGE_SIZE = 20;

export function getRules(filters: { courseId?: string; page: number }): Promise<RulesPage> {
  const params = new URLSearchParams({ page: String(filters.page), pageSize: String(RULES_PAGE_SIZE) });
  if (filters.courseId) params.set('courseId', filters.courseId);
  return api.get<RulesPage>(`/required-training?${params}`);
}

export function useRules(filters: { courseId?: string; page: number }) {
  return useQuery(
    queryOptions({ queryKey: requiredTrainingKeys.rules(filters), queryFn: () => getRules(filters), placeholderData: keepPreviousData }),
  );
}

function useInvalidate() {
  const queryClient = useQueryClient();
  // A rule changes who is enrolled and every status: refresh rules, lists, compliance and enrolments.
  return () =>
    Promise.all([
      requiredTrainingKeys.invalidate(queryClient),
      complianceKeys.invalidate(queryClient),
      enrollmentKeys.invalidate(queryClient),
    ]);
}

export function useCreateRule() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: RequiredTrainingCreateInput) => api.post<RequiredTrainingRule & { enrolled: number }>('/required-training', input),
    onSettled: invalidate,
  });
}

export function useUpdateRule() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: RequiredTrainingUpdateInput }) =>
      api.put<RequiredTrainingRule>(`/required-training/${encodeURIComponent(id)}`, input),
    onSettled: invalidate,
  });
}

export function useDeleteRule() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/required-training/${encodeURIComponent(id)}`),
    onSettled: invalidate,
  });
}

export function myRequiredTrainingQueryOptions(userId: string) {
  return queryOptions({
    queryKey: requiredTrainingKeys.mine(userId),
    queryFn: () => api.get<MyRequiredTraining>('/me/required-training'),
    staleTime: 60_000,
  });
}

/** The signed-in user's required training; pass null while nobody is signed in. */
export function useMyRequiredTraining(userId: string | null | undefined) {
  return useQuery({ ...myRequiredTrainingQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}
