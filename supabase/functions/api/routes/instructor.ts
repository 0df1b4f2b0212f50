// The instructor dashboard (specification §2, DESIGN.md §3): overview figures, learners on the
// caller's courses, approval of pending enrolments and per-course analytics. Every figure comes from
// one SQL function (migration 20260325000000_instructor.sql) run under the caller's RLS.
import { Hono } from 'hono';
import { z } from 'zod';
import type { Config } from '../lib/config.ts';
import type { Db } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { validate } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';

export const STUDENT_STATUSES = ['pending', 'in-progress', 'completed'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const pageFields = {
  page: z.coerce.number({ error: 'Page must be a whole number from 1' }).int('Page must be a whole number from 1')
    .min(1, 'Page must be a whole number from 1').max(100000, 'Page is too large').default(1),
  pageSize: z.coerce.number({ error: 'Page size must be between 1 and 100' }).int('Page size must be between 1 and 100')
    .min(1, 'Page size must be between 1 and 100').max(100, 'Page size must be between 1 and 100').default(20),
};

const studentsQuery = z.object({
  ...pageFields,
  courseId: z.string().regex(UUID, 'Course id must be a valid id').optional(),
  status: z.enum(STUDENT_STATUSES, { error: 'Status must be pending, in-progress or completed' }).optional(),
});

const analyticsQuery = z.object(pageFields);

/** Database refusals raised by the SQL functions, as HTTP answers. */
function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  // Only the messages our SQL functions raise on purpose reach the client; any other database
  // error text (a policy, a relation name) never does.
  const raised = (error as { routine?: unknown })?.routine === 'exec_stmt_raise';
  const message = raised ? (error as { message?: string })?.message ?? '' : '';
  if (code === '42501') throw new ApiError(403, message || 'Forbidden');
  if (code === 'P0002') throw new ApiError(404, message || 'Not found');
  if (code === '55000') throw new ApiError(409, message || 'Conflict');
  throw error;
}

const instructorOnly = () => new ApiError(403, "You don't have instructor permissions.");

export function instructorRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/instructor/stats', async (c) => {
    const caller = requireUser(c);
    const [[row]] = await db
      .read(caller.db, (tx) => [
        tx<{
          totalCourses: number;
          totalStudents: number;
          averageCompletion: number;
          totalCourseHours: number;
          recentlyUpdated: unknown[];
          completionRate: number;
          averageProgress: number;
          completedEnrolments: number;
          totalEnrolments: number;
          pendingRequests: number;
        }[]>`select * from private.instructor_stats()`,
      ])
      .catch(fromDatabase);
    return c.json(row);
  });

  routes.get('/instructor/students', async (c) => {
    const caller = requireUser(c);
    const query = validate(studentsQuery, c.req.query());
    const offset = (query.page - 1) * query.pageSize;
    const rows = await db
      .withCaller(caller.db, (tx) =>
        tx<({ total: string } & Record<string, unknown>)[]>`
          select * from private.instructor_students(
            ${query.courseId ?? null}::uuid, ${query.status ?? null}, ${query.pageSize}, ${offset})`)
      .catch(fromDatabase);
    const total = rows.length > 0 ? Number(rows[0].total) : await countWhenPastTheEnd();
    async function countWhenPastTheEnd() {
      // An empty page past the end still reports how many there are (rare: only then a second query).
      if (query.page === 1) return 0;
      const [r] = await db.withCaller(caller.db, (tx) =>
        tx<{ n: string }[]>`select count(*) as n from private.instructor_students(
          ${query.courseId ?? null}::uuid, ${query.status ?? null}, 2147483647, 0)`);
      return Number(r.n);
    }
    const items = rows.map(({ total: _total, userId, name, username, courseId, courseTitle, service, ...rest }) => ({
      ...rest,
      learner: { id: userId, name, username },
      course: { id: courseId, title: courseTitle, service },
    }));
    return c.json({ items, total, page: query.page, pageSize: query.pageSize });
  });

  routes.get('/instructor/analytics', async (c) => {
    const caller = requireUser(c);
    const query = validate(analyticsQuery, c.req.query());
    const offset = (query.page - 1) * query.pageSize;
    const rows = await db
      .withCaller(caller.db, (tx) =>
        // One statement: the setting, and the figures only when analytics are on.
        tx<({ enableAnalytics: boolean; allowed: boolean; courseId: string | null; total: string | null } & Record<string, unknown>)[]>`
          select s.enable_analytics, (select private.current_role()) in ('INSTRUCTOR', 'ADMIN') as allowed, a.*
          from public.settings s
          left join lateral private.instructor_analytics(${query.pageSize}, ${offset}) a on s.enable_analytics
          where s.id`)
      .catch(fromDatabase);
    if (rows.length > 0 && !rows[0].allowed) throw instructorOnly();
    if (rows.length === 0 || !rows[0].enableAnalytics) return c.json({ enabled: false });
    const courses = rows.filter((r) => r.courseId !== null);
    const items = courses.map(({ enableAnalytics: _e, allowed: _a, total: _t, ...figures }) => figures);
    const total = courses.length > 0 ? Number(courses[0].total) : 0;
    return c.json({ enabled: true, items, total, page: query.page, pageSize: query.pageSize });
  });

  routes.post('/enrollments/:id/approve', async (c) => {
    const caller = requireUser(c);
    const id = enrollmentId(c.req.param('id'));
    const enrollment = await db
      .withCaller(caller.db, async (tx) => {
        const [r] = await tx<Record<string, unknown>[]>`
          select id, user_id, course_id, status, progress, completed, started_at, completed_at
          from private.approve_enrollment(${id}::uuid)`;
        return r;
      })
      .catch(fromDatabase);
    return c.json(enrollment);
  });

  routes.post('/enrollments/:id/decline', async (c) => {
    const caller = requireUser(c);
    const id = enrollmentId(c.req.param('id'));
    await db.withCaller(caller.db, (tx) => tx`select private.decline_enrollment(${id}::uuid)`).catch(fromDatabase);
    return c.body(null, 204);
  });

  return routes;
}

/** A path id that is not a uuid names no enrolment: 404, never a database error. */
function enrollmentId(value: string): string {
  if (!UUID.test(value)) throw new ApiError(404, 'Enrolment not found');
  return value;
}
