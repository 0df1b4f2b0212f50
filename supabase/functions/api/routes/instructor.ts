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
import { scorePercent, scoStatus } from '../../_shared/scorm-data-model.ts';

export const STUDENT_STATUSES = ['pending', 'in-progress', 'completed'] as const;

const studentsQuery = z.object({
  ...pageFields,
  courseId: z.string().regex(UUID_PATTERN, 'Course id must be a valid id').optional(),
  status: z.enum(STUDENT_STATUSES, { error: 'Status must be pending, in-progress or completed' }).optional(),
});

const analyticsQuery = z.object(pageFields);

interface ScormRow {
  userId: string;
  courseId: string;
  moduleId: string;
  title: string;
  completed: boolean;
  bestScore: string | null;
  attempts: number | null;
  latestCompletion: string | null;
  latestSuccess: string | null;
  passed: boolean | null;
}

/** A SCORM module of a learner's row: completed (passed when the package reported a pass), else the latest attempt's status. */
function scormModuleStatus(m: ScormRow) {
  const status = m.completed
    ? (m.passed ? 'passed' : 'completed')
    : !m.attempts
    ? 'not attempted'
    : scoStatus(m.latestCompletion, m.latestSuccess) === 'failed'
    ? 'failed'
    : 'incomplete';
  return {
    moduleId: m.moduleId,
    title: m.title,
    status,
    score: scorePercent(m.bestScore),
    attempts: m.attempts ?? 0,
  };
}

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
    const { rows, scorm } = await db
      .withCaller(caller.db, async (tx) => {
        const rows = await tx<({ total: string } & Record<string, unknown>)[]>`
          select * from private.instructor_students(
            ${query.courseId ?? null}::uuid, ${query.status ?? null}, ${query.pageSize}, ${offset})`;
        // Each row's SCORM modules with the learner's status and best score, for the page's
        // rows in one statement (attempts read under the caller's RLS).
        const scorm = rows.length === 0 ? [] : await tx<ScormRow[]>`
          select x.user_id, x.course_id, m.id as module_id, m.title,
                 coalesce(u.completed, false) as completed,
                 a.best_score, a.attempts, a.latest_completion, a.latest_success, a.passed
          from unnest(${rows.map((r) => String(r.userId))}::uuid[], ${rows.map((r) => String(r.courseId))}::uuid[]) x(user_id, course_id)
          join public.course_modules m on m.course_id = x.course_id and m.kind = 'scorm'
          left join public.user_module_progress u on u.user_id = x.user_id and u.module_id = m.id
          left join lateral (
            select max(sa.score) as best_score, count(*)::int as attempts,
                   (array_agg(sa.completion_status order by sa.updated_at desc))[1] as latest_completion,
                   (array_agg(sa.success_status order by sa.updated_at desc))[1] as latest_success,
                   bool_or(sa.success_status = 'passed') as passed
            from public.scorm_attempts sa where sa.module_id = m.id and sa.user_id = x.user_id
          ) a on true
          order by m.order_index, m.id`;
        return { rows, scorm };
      })
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
      scorm: scorm.filter((m) => m.userId === userId && m.courseId === courseId).map(scormModuleStatus),
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
