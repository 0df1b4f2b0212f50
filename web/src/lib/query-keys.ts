// Every query key of the web app, one factory per resource, general to specific, and the
// invalidations that go with them. One URL is cached under one key, whichever feature asks for it,
// so a write anywhere refreshes every view of what it changed; invalidating a factory's `all`
// refreshes everything under it. Features build their queries and mutations from these and never
// write a key by hand.
import type { QueryClient } from '@tanstack/react-query';

type ParamValue = string | number | boolean | null | undefined;

/** A list's query string as its key holds it: what the URL leaves out (empty, null, false) is left
 * out here too, and the rest is a string as the URL carries it, so equal URLs give equal keys. */
function queryParams(params: Record<string, ParamValue>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '' && value !== false) out[name] = String(value);
  }
  return out;
}

/** GET /api/user: the signed-in user (null for a visitor). */
export const userKeys = {
  current: ['user'] as const,
  /** Whether the person's organisation has a sign-in they could link, and whether it is linked. */
  organisationSignInLink: (email: string) => ['user-organisation-sign-in-link', email] as const,
  /**
   * After a sign-in or a registration: what was read as a visitor (a course without its enrolment,
   * an outline without progress, the visitor's settings, or the answers a page rendered on request
   * carried, web/src/app/prerender-handover.tsx) is not the person's. Unshown entries are dropped,
   * shown ones refetched; the user's own entry is the new one.
   */
  signedIn: (queryClient: QueryClient) => {
    const notUser = (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== userKeys.current[0];
    queryClient.removeQueries({ predicate: notUser, type: 'inactive' });
    return queryClient.invalidateQueries({ predicate: notUser });
  },
};

/** GET /api/settings: the answer depends on who asks, so the key carries the user id. */
export const settingsKeys = {
  all: ['settings'] as const,
  forCaller: (userId: string | null) => [...settingsKeys.all, userId ?? 'visitor'] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: settingsKeys.all }),
};

export interface CourseListParams {
  search?: string;
  service?: string | null;
  status?: string | null;
  mine?: boolean;
  /** Only the courses available in Welsh (the catalogue's filter). */
  welsh?: boolean;
  page?: number;
  pageSize?: number;
}

/** GET /api/courses (lists), /api/courses/:id and /api/courses/:id/modules. */
export const courseKeys = {
  all: ['courses'] as const,
  /** One page of GET /api/courses?… (the course manager, the admin's tab, the course pickers). */
  list: (params: CourseListParams) => [...courseKeys.all, 'list', queryParams({ ...params })] as const,
  /** Every page of GET /api/courses?… fetched so far (the catalogue's "Load more"), one entry. */
  pages: (params: Omit<CourseListParams, 'page'>) => [...courseKeys.all, 'pages', queryParams({ ...params })] as const,
  detail: (id: string) => [...courseKeys.all, 'detail', id] as const,
  modules: (id: string) => [...courseKeys.detail(id), 'modules'] as const,
  /** GET /api/courses/:id/deletion: whether a delete deletes the course or must archive it. */
  deletion: (id: string) => [...courseKeys.detail(id), 'deletion'] as const,
  /** After a course write: every list, course and outline. */
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: courseKeys.all }),
  /** After a module write: the outline, and the course itself (its module count), not its other children. */
  invalidateOutline: (queryClient: QueryClient, id: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: courseKeys.modules(id) }),
      queryClient.invalidateQueries({ queryKey: courseKeys.detail(id), exact: true }),
    ]),
};

/** GET /api/modules/:id and GET /api/modules/:id/quiz/authoring. */
export const moduleKeys = {
  all: ['modules'] as const,
  detail: (id: string) => [...moduleKeys.all, id] as const,
  authoringQuiz: (id: string) => [...moduleKeys.detail(id), 'quiz', 'authoring'] as const,
  /** GET /api/modules/:id/scorm: an author's view of a SCORM module's package. */
  scormPackage: (id: string) => [...moduleKeys.detail(id), 'scorm'] as const,
  /** GET /api/modules/:id/scorm/player: what the player needs to launch the package. */
  scormPlayer: (id: string) => [...moduleKeys.scormPackage(id), 'player'] as const,
  /** GET /api/modules/:id/scorm/learners?page=…: the instructor's view of a SCORM module. */
  scormLearners: (id: string, page: number) => [...moduleKeys.detail(id), 'scorm-learners', queryParams({ page })] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: moduleKeys.all }),
};

/** GET /api/users/:userId/enrollments (every page). */
export const enrollmentKeys = {
  all: ['enrollments'] as const,
  forUser: (userId: string) => [...enrollmentKeys.all, { userId }] as const,
  invalidate: (queryClient: QueryClient, userId?: string) =>
    queryClient.invalidateQueries({ queryKey: userId ? enrollmentKeys.forUser(userId) : enrollmentKeys.all }),
};

/** GET /api/certificates (the learner's) and GET /api/certificates/verify/:code (public). */
export const certificateKeys = {
  all: ['certificates'] as const,
  list: (params: { page: number; pageSize: number; scope: string }) => [...certificateKeys.all, params] as const,
  verify: (code: string) => [...certificateKeys.all, 'verify', code.toUpperCase()] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: certificateKeys.all }),
};

/** The admin dashboard's lists: GET /api/users, /api/roles, /api/audit, /api/admin/certificates. */
export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  userList: (filters: {
    search: string;
    service: string | null;
    role: string | null;
    status: string | null;
    organisationId?: string | null;
    unitId?: string | null;
    managerId?: string | null;
    page: number;
    pageSize: number;
  }) => [...adminKeys.users(), filters] as const,
  /** GET /api/users?organisationId=…&search=…: the people a manager is chosen from. */
  people: (organisationId: string, search: string) => [...adminKeys.users(), 'people', organisationId, search] as const,
  /** GET /api/users?role=ADMIN and ?role=INSTRUCTOR together: the Activity tab's "Who" filter. */
  actors: () => [...adminKeys.users(), 'actors'] as const,
  roles: () => [...adminKeys.all, 'roles'] as const,
  audit: (page: number, filters: object) => [...adminKeys.all, 'audit', page, filters] as const,
  certificates: (filters: { search: string; page: number; pageSize: number }) => [...adminKeys.all, 'certificates', filters] as const,
  /** GET /api/notifications/deliveries: the Delivery tab, every page and filter. */
  allDeliveries: () => [...adminKeys.all, 'deliveries'] as const,
  deliveries: (filters: { status: string | null; page: number }) => [...adminKeys.allDeliveries(), filters] as const,
  /** After any admin write: users, the permission matrix, certificates and the activity trail. */
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
};

/** GET /api/organisations and /api/organisations/:id/units. */
export const organisationKeys = {
  all: ['organisations'] as const,
  list: () => [...organisationKeys.all, 'list'] as const,
  units: (organisationId: string) => [...organisationKeys.all, 'units', organisationId] as const,
  /** GET /api/organisations/:id/scim: the SCIM base URL and the organisation's tokens. */
  scim: (organisationId: string) => [...organisationKeys.all, 'scim', organisationId] as const,
  /** GET /api/organisations/:id/sign-in: its domains, identity provider settings and test sign-ins. */
  signIn: (organisationId: string) => [...organisationKeys.all, 'sign-in', organisationId] as const,
  /** After a unit write: that organisation's tree, and the list (its counts). */
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: organisationKeys.all }),
};

/** GET /api/instructor/stats, /students and /analytics. */
export const instructorKeys = {
  all: ['instructor'] as const,
  stats: () => [...instructorKeys.all, 'stats'] as const,
  students: (filters: { courseId?: string; status?: string; page: number }) => [...instructorKeys.all, 'students', filters] as const,
  analytics: (filters: { page: number }) => [...instructorKeys.all, 'analytics', filters] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: instructorKeys.all }),
};

/** Practical assessments: a module's checklist and the caller's standing, an assessor's learners and
 * records, the queue, and a course's named assessors. */
export const assessmentKeys = {
  all: ['assessments'] as const,
  module: (moduleId: string) => [...assessmentKeys.all, 'module', moduleId] as const,
  learners: (moduleId: string, params: { status?: string | null; page: number }) =>
    [...assessmentKeys.all, 'learners', moduleId, queryParams({ ...params })] as const,
  record: (recordId: string) => [...assessmentKeys.all, 'record', recordId] as const,
  queue: (params: { state?: string | null; page: number }) => [...assessmentKeys.all, 'queue', queryParams({ ...params })] as const,
  assessors: (courseId: string) => [...assessmentKeys.all, 'assessors', courseId] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: assessmentKeys.all }),
};

/** GET /api/required-training (the rules) and GET /api/me/required-training (the caller's list). */
export const requiredTrainingKeys = {
  all: ['required-training'] as const,
  rules: (filters: { courseId?: string; page: number }) => [...requiredTrainingKeys.all, 'rules', filters] as const,
  mine: (userId: string) => [...requiredTrainingKeys.all, 'mine', userId] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: requiredTrainingKeys.all }),
};

/** GET /api/notifications (the bell's list) and GET /api/me/notification-preferences. */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: (userId: string, params: { page: number; pageSize: number; unread?: boolean }) =>
    [...notificationKeys.all, 'list', userId, queryParams({ ...params })] as const,
  preferences: (userId: string) => [...notificationKeys.all, 'preferences', userId] as const,
  /** After marking read: every list (and its unread count), not the preferences. */
  invalidateLists: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: [...notificationKeys.all, 'list'] }),
};

/** GET /api/compliance, /api/compliance/people and /api/compliance/units. */
export const complianceKeys = {
  all: ['compliance'] as const,
  summary: (filters: object, page: number) => [...complianceKeys.all, 'summary', filters, page] as const,
  people: (filters: object, page: number) => [...complianceKeys.all, 'people', filters, page] as const,
  units: (filters: object) => [...complianceKeys.all, 'units', filters] as const,
  practicals: (filters: object) => [...complianceKeys.all, 'practicals', filters] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: complianceKeys.all }),
};

/** GET /api/team (a line manager's reports, one page per filters) and /api/team/:personId. */
export const teamKeys = {
  all: ['team'] as const,
  list: (params: { unitId?: string; status?: string; search?: string; page: number; pageSize: number }) =>
    [...teamKeys.all, 'list', queryParams({ ...params })] as const,
  member: (personId: string) => [...teamKeys.all, 'member', personId] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
};

/** GET /api/me/learning-record, or an admin's GET /api/admin/users/:id/learning-record. */
export const learningRecordKeys = {
  all: ['learning-record'] as const,
  record: (userId: string | null) => [...learningRecordKeys.all, userId ?? 'me'] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: learningRecordKeys.all }),
};

/** After an enrolment or any progress (a module read, a quiz passed, a recertification): courses,
 * modules, enrolments, certificates and the user are refetched where they are shown. */
export function invalidateLearning(queryClient: QueryClient) {
  return Promise.all([
    courseKeys.invalidate(queryClient),
    moduleKeys.invalidate(queryClient),
    enrollmentKeys.invalidate(queryClient),
    certificateKeys.invalidate(queryClient),
    queryClient.invalidateQueries({ queryKey: userKeys.current }),
  ]);
}


/** Classroom sessions: a session module's dates (GET /api/modules/:id/sessions), one date with its
 * register (GET /api/sessions/:id), the instructor's calendar and a manager's booking requests. */
export const sessionKeys = {
  all: ['sessions'] as const,
  ofModule: (moduleId: string) => [...sessionKeys.all, 'module', moduleId] as const,
  /** The module's dates; limit: how many of the next a learner gets. */
  dates: (moduleId: string, limit: number) => [...sessionKeys.ofModule(moduleId), 'dates', limit] as const,
  detail: (id: string) => [...sessionKeys.all, 'detail', id] as const,
  people: (id: string, q: string) => [...sessionKeys.detail(id), 'people', q] as const,
  trainers: (moduleId: string, q: string, organisationId: string | null) =>
    [...sessionKeys.ofModule(moduleId), 'trainers', queryParams({ q, organisationId })] as const,
  calendar: (from: string, to: string, page: number) => [...sessionKeys.all, 'calendar', queryParams({ from, to, page })] as const,
  requests: () => [...sessionKeys.all, 'requests'] as const,
  /** After any booking or session write: every view of sessions (places left, lists, registers). */
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
};

/** What this device keeps for the signed-in person offline (IndexedDB, web/src/lib/offline): the
 * queue of what they did offline, the server's answers to it not yet seen, their downloaded courses. */
export const offlineKeys = {
  all: ['offline'] as const,
  queue: (personId: string) => [...offlineKeys.all, personId, 'queue'] as const,
  outcomes: (personId: string) => [...offlineKeys.all, personId, 'outcomes'] as const,
  downloads: (personId: string) => [...offlineKeys.all, personId, 'downloads'] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: offlineKeys.all }),
};

/** GET /api/passport (the learner's credentials, paged) and /api/passport/held (other issuers'). */
export const passportKeys = {
  all: ['passport'] as const,
  credentials: (userId: string, page: number) => [...passportKeys.all, userId, 'credentials', page] as const,
  held: (userId: string) => [...passportKeys.all, userId, 'held'] as const,
  invalidate: (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: passportKeys.all }),
};

/** GET /api/courses/:courseId/achievement: what a course's credentials say it proves. */
export const achievementKeys = {
  all: ['achievement'] as const,
  ofCourse: (courseId: string) => [...achievementKeys.all, courseId] as const,
};

/** GET /api/recognition/trusted-issuers and /equivalences: what an organisation recognises. */
export const recognitionKeys = {
  all: ['recognition'] as const,
  trustedIssuers: (organisationId: string | null) => [...recognitionKeys.all, 'trusted-issuers', organisationId ?? 'own'] as const,
  equivalences: (organisationId: string | null) => [...recognitionKeys.all, 'equivalences', organisationId ?? 'own'] as const,
  /** After a write: both lists, and every compliance and team view (what counts as done changes). */
  invalidate: (queryClient: QueryClient) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: recognitionKeys.all }),
      complianceKeys.invalidate(queryClient),
      teamKeys.invalidate(queryClient),
    ]),
};

/** GET /api/credentials/shared/:shareId: a credential its holder shares (public). */
export const credentialKeys = {
  all: ['credentials'] as const,
  shared: (shareId: string) => [...credentialKeys.all, 'shared', shareId] as const,
};
