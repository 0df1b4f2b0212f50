// /api/instructor: the instructor dashboard's overview figures, the learners on the caller's
// courses and per-course analytics. Every figure comes from one SQL function (private.instructor_stats,
// private.instructor_students, private.instructor_analytics) run under the caller's RLS. Approving
// and declining pending enrolments is under /api/enrollments/:id (routes/enrollments.ts).
import { Hono } from 'hono';
import { z } from 'zod';
import { UUID_PATTERN } from '../../_shared/ids.ts';
import type { Config } from '../lib/config.ts';
import type { Db } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { validate } from '../lib/body.ts';
import { ApiError, fromSqlFunction } from '../lib/errors.ts';
import { pageFields } from '../lib/params.ts';

export const STUDENT_STATUSES = ['pending', 'in-progress', 'completed'] as const;

const studentsQuery = z.object({
  ...pageFields,
  courseId: z.string().regex(UUID_PATTERN, 'Course id must be a valid id').optional(),
  status: z.enum(STUDENT_STATUSES, { error: 'Status must be pending, in-progress or completed' }).optional(),
});

const analyticsQuery = z.object(pageFields);

const instructorOnly = () => new ApiError(403, "You don't have instructor permissions.");

export function instructorRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();
  routes.get('/stats', async (c) => {
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
      .catch(fromSqlFunction);
    return c.json(row);
  });

  routes.get('/students', async (c) => {
    const caller = requireUser(c);
    const query = validate(studentsQuery, c.req.query());
    const offset = (query.page - 1) * query.pageSize;
    const rows = await db
      .withCaller(caller.db, (tx) =>
        tx<({ total: string } & Record<string, unknown>)[]>`
          select * from private.instructor_students(
            ${query.courseId ?? null}::uuid, ${query.status ?? null}, ${query.pageSize}, ${offset})`)
      .catch(fromSqlFunction);
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

  routes.get('/analytics', async (c) => {
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
      .catch(fromSqlFunction);
    if (rows.length > 0 && !rows[0].allowed) throw instructorOnly();
    if (rows.length === 0 || !rows[0].enableAnalytics) return c.json({ enabled: false });
    const courses = rows.filter((r) => r.courseId !== null);
    const items = courses.map(({ enableAnalytics: _e, allowed: _a, total: _t, ...figures }) => figures);
    const total = courses.length > 0 ? Number(courses[0].total) : 0;
    return c.json({ enabled: true, items, total, page: query.page, pageSize: query.pageSize });
  });

  return routes;
}
