// /api/modules/:id: a module as the learner reads it (opening it is remembered, reading it marks it
// read), its quiz as the learner takes it, the author's writes (change, delete, image, quiz), and its
// SCORM package (./scorm/).
// SQL and row mapping: ./queries.ts and ./quiz.ts; the rights: ../../lib/learning.ts and authoring.ts.
import { Hono } from 'hono';
import { z } from 'zod';
import { MESSAGES, moduleUpdateSchema, quizSchema } from '../../../_shared/authoring.ts';
import type { ModuleDetail } from '../../../_shared/catalogue.ts';
import type { Enrollment } from '../../../_shared/enrollment.ts';
import type { LearnerQuiz, AnswerDisplay, QuizAttempts } from '../../../_shared/quiz.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody, optionalJson } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';
import { objectName, removeImages } from '../../lib/images.ts';
import { pathId } from '../../lib/params.ts';
import { guarded, moduleToChange, NOT_YOURS, notFound, replaceImage } from '../../lib/authoring.ts';
import { access, AttemptFailed, attemptRefusal, MSG, quizAttempts, readEnrollment, refusal, type Row, userIdOf } from '../../lib/learning.ts';
import { readQuizOfModule } from '../quizzes/queries.ts';
import { readModule, readModuleDetail, toModule, updateModule } from './queries.ts';
import { openLearnerQuiz, upsertQuiz } from './quiz.ts';
import { moduleScormRoutes } from './scorm/index.ts';
import { removePrefix } from '../../lib/scorm/storage.ts';

export function moduleRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  // ---- The learner's module

  routes.get('/:id', async (c) => {
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const caller = c.get('caller');
    const detail = await db.withCaller(caller.db, async (tx): Promise<ModuleDetail | ApiError> => {
      const row = await readModuleDetail(tx, id, userIdOf(caller));
      if (!row) return new ApiError(404, MSG.moduleNotFound);
      const courseId = String(row.courseId);
      const rights = await access(tx, courseId);
      if (!rights.visible) return new ApiError(404, MSG.moduleNotFound);
      if (!rights.mayRead) return refusal(caller, rights.enrollmentStatus, 'read');
      // Remembered so the course page can continue from here (enrolled learners only).
      if (rights.studiable) await tx`select private.open_module(${id}::uuid)`;
      const maxAttempts = row.maxAttempts == null ? null : Number(row.maxAttempts);
      const attempts: QuizAttempts | null = !row.quizId
        ? null
        : caller.kind === 'user'
        ? await quizAttempts(tx, String(row.quizId))
        : { used: 0, max: maxAttempts, remaining: maxAttempts, nextAttemptAt: null };
      return toModuleDetail(row, courseId, attempts, rights.enrollmentStatus === 'ACTIVE');
    });
    if (detail instanceof ApiError) throw detail;
    return c.json(detail);
  });

  function toModuleDetail(row: Row, courseId: string, attempts: QuizAttempts | null, enrolled: boolean): ModuleDetail {
    return {
      ...toModule(config, row, true),
      content: String(row.content ?? ''),
      previousId: (row.previousId as string | null) ?? null,
      nextId: (row.nextId as string | null) ?? null,
      position: Number(row.position),
      total: Number(row.total),
      course: {
        id: courseId,
        title: String(row.courseTitle),
        titleCy: (row.courseTitleCy as string | null) ?? null,
        service: String(row.courseService),
        requiresEnrollment: Boolean(row.requiresEnrollment),
      },
      quiz: row.quizId
        ? {
          id: String(row.quizId),
          title: String(row.quizTitle),
          description: (row.quizDescription as string | null) ?? null,
          titleCy: (row.quizTitleCy as string | null) ?? null,
          descriptionCy: (row.quizDescriptionCy as string | null) ?? null,
          passingScore: Number(row.passingScore),
          timeLimit: row.timeLimit == null ? null : Number(row.timeLimit),
          showCorrectAnswers: String(row.showCorrectAnswers) as AnswerDisplay,
          attempts: attempts!,
        }
        : null,
      enrolled,
    };
  }

  routes.put('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const input = await jsonBody(c, moduleUpdateSchema);
    const module = await db.withCaller(caller.db, async (tx) => {
      const current = await moduleToChange(tx, id, caller.userId);
      // A SCORM package is one language: its module has no Welsh body.
      if (current.kind === 'scorm' && input.contentCy != null) {
        throw new ApiError(400, 'Validation failed', { contentCy: MESSAGES.contentCyScorm });
      }
      if (!(await updateModule(tx, id, current.courseId, input))) throw new ApiError(403, NOT_YOURS);
      return await readModule(tx, id);
    });
    return c.json(module);
  });

  routes.delete('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const removed = await db.withCaller(caller.db, async (tx) => {
      const current = await moduleToChange(tx, id, caller.userId);
      const [pkg] = await tx<{ storagePrefix: string }[]>`select storage_prefix from public.scorm_packages where module_id = ${id}::uuid`;
      const rows = await guarded(() => tx`delete from public.course_modules where id = ${id}::uuid returning id`);
      if (rows.length === 0) throw new ApiError(403, NOT_YOURS);
      await tx`select private.renumber_modules(${current.courseId}::uuid)`;
      return { image: current.image, courseId: current.courseId, scormPrefix: pkg?.storagePrefix ?? null };
    });
    await removeImages(config, 'module-images', [objectName(config, 'module-images', removed.courseId, removed.image)]);
    // A SCORM module's unpacked files go with it (after the delete has committed).
    if (removed.scormPrefix) await removePrefix(config, removed.scormPrefix);
    return c.body(null, 204);
  });

  routes.post('/:id/complete', async (c) => {
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const caller = requireUser(c);
    if (optionalJson(c)) await jsonBody(c, z.object({}));
    const result = await db.withCaller(caller.db, async (tx): Promise<Enrollment | ApiError> => {
      const rights = await access(tx, { ofModule: id });
      if (!rights.visible) return new ApiError(404, MSG.moduleNotFound);
      if (!rights.studiable) return refusal(caller, rights.enrollmentStatus, 'read');
      // A SCORM module completes only when its package reports it (private.scorm_save): say so.
      const [kind] = await tx<Row[]>`select m.kind from public.course_modules m where m.id = ${id}::uuid`;
      if (kind?.kind === 'scorm') return new ApiError(409, MSG.scormCompletesItself);
      const [marked] = await tx<Row[]>`select (private.mark_module_read(${id}::uuid)).id as id`;
      if (!marked?.id) return new ApiError(409, MSG.notEnrolledProgress);
      return (await readEnrollment(tx, String(marked.id)))!;
    });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  routes.post('/:id/images', async (c) => {
    const id = pathId(c, 'id', MSG.moduleNotFound);
    await replaceImage(
      config,
      db,
      c,
      'module-images',
      'moduleImage',
      async (tx, userId) => {
        const module = await moduleToChange(tx, id, userId);
        return { folder: module.courseId };
      },
      async (tx, url) => {
        // The only writer of the column (it checks the caller and that the file is this course's).
        const [row] = await tx<{ old: string | null }[]>`select private.set_module_image(${id}::uuid, ${url}) as old`;
        return { old: row.old, updated: true };
      },
    );
    const caller = requireUser(c);
    return c.json(await db.withCaller(caller.db, (tx) => readModule(tx, id)));
  });

  // ---- The module's quiz: the learner's copy (no answers), and the author's with its own path

  routes.get('/:id/quiz', async (c) => {
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const caller = c.get('caller');
    const result = await db.withCaller(caller.db, (tx): Promise<LearnerQuiz | ApiError> => openLearnerQuiz(tx, caller, id))
      .catch(async (error) => {
        if (!(error instanceof AttemptFailed)) throw error;
        throw await attemptRefusal(db, caller.db, error.quizId, error.cause) ?? error.cause;
      });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  routes.get('/:id/quiz/authoring', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const quiz = await db.withCaller(caller.db, async (tx) => {
      await moduleToChange(tx, id, caller.userId);
      return await readQuizOfModule(tx, id);
    });
    return c.json(quiz);
  });

  routes.put('/:id/quiz', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const input = await jsonBody(c, quizSchema);
    const { quiz, created } = await db.withCaller(caller.db, async (tx) => {
      await moduleToChange(tx, id, caller.userId);
      const created = await upsertQuiz(tx, id, input);
      return { quiz: await readQuizOfModule(tx, id), created };
    });
    return c.json(quiz, created ? 201 : 200);
  });

  routes.delete('/:id/quiz', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    await db.withCaller(caller.db, async (tx) => {
      await moduleToChange(tx, id, caller.userId);
      const rows = await guarded(() => tx`delete from public.quizzes where module_id = ${id}::uuid returning id`);
      if (rows.length === 0) throw notFound('Quiz');
    });
    return c.body(null, 204);
  });

  // ---- The SCORM package: the author's upload and settings, the player, sessions, the instructor's view
  routes.route('/:id/scorm', moduleScormRoutes(config, db));

  return routes;
}
