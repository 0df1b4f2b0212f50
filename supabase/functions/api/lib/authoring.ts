// Who may change a course, its modules and its quizzes, for the authoring routes of courses,
// modules, quizzes and questions. Every read and write runs as the caller under RLS; these checks
// only turn "RLS would refuse" into a clear 403/404 before any work is done. Storage is written
// with the service role only after the caller's right was checked under RLS.
import type { Context } from 'hono';
import type { Config } from './config.ts';
import type { Db, Tx } from './db.ts';
import { type Env, requireUser } from './auth.ts';
import { ApiError } from './errors.ts';
import { type Bucket, objectName, readImage, removeImages, storeImage } from './images.ts';

export const NOT_YOURS = 'You can only change courses you author';

export const notFound = (what: string) => new ApiError(404, `${what} not found`);

/** Database refusals the routes expect, as API answers; anything else stays a 500. */
export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === '42501') throw new ApiError(403, NOT_YOURS);
    if (code === '23514' || code === '22023' || code === '22P02') throw new ApiError(400, 'Validation failed');
    throw error;
  }
}

export interface Me {
  role: 'ADMIN' | 'INSTRUCTOR' | 'STUDENT';
  services: string[];
}

/** The caller's role and services. */
export async function me(tx: Tx): Promise<Me> {
  const [row] = await tx<{ role: Me['role']; services: string[] }[]>`
    select role::text as role, services::text[] as services from public.profiles where id = (select auth.uid())`;
  if (!row) throw new ApiError(401, 'Not signed in');
  return row;
}

interface CourseRow {
  id: string;
  authorId: string | null;
  service: string;
  coverImage: string | null;
}

/** The course as the caller sees it under RLS, and 403 unless the caller may change it. */
export async function courseToChange(tx: Tx, courseId: string, userId: string): Promise<CourseRow> {
  const [course] = await tx<CourseRow[]>`
    select id, author_id, service::text as service, cover_image from public.courses where id = ${courseId}::uuid`;
  if (!course) throw notFound('Course');
  const caller = await me(tx);
  const allowed = caller.role === 'ADMIN' || (caller.role === 'INSTRUCTOR' && course.authorId === userId);
  if (!allowed) throw new ApiError(403, NOT_YOURS);
  return course;
}

/** The module (with its image) once the caller may change its course. */
export async function moduleToChange(tx: Tx, moduleId: string, userId: string) {
  // content and image only through private.module_body (the API roles cannot select them).
  const [module] = await tx<{ id: string; courseId: string; image: string | null; kind: string }[]>`
    select m.id, m.course_id, b.image, m.kind from public.course_modules m
    left join lateral private.module_body(m.id) b on true
    where m.id = ${moduleId}::uuid`;
  if (!module) throw notFound('Module');
  await courseToChange(tx, module.courseId, userId);
  return module;
}

/** The quiz once the caller may change its course. */
export async function quizToChange(tx: Tx, quizId: string, userId: string) {
  const [quiz] = await tx<{ id: string; moduleId: string; courseId: string }[]>`
    select q.id, q.module_id, m.course_id
    from public.quizzes q join public.course_modules m on m.id = q.module_id
    where q.id = ${quizId}::uuid`;
  if (!quiz) throw notFound('Quiz');
  await courseToChange(tx, quiz.courseId, userId);
  return quiz;
}

/** Replaces an image column after storing the upload; the old object goes once the row points at the new one. */
export async function replaceImage(
  config: Config,
  db: Db,
  c: Context<Env>,
  bucket: Bucket,
  field: string,
  check: (tx: Tx, userId: string) => Promise<{ folder: string }>,
  swap: (tx: Tx, url: string) => Promise<{ old: string | null; updated: boolean }>,
) {
  // `folder` is the course's id: stored files and the files deleted both lie in its folder.
  const caller = requireUser(c);
  const { folder } = await db.withCaller(caller.db, (tx) => check(tx, caller.userId));
  const image = await readImage(c, field);
  const stored = await storeImage(config, bucket, folder, image);
  let result: { old: string | null; updated: boolean };
  try {
    result = await db.withCaller(caller.db, (tx) => guarded(() => swap(tx, stored.url)));
  } catch (error) {
    await removeImages(config, bucket, [stored.name]);
    throw error;
  }
  if (!result.updated) {
    await removeImages(config, bucket, [stored.name]);
    throw new ApiError(403, NOT_YOURS);
  }
  await removeImages(config, bucket, [objectName(config, bucket, folder, result.old)]);
}
