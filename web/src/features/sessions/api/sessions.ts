// Classroom sessions over the API (contract: @shared/sessions.ts). Every write refreshes every view of
// sessions (places left, the lists, the registers) and, as a booking or a mark may complete the
// module, the learning views too.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ClassroomSession, type ModuleSessions, type RegisterEntry, type SessionBooking, type SessionCalendarPage, type SessionCreateBody,
  type SessionDetail, type SessionPerson, type SessionRequest, type SessionUpdateBody, type Attendance, type TrainerCandidate,
  SESSION_DATES_LIMIT,
} from '@shared/sessions.ts';
import { api } from '@/lib/api-client';
import { downloadFromApi } from '@/lib/download';
import { invalidateLearning, sessionKeys } from '@/lib/query-keys';

export const CALENDAR_PAGE_SIZE = 100;

function useRefresh() {
  const queryClient = useQueryClient();
  return () => Promise.all([sessionKeys.invalidate(queryClient), invalidateLearning(queryClient)]);
}

/** The module's dates: a learner's the next `limit` (those who run it get every date whatever the limit). */
export function useModuleSessions(moduleId: string, limit: number = SESSION_DATES_LIMIT.default) {
  return useQuery({
    queryKey: sessionKeys.dates(moduleId, limit),
    queryFn: () => api.get<ModuleSessions>(`/modules/${encodeURIComponent(moduleId)}/sessions${
      limit === SESSION_DATES_LIMIT.default ? '' : `?${new URLSearchParams({ limit: String(limit) })}`}`),
    placeholderData: keepPreviousData,
  });
}

export function useSession(id: string) {
  return useQuery({
    queryKey: sessionKeys.detail(id),
    queryFn: () => api.get<SessionDetail>(`/sessions/${encodeURIComponent(id)}`),
  });
}

export function useCreateSession(moduleId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: SessionCreateBody) => api.post<ClassroomSession>(`/modules/${encodeURIComponent(moduleId)}/sessions`, input),
    onSuccess: refresh,
  });
}

export function useUpdateSession() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: SessionUpdateBody }) => api.patch<SessionDetail>(`/sessions/${encodeURIComponent(id)}`, input),
    onSuccess: refresh,
  });
}

export function useCancelSession() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => api.post<SessionDetail>(`/sessions/${encodeURIComponent(id)}/cancel`, { reason }),
    onSuccess: refresh,
  });
}

/** Book a date, join its waiting list, or (with bookingId) move the live booking to it. */
export function useBook(moduleId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ sessionId, bookingId }: { sessionId: string; bookingId?: string }) =>
      bookingId
        ? api.put<SessionBooking>(`/bookings/${encodeURIComponent(bookingId)}`, { sessionId })
        : api.post<SessionBooking>(`/modules/${encodeURIComponent(moduleId)}/booking`, { sessionId }),
    onSuccess: refresh,
  });
}

export type BookingAction = 'cancel' | 'accept' | 'decline' | 'approve';

export function useBookingAction() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ bookingId, action }: { bookingId: string; action: BookingAction }) =>
      api.post<SessionBooking>(`/bookings/${encodeURIComponent(bookingId)}/${action}`),
    onSuccess: refresh,
  });
}

export function useRefuseBooking() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ bookingId, reason }: { bookingId: string; reason: string }) =>
      api.post<SessionBooking>(`/bookings/${encodeURIComponent(bookingId)}/refuse`, { reason: reason.trim() || null }),
    onSuccess: refresh,
  });
}

export function useBookingRequests() {
  return useQuery({ queryKey: sessionKeys.requests(), queryFn: () => api.get<SessionRequest[]>('/bookings/requests') });
}

export function useCalendar(from: string, to: string, page = 1) {
  return useQuery({
    queryKey: sessionKeys.calendar(from, to, page),
    queryFn: () => api.get<SessionCalendarPage>(`/instructor/sessions?${new URLSearchParams({
      from, to, page: String(page), pageSize: String(CALENDAR_PAGE_SIZE),
    })}`),
    placeholderData: keepPreviousData,
  });
}

/**
 * One register mark. The session's cached register shows the mark at once (the tap's answer) and
 * goes back to what it was when the server refuses; the same mark twice is the same request.
 */
export function useMarkAttendance(sessionId: string) {
  const queryClient = useQueryClient();
  const key = sessionKeys.detail(sessionId);
  return useMutation({
    mutationFn: ({ bookingId, attendance }: { bookingId: string; attendance: Attendance | null }) =>
      api.put<SessionBooking>(`/sessions/${encodeURIComponent(sessionId)}/register/${encodeURIComponent(bookingId)}`, { attendance }),
    onMutate: async ({ bookingId, attendance }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<SessionDetail>(key);
      const previous = before?.register?.find((r) => r.bookingId === bookingId)?.attendance ?? null;
      queryClient.setQueryData<SessionDetail>(key, (detail) => detail && withMark(detail, bookingId, attendance));
      return { previous };
    },
    onError: (_error, { bookingId }, context) => {
      queryClient.setQueryData<SessionDetail>(key, (detail) => detail && withMark(detail, bookingId, context?.previous ?? null));
    },
    onSuccess: (booking) => {
      queryClient.setQueryData<SessionDetail>(key, (detail) => detail && withMark(detail, booking.id, booking.attendance));
    },
  });
}

function withMark(detail: SessionDetail, bookingId: string, attendance: Attendance | null): SessionDetail {
  return { ...detail, register: detail.register?.map((r) => (r.bookingId === bookingId ? { ...r, attendance } : r)) ?? null };
}

export function useMarkAllAttended(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ marked: number; register: RegisterEntry[] }>(`/sessions/${encodeURIComponent(sessionId)}/register/all-attended`),
    onSuccess: ({ register }) => {
      queryClient.setQueryData<SessionDetail>(sessionKeys.detail(sessionId), (detail) => detail && { ...detail, register });
      return sessionKeys.invalidate(queryClient);
    },
  });
}

export function useSessionPeople(sessionId: string, q: string, enabled: boolean) {
  return useQuery({
    queryKey: sessionKeys.people(sessionId, q),
    queryFn: () => api.get<SessionPerson[]>(`/sessions/${encodeURIComponent(sessionId)}/people?${new URLSearchParams({ q })}`),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** The people who may run the module's dates (the date's organisation: organisationId when editing one). */
export function useTrainerCandidates(moduleId: string, q: string, organisationId: string | null) {
  return useQuery({
    queryKey: sessionKeys.trainers(moduleId, q, organisationId),
    queryFn: () => api.get<TrainerCandidate[]>(`/modules/${encodeURIComponent(moduleId)}/trainers?${new URLSearchParams({
      q, ...(organisationId ? { organisationId } : {}),
    })}`),
    placeholderData: keepPreviousData,
  });
}

export function useAddWalkIn(sessionId: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (userId: string) => api.post<SessionBooking>(`/sessions/${encodeURIComponent(sessionId)}/walk-ins`, { userId }),
    onSuccess: refresh,
  });
}

/** The date's bookings as CSV; resolves to the file name. */
export function downloadSessionCsv(sessionId: string): Promise<string> {
  return downloadFromApi(`/sessions/${encodeURIComponent(sessionId)}/bookings.csv`, 'text/csv', 'session-bookings.csv');
}
