// GET /api/users/:userId/enrollments: a learner's enrolments, each with its course, module count,
// modules done, certificate and last activity, in one query. The learner themselves; another
// user's only for admins (all) and instructors (those on their courses, by RLS).
import { Hono } from 'hono';
import { z } from 'zod';
import type { CertificateState } from '../../../_shared/certificates.ts';
import { isoTimestamp as iso } from '../../../_shared/dates.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import type { Db, Statements } from '../../lib/db.ts';
import { ApiError } from '../../lib/errors.ts';
import { pagingQuery, pathId } from '../../lib/params.ts';
import { USER_NOT_FOUND, userNotFound } from './queries.ts';

/** A learner's enrolments come in pages of at most 100 (all of them by default, up to 100). */
export const ENROLLMENTS_PAGE_SIZE = 100;
export const enrollmentPagingSchema = z.object({
  page: z.coerce.number({ error: 'Page must be a whole number of at least 1' }).int('Page must be a whole number of at least 1').min(1, 'Page must be a whole number of at least 1').max(100000, 'Page is too large').default(1),
  pageSize: z.coerce.number({ error: `Page size must be between 1 and ${ENROLLMENTS_PAGE_SIZE}` }).int(`Page size must be between 1 and ${ENROLLMENTS_PAGE_SIZE}`).min(1, `Page size must be between 1 and ${ENROLLMENTS_PAGE_SIZE}`).max(ENROLLMENTS_PAGE_SIZE, `Page size must be between 1 and ${ENROLLMENTS_PAGE_SIZE}`).default(ENROLLMENTS_PAGE_SIZE),
});

export interface EnrollmentRow {
  id: string;
  userId: string;
  courseId: string;
  status: string;
  progress: number;
  completed: boolean;
  startedAt: Date;
  completedAt: Date | null;
  lastAccessedModuleId: string | null;
  lastActivityAt: Date | null;
  completedModules: number;
  cycle: number;
  certificateId: string | null;
  certificateCycle: number | null;
  certificateIssuedAt: Date | null;
  certificateExpiresAt: Date | null;
  certificateRevokedAt: Date | null;
  certificateState: CertificateState | null;
  courseTitle: string | null;
  courseTitleCy: string | null;
  courseDescription: string | null;
  courseService: string | null;
  courseDuration: number | null;
  courseModules: number;
}

export function toEnrollment(row: EnrollmentRow) {
  return {
    id: row.id,
    userId: row.userId,
    courseId: row.courseId,
    progress: row.progress,
    completed: row.completed,
    status: row.status,
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
    lastAccessedModuleId: row.lastAccessedModuleId,
    lastActivityAt: iso(row.lastActivityAt),
    completedModules: row.completedModules,
    cycle: row.cycle,
    certificateId: row.certificateId,
    // The latest certificate of the course (from this or an earlier cycle), with its validity.
    certificate: row.certificateId === null
      ? null
      : {
        id: row.certificateId,
        cycle: row.certificateCycle!,
        issuedAt: iso(row.certificateIssuedAt)!,
        expiresAt: iso(row.certificateExpiresAt),
        revokedAt: iso(row.certificateRevokedAt),
        state: row.certificateState!,
      },
    // null when the course is no longer visible to the caller (archived or withdrawn).
    course: row.courseTitle === null
      ? null
      : {
        id: row.courseId,
        title: row.courseTitle,
        titleCy: row.courseTitleCy ?? null,
        description: row.courseDescription ?? '',
        service: row.courseService,
        duration: row.courseDuration,
        modules: row.courseModules,
      },
  };
}

/** One page of a learner's enrolments, unfinished first, then by latest activity (not yet run). */
export function listEnrollments(tx: Statements, userId: string, page: number, pageSize: number) {
  return tx<EnrollmentRow[]>`
    select e.id, e.user_id, e.course_id, e.status::text as status, e.progress, e.completed,
           e.started_at, e.completed_at, e.last_accessed_module_id,
           greatest(e.started_at, e.completed_at, ec.last_read, ec.last_completed) as last_activity_at,
           coalesce(ec.done, 0)::int as completed_modules, e.cycle,
           cert.id as certificate_id, cert.cycle as certificate_cycle, cert.issued_at as certificate_issued_at,
           cert.expires_at as certificate_expires_at, cert.revoked_at as certificate_revoked_at,
           private.certificate_state(cert.expires_at, cert.revoked_at) as certificate_state,
           ec.title as course_title, ec.description as course_description, ec.service::text as course_service,
           (select co.title_cy from public.courses co where co.id = ec.course_id) as course_title_cy,
           ec.duration as course_duration, coalesce(ec.modules, 0)::int as course_modules
    from public.enrollments e
    -- Each enrolled course's details, number of modules, modules done and latest activity, in one
    -- pass over the learner's enrolments and progress (private.enrolled_courses, under the rules
    -- of the progress, course and module policies: no row for a course the caller cannot see).
    left join private.enrolled_courses(${userId}::uuid) ec on ec.course_id = e.course_id
    -- The current certificate: the latest issued (certificates_user_course_issued_idx).
    left join lateral (
      select c.id, c.cycle, c.issued_at, c.expires_at, c.revoked_at from public.certificates c
      where c.user_id = e.user_id and c.course_id = e.course_id
      order by c.issued_at desc, c.cycle desc
      limit 1
    ) cert on true
    where e.user_id = ${userId}::uuid
    order by e.completed, greatest(e.started_at, e.completed_at, ec.last_read, ec.last_completed) desc nulls last, e.id
    limit ${pageSize} offset ${(page - 1) * pageSize}`;
}

export function userEnrollmentRoutes(db: Db) {
  const routes = new Hono<Env>();

  routes.get('/:userId/enrollments', async (c) => {
    const caller = requireUser(c);
    const userId = pathId(c, 'userId', USER_NOT_FOUND);
    const { page, pageSize } = pagingQuery(enrollmentPagingSchema, {
      page: c.req.query('page') ?? undefined,
      pageSize: c.req.query('pageSize') ?? undefined,
    });
    if (userId === caller.userId) {
      const [rows] = await db.read(caller.db, (tx) => [listEnrollments(tx, userId, page, pageSize)]);
      return c.json(rows.map(toEnrollment));
    }
    // An organisation's administrator: their organisation's people only (anyone else is not found).
    // The check goes in the same round trip as the list, which row-level security keeps to them too.
    // Another user's enrolments: admins see all, instructors those on their courses (RLS); a
    // learner is refused outright rather than shown an empty list. The caller's role comes in the
    // same round trip as the list.
    const [rows, [me]] = await db.read(caller.db, (tx) => [
      listEnrollments(tx, userId, page, pageSize),
      tx<{ role: string; theirs: boolean | null }[]>`
        select private.current_role()::text as role,
               case when private.is_org_admin() then private.administers(${userId}::uuid) end as theirs`,
    ]);
    if (me?.role === 'STUDENT') throw new ApiError(403, "You cannot view another user's enrolments.");
    if (me?.theirs === false) throw userNotFound();
    return c.json(rows.map(toEnrollment));
  });

  return routes;
}
