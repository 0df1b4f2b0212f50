// /api/courses: the catalogue and one course, its modules, enrolment and recertification (the
// learner), and the author's writes (create, change, delete, cover, add and reorder modules).
// Handlers stay thin: the SQL and row mapping are in ./queries.ts and ../../lib (learning.ts for
// the learner's rights, authoring.ts for the author's).
import { Hono } from 'hono';
import { z } from 'zod';
import {
  assessmentModuleCreateSchema, courseCreateSchema, type CourseDeletion, courseUpdateSchema, MESSAGES, moduleCreateSchema, MODULE_KIND_MESSAGE,
  moduleReorderSchema, scormModuleCreateSchema, sessionModuleCreateSchema,
} from '../../../_shared/authoring.ts';
import { type Course, courseListQuerySchema, enrollBodySchema, type PagedList } from '../../../_shared/catalogue.ts';
import type { Enrollment } from '../../../_shared/enrollment.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { checkedBody, jsonBody, optionalJson, readJson, validate } from '../../lib/body.ts';
import { ApiError, pgError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { objectName, removeImages } from '../../lib/images.ts';
import { access, accessQuery, MSG, readEnrollment, type Row, toAccess, userIdOf } from '../../lib/learning.ts';
import { removePrefix } from '../../lib/scorm/storage.ts';
import { courseToChange, guarded, me, NOT_YOURS, replaceImage } from '../../lib/authoring.ts';
import { readModule, readModules, toModule } from '../modules/queries.ts';
import {
  catalogueStatements,
  courseModulesQuery,
  courseDeletable,
  deleteCourse,
  insertCourse,
  insertModule,
  readAuthoredCourse,
  selectCourses,
  setCourseStatus,
  toCourse,
  updateCourse,
} from './queries.ts';

export function courseRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  // ---- The catalogue and one course

  routes.get('/', async (c) => {
    const query = validate(courseListQuerySchema, c.req.query());
    const caller = c.get('caller');
    const userId = userIdOf(caller);
    if (query.mine && !userId) throw new ApiError(401, 'Sign in to list your own courses');
    const [[{ total }], rows] = await db.read(caller.db, (tx) => catalogueStatements(tx, query, userId), { genericPlans: true });
    const body: PagedList<Course> = {
      items: rows.map((row) => toCourse(config, row)),
      total: Number(total),
      page: query.page,
      pageSize: query.pageSize,
    };
    return c.json(body);
  });

  routes.post('/', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, courseCreateSchema);
    const course = await db.withCaller(caller.db, async (tx) => {
      const who = await me(tx);
      if (who.role === 'STUDENT') throw new ApiError(403, 'Only instructors and administrators can create courses');
      if (who.role === 'INSTRUCTOR' && !who.services.includes(input.service)) {
        throw new ApiError(403, MESSAGES.courseServices, { service: MESSAGES.courseServices });
      }
      return await readAuthoredCourse(tx, await insertCourse(tx, input));
    });
    return c.json(course, 201);
  });

  routes.get('/:id', async (c) => {
    const id = pathId(c, 'id', MSG.courseNotFound);
    const caller = c.get('caller');
    const [rows] = await db.read(caller.db, (tx) => [selectCourses(tx, userIdOf(caller), tx`and c.id = ${id}::uuid`, 1, 0)], {
      genericPlans: true,
    });
    if (!rows[0]) throw new ApiError(404, MSG.courseNotFound);
    return c.json(toCourse(config, rows[0]));
  });

  routes.put('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.courseNotFound);
    const input = await jsonBody(c, courseUpdateSchema);
    const course = await db.withCaller(caller.db, async (tx) => {
      await courseToChange(tx, id, caller.userId);
      const who = await me(tx);
      if (who.role === 'INSTRUCTOR' && input.service !== undefined && !who.services.includes(input.service)) {
        throw new ApiError(403, MESSAGES.courseServices, { service: MESSAGES.courseServices });
      }
      // RLS's with-check (e.g. a service outside the instructor's) refuses by raising; no row: refused.
      if (!(await updateCourse(tx, id, input))) throw new ApiError(403, NOT_YOURS);
      return await readAuthoredCourse(tx, id);
    });
    return c.json(course);
  });

  // A course with learner records is never deleted (the database refuses it too: 23503 from
  // private.keep_course_learner_records); it is archived instead (POST /:id/archive).
  routes.delete('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.courseNotFound);
    const removed = await db.withCaller(caller.db, async (tx) => {
      await courseToChange(tx, id, caller.userId);
      if (!(await courseDeletable(tx, id))) throw new ApiError(409, MESSAGES.courseHasRecords);
      try {
        const files = await deleteCourse(tx, id);
        if (!files) throw new ApiError(403, NOT_YOURS);
        return files;
      } catch (error) {
        // A learner enrolled between the check and the delete.
        if (pgError(error)?.code === '23503') throw new ApiError(409, MESSAGES.courseHasRecords);
        throw error;
      }
    });
    await removeImages(config, 'course-covers', [objectName(config, 'course-covers', id, removed.cover)]);
    await removeImages(config, 'module-images', removed.images.map((url) => objectName(config, 'module-images', id, url)));
    for (const prefix of removed.scormPrefixes) await removePrefix(config, prefix);
    return c.body(null, 204);
  });

  // What a delete would do: delete the course (no learner records) or nothing, as it must be archived.
  routes.get('/:id/deletion', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.courseNotFound);
    const body = await db.withCaller(caller.db, async (tx): Promise<CourseDeletion> => {
      const course = await courseToChange(tx, id, caller.userId);
      const [{ status }] = await tx<{ status: CourseDeletion['status'] }[]>`
        select status::text as status from public.courses where id = ${course.id}::uuid`;
      return { deletable: await courseDeletable(tx, id), status };
    });
    return c.json(body);
  });

  // Archiving: out of the catalogue and closed to new enrolment, its records kept (any course).
  routes.post('/:id/archive', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.courseNotFound);
    if (optionalJson(c)) await jsonBody(c, z.object({}));
    const course = await db.withCaller(caller.db, async (tx) => {
      await courseToChange(tx, id, caller.userId);
      if (!(await setCourseStatus(tx, id, 'ARCHIVED'))) throw new ApiError(403, NOT_YOURS);
      return await readAuthoredCourse(tx, id);
    });
    return c.json(course);
  });

  // Restoring an archived course makes it a draft: its author publishes it again when it is ready.
  routes.post('/:id/restore', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.courseNotFound);
    if (optionalJson(c)) await jsonBody(c, z.object({}));
    const course = await db.withCaller(caller.db, async (tx) => {
      await courseToChange(tx, id, caller.userId);
      // The rights first (row-level security lets the caller change the row), then the state.
      const [row] = await guarded(() => tx<{ status: string }[]>`
        update public.courses set status = status where id = ${id}::uuid returning status::text as status`);
      if (!row) throw new ApiError(403, NOT_YOURS);
      if (row.status !== 'ARCHIVED') throw new ApiError(409, MESSAGES.courseNotArchived);
      await setCourseStatus(tx, id, 'DRAFT');
      return await readAuthoredCourse(tx, id);
    });
    return c.json(course);
  });

  routes.post('/:id/cover', async (c) => {
    const id = pathId(c, 'id', MSG.courseNotFound);
    await replaceImage(
      config,
      db,
      c,
      'course-covers',
      'coverImage',
      async (tx, userId) => {
        await courseToChange(tx, id, userId);
        return { folder: id };
      },
      async (tx, url) => {
        // The only writer of the column (it checks the caller and that the file is this course's).
        const [row] = await tx<{ old: string | null }[]>`select private.set_course_cover(${id}::uuid, ${url}) as old`;
        return { old: row.old, updated: true };
      },
    );
    const caller = requireUser(c);
    return c.json(await db.withCaller(caller.db, (tx) => readAuthoredCourse(tx, id)));
  });

  // ---- The course's modules

  routes.get('/:courseId/modules', async (c) => {
    const courseId = pathId(c, 'courseId', MSG.courseNotFound);
    const caller = c.get('caller');
    // The rights and the modules in one round trip (the modules of a course the caller cannot see
    // come back empty under row-level security, and their bodies only to those who may read them).
    const [[rightsRow], rows] = await db.read(caller.db, (tx) => [accessQuery(tx, courseId), courseModulesQuery(tx, courseId, userIdOf(caller))]);
    const rights = toAccess(rightsRow);
    if (!rights.visible) throw new ApiError(404, MSG.courseNotFound);
    return c.json(rows.map((row) => toModule(config, row, rights.mayRead)));
  });

  routes.post('/:courseId/modules', async (c) => {
    const caller = requireUser(c);
    const courseId = pathId(c, 'courseId', MSG.courseNotFound);
    // kind 'scorm': a module without a body, whose package is uploaded next (POST /api/modules/:id/scorm);
    // kind 'assessment': a practical assessment, its criteria authored next (/api/modules/:id/assessment).
    const value = await readJson(c);
    const kind = value !== null && typeof value === 'object' ? (value as { kind?: unknown }).kind : undefined;
    if (kind !== undefined && kind !== 'content' && kind !== 'scorm' && kind !== 'session' && kind !== 'assessment') {
      throw new ApiError(400, 'Validation failed', { kind: MODULE_KIND_MESSAGE });
    }
    const input = kind === 'scorm'
      ? checkedBody(scormModuleCreateSchema, value)
      : kind === 'session'
      ? checkedBody(sessionModuleCreateSchema, value)
      : kind === 'assessment'
      ? checkedBody(assessmentModuleCreateSchema, value)
      : checkedBody(moduleCreateSchema, value);
    const module = await db.withCaller(caller.db, async (tx) => {
      await courseToChange(tx, courseId, caller.userId);
      return await readModule(tx, await insertModule(tx, courseId, input));
    });
    return c.json(module, 201);
  });

  routes.put('/:courseId/modules/reorder', async (c) => {
    const caller = requireUser(c);
    const courseId = pathId(c, 'courseId', MSG.courseNotFound);
    const input = await jsonBody(c, moduleReorderSchema);
    const modules = await db.withCaller(caller.db, async (tx) => {
      await courseToChange(tx, courseId, caller.userId);
      try {
        await tx`select private.reorder_modules(${courseId}::uuid, ${input.moduleIds}::uuid[])`;
      } catch (error) {
        if ((error as { code?: string }).code === '22023') {
          throw new ApiError(400, MESSAGES.moduleIds, { moduleIds: MESSAGES.moduleIds });
        }
        if ((error as { code?: string }).code === '42501') throw new ApiError(403, NOT_YOURS);
        throw error;
      }
      return await readModules(tx, courseId);
    });
    return c.json(modules);
  });

  // ---- Enrolment and recertification

  routes.post('/:courseId/enroll', async (c) => {
    const courseId = pathId(c, 'courseId', MSG.courseNotFound);
    const caller = c.get('caller');
    if (caller.kind !== 'user') throw new ApiError(401, MSG.signInToEnrol);
    if (optionalJson(c)) {
      const body = await jsonBody(c, enrollBodySchema);
      if (body.userId && body.userId.toLowerCase() !== caller.userId) throw new ApiError(403, MSG.notYourself);
      if (body.courseId && body.courseId.toLowerCase() !== courseId) {
        throw new ApiError(400, MSG.courseMismatch, { courseId: MSG.courseMismatch });
      }
    }
    const result = await db.withCaller(caller.db, async (tx): Promise<Enrollment | ApiError> => {
      const rights = await access(tx, courseId);
      if (!rights.visible) return new ApiError(404, MSG.courseNotFound);
      if (rights.enrollmentStatus) return new ApiError(409, MSG.alreadyEnrolled);
      // A savepoint, so a refused insert becomes an answer rather than an aborted transaction.
      try {
        const [row] = await tx.savepoint((sp) =>
          sp<Row[]>`insert into public.enrollments (user_id, course_id) values (${caller.userId}::uuid, ${courseId}::uuid)
                    returning id`
        );
        return (await readEnrollment(tx, String(row.id)))!;
      } catch (error) {
        const pg = pgError(error);
        if (pg?.code === '23505') return new ApiError(409, MSG.alreadyEnrolled);
        if (pg?.code === '55000') return new ApiError(409, MESSAGES.courseArchived);
        if (pg?.code === '42501') return new ApiError(403, MSG.notOpen);
        throw error;
      }
    });
    if (result instanceof ApiError) throw result;
    return c.json(result, 201);
  });

  // Recertification: from an expiring or expired certificate, the learner's enrolment starts
  // its next cycle at 0 % with fresh module and quiz progress (private.start_recertification).
  routes.post('/:courseId/recertify', async (c) => {
    const courseId = pathId(c, 'courseId', MSG.courseNotFound);
    const caller = requireUser(c);
    if (optionalJson(c)) await jsonBody(c, z.object({}));
    const result = await db.withCaller(caller.db, async (tx): Promise<Enrollment | ApiError> => {
      try {
        const [row] = await tx.savepoint((sp) => sp<Row[]>`select (private.start_recertification(${courseId}::uuid)).id as id`);
        return (await readEnrollment(tx, String(row.id)))!;
      } catch (error) {
        const pg = pgError(error);
        // Only the messages start_recertification raises on purpose reach the client.
        const message = (error as { message?: string }).message ?? '';
        if (pg?.code === 'P0002') return new ApiError(404, message === MSG.courseNotFound ? MSG.courseNotFound : MSG.enrollmentNotFound);
        if (pg?.code === 'P0409') return new ApiError(409, message);
        if (pg?.code === '42501') return new ApiError(403, 'You may not recertify this course');
        throw error;
      }
    });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  return routes;
}
