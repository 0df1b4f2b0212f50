// Practical assessments, the API calls and their cache (supabase/functions/api/routes/assessments/):
// GET/PUT /api/modules/:id/assessment (the checklist, the caller's standing; the author's settings),
// POST .../criteria, PUT/DELETE /api/assessment-criteria/:id, POST .../reassessment,
// GET .../learners, POST .../records, GET/PUT/DELETE /api/assessment-records/:id with /sign, /verify
// and /evidence, GET /api/assessment-evidence/:id, GET /api/instructor/assessments (and export.csv),
// GET/POST/DELETE /api/courses/:id/assessors. Every write refreshes all of them: a signature changes
// the queue, the learner's standing, their progress and certificate.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AssessmentCriterion, AssessmentLearner, AssessmentRecord, AssessmentSettings, AssessmentSettingsInput, CourseAssessor,
  CriterionBody, LearnerState, ModuleAssessment, Paged, QueueState, QueuedAssessment, RecordSaveInput,
} from '@shared/assessments.ts';
import { api } from '@/lib/api-client';
import { downloadFromApi } from '@/lib/download';
import type { UserList } from '@shared/admin.ts';
import { useCourseModules } from '@/lib/courses';
import { adminKeys, assessmentKeys, invalidateLearning } from '@/lib/query-keys';

export const ASSESSMENT_PAGE_SIZE = 20;
const id = (value: string) => encodeURIComponent(value);

export function moduleAssessmentQueryOptions(moduleId: string) {
  return queryOptions({
    queryKey: assessmentKeys.module(moduleId),
    queryFn: () => api.get<ModuleAssessment>(`/modules/${id(moduleId)}/assessment`),
  });
}
export const useModuleAssessment = (moduleId: string, enabled = true) => useQuery({ ...moduleAssessmentQueryOptions(moduleId), enabled });

export function assessmentLearnersQueryOptions(moduleId: string, status: LearnerState | null, page: number) {
  return queryOptions({
    queryKey: assessmentKeys.learners(moduleId, { status, page }),
    queryFn: () => {
      const params = new URLSearchParams({ page: String(page), pageSize: String(ASSESSMENT_PAGE_SIZE) });
      if (status) params.set('status', status);
      return api.get<Paged<AssessmentLearner>>(`/modules/${id(moduleId)}/assessment/learners?${params}`);
    },
    placeholderData: keepPreviousData,
  });
}
export const useAssessmentLearners = (moduleId: string, status: LearnerState | null, page: number) =>
  useQuery(assessmentLearnersQueryOptions(moduleId, status, page));

/** The module's titles for the assessor's pages: from its course's module list (GET /api/courses/:id/modules),
 * which an assessor who is not enrolled may read, where the module's own page may not be theirs. */
export function useModuleTitle(moduleId: string) {
  const assessment = useModuleAssessment(moduleId, Boolean(moduleId));
  const courseId = assessment.data?.courseId ?? '';
  const modules = useCourseModules(courseId, Boolean(courseId));
  const module = modules.data?.find((m) => m.id === moduleId);
  return { module, isPending: assessment.isPending || (Boolean(courseId) && modules.isPending) };
}

/** GET /api/users: active people whose name matches, for an administrator naming an assessor (their own people only). */
export function usePeopleSearch(search: string) {
  const filters = { search: search.trim(), service: null, role: null, status: 'active', page: 1, pageSize: 10 };
  return useQuery({
    queryKey: adminKeys.userList(filters),
    queryFn: () => api.get<UserList>(`/users?${new URLSearchParams({ search: filters.search, status: 'active', page: '1', pageSize: '10' })}`),
    enabled: filters.search.length >= 2,
    placeholderData: keepPreviousData,
  });
}

export function assessmentRecordQueryOptions(recordId: string) {
  return queryOptions({
    queryKey: assessmentKeys.record(recordId),
    queryFn: () => api.get<AssessmentRecord>(`/assessment-records/${id(recordId)}`),
  });
}
export const useAssessmentRecord = (recordId: string) => useQuery(assessmentRecordQueryOptions(recordId));

function queueParams(state: QueueState, page?: number) {
  const params = new URLSearchParams();
  if (page !== undefined) {
    params.set('page', String(page));
    params.set('pageSize', String(ASSESSMENT_PAGE_SIZE));
  }
  params.set('state', state);
  return params;
}

export function assessmentQueueQueryOptions(state: QueueState, page: number) {
  return queryOptions({
    queryKey: assessmentKeys.queue({ state, page }),
    queryFn: () => api.get<Paged<QueuedAssessment>>(`/instructor/assessments?${queueParams(state, page)}`),
    placeholderData: keepPreviousData,
  });
}
export const useAssessmentQueue = (state: QueueState, page: number) => useQuery(assessmentQueueQueryOptions(state, page));

/** The queue as a CSV file (the same filter, every page). */
export const downloadAssessmentQueue = (state: QueueState) =>
  downloadFromApi(`/instructor/assessments/export.csv?${queueParams(state)}`, 'text/csv', 'assessments.csv');

/** An evidence file, opened (saved) under its own name. */
export const downloadEvidence = (evidenceId: string, name: string) => downloadFromApi(`/assessment-evidence/${id(evidenceId)}`, '*/*', name);

export function courseAssessorsQueryOptions(courseId: string) {
  return queryOptions({
    queryKey: assessmentKeys.assessors(courseId),
    queryFn: () => api.get<CourseAssessor[]>(`/courses/${id(courseId)}/assessors`),
  });
}
export const useCourseAssessors = (courseId: string) => useQuery(courseAssessorsQueryOptions(courseId));

/** A write, then every assessment view and (a signature may complete a course) the learning views. */
function useAssessmentMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => Promise.all([assessmentKeys.invalidate(queryClient), invalidateLearning(queryClient)]),
  });
}

export const useSaveAssessmentSettings = (moduleId: string) =>
  useAssessmentMutation((input: AssessmentSettingsInput) => api.put<AssessmentSettings>(`/modules/${id(moduleId)}/assessment`, input));

export const useSaveCriterion = (moduleId: string) =>
  useAssessmentMutation(({ criterionId, input }: { criterionId?: string; input: CriterionBody }) =>
    criterionId
      ? api.put<AssessmentCriterion>(`/assessment-criteria/${id(criterionId)}`, input)
      : api.post<AssessmentCriterion>(`/modules/${id(moduleId)}/assessment/criteria`, input));

export const useDeleteCriterion = () => useAssessmentMutation((criterionId: string) => api.delete<void>(`/assessment-criteria/${id(criterionId)}`));

export const useRequestReassessment = (moduleId: string) =>
  useAssessmentMutation((reason: string) => api.post<{ id: string }>(`/modules/${id(moduleId)}/assessment/reassessment`, { reason }));

export const useStartRecord = (moduleId: string) =>
  useAssessmentMutation((input: { learnerId: string; supersedesId?: string | null }) =>
    api.post<AssessmentRecord>(`/modules/${id(moduleId)}/assessment/records`, input));

export const useSaveRecord = (recordId: string) =>
  useAssessmentMutation((input: RecordSaveInput) => api.put<AssessmentRecord>(`/assessment-records/${id(recordId)}`, input));

export const useDiscardRecord = (recordId: string) => useAssessmentMutation(() => api.delete<void>(`/assessment-records/${id(recordId)}`));

export const useSignRecord = (recordId: string) => useAssessmentMutation(() => api.post<AssessmentRecord>(`/assessment-records/${id(recordId)}/sign`));

export const useVerifyRecord = (recordId: string) => useAssessmentMutation(() => api.post<AssessmentRecord>(`/assessment-records/${id(recordId)}/verify`));

export const useUploadEvidence = (recordId: string) =>
  useAssessmentMutation((file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<AssessmentRecord>(`/assessment-records/${id(recordId)}/evidence`, form);
  });

export const useNameAssessor = (courseId: string) =>
  useAssessmentMutation((personId: string) => api.post<CourseAssessor>(`/courses/${id(courseId)}/assessors`, { personId }));

export const useRemoveAssessor = (courseId: string) =>
  useAssessmentMutation((personId: string) => api.delete<void>(`/courses/${id(courseId)}/assessors/${id(personId)}`));
