// /api/courses/:courseId/achievement: the Open Badges achievement a course's certificates carry as
// credentials (name, description, criteria in words, image, alignments to a framework). Read where
// the course is; written by those who may edit the course (row-level security on
// course_achievements). Validity is the course's certificate validity (certificate_valid_months).
import { Hono } from 'hono';
import { achievementSchema, type CourseAchievement } from '../../../_shared/credentials.ts';
import type { Config } from '../../lib/config.ts';
import type { Db, Statements } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';

const NOT_FOUND = 'Course not found';

interface Row {
  title: string;
  description: string | null;
  validMonths: number | null;
  name: string | null;
  achievementDescription: string | null;
  criteria: string | null;
  imageUrl: string | null;
  alignments: CourseAchievement['alignments'] | null;
  updatedAt: Date | null;
}

async function readAchievement(sql: Statements, courseId: string): Promise<CourseAchievement | null> {
  const [row] = await sql<Row[]>`
    select c.title, c.description, c.certificate_valid_months as "validMonths", a.name,
           a.description as "achievementDescription", a.criteria, a.image_url as "imageUrl", a.alignments,
           a.updated_at as "updatedAt"
    from public.courses c
    left join public.course_achievements a on a.course_id = c.id
    where c.id = ${courseId}`;
  if (!row) return null;
  return {
    courseId,
    defined: row.name !== null,
    name: row.name ?? row.title,
    description: row.achievementDescription ?? (row.description?.trim() || row.title),
    criteria: row.criteria ?? `Complete the course "${row.title}".`,
    imageUrl: row.imageUrl,
    alignments: row.alignments ?? [],
    validMonths: row.validMonths,
    updatedAt: row.updatedAt ? new Date(row.updatedAt).toISOString() : null,
  };
}

export function courseAchievementRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const courseId = pathId(c, 'courseId', NOT_FOUND);
    const achievement = await db.withCaller(c.get('caller').db, (tx) => readAchievement(tx, courseId));
    if (!achievement) throw new ApiError(404, NOT_FOUND);
    return c.json(achievement);
  });

  routes.put('/', async (c) => {
    const caller = requireUser(c);
    const courseId = pathId(c, 'courseId', NOT_FOUND);
    const body = await jsonBody(c, achievementSchema);
    const alignments = body.alignments.map((a) => ({
      targetName: a.targetName,
      targetUrl: a.targetUrl,
      targetFramework: a.targetFramework || null,
      targetCode: a.targetCode || null,
    }));
    const answer = await db.withCaller(caller.db, async (tx) => {
      const [may] = await tx<{ visible: boolean; editable: boolean }[]>`
        select private.can_view_course(${courseId}) as visible, private.may_edit_course(${courseId}) as editable`;
      if (!may.visible) return 'not-found' as const;
      if (!may.editable) return 'forbidden' as const;
      await tx`
        insert into public.course_achievements (course_id, name, description, criteria, image_url, alignments)
        values (${courseId}, ${body.name}, ${body.description}, ${body.criteria}, ${body.imageUrl ?? null}, ${tx.json(alignments)})
        on conflict (course_id) do update
        set name = excluded.name, description = excluded.description, criteria = excluded.criteria,
            image_url = excluded.image_url, alignments = excluded.alignments`;
      return await readAchievement(tx, courseId);
    });
    if (answer === 'not-found' || answer === null) throw new ApiError(404, NOT_FOUND);
    if (answer === 'forbidden') throw new ApiError(403, 'Only those who may edit the course may change its achievement');
    return c.json(answer);
  });

  return routes;
}
