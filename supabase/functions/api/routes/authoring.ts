// Authoring (issue 4): course writes, cover and module images, modules and their order, quizzes
// and questions. Every read and write runs as the caller under RLS (withCaller); the explicit
// checks only turn "RLS would refuse" into a clear 403/404 before any work is done. Storage is
// written with the service role only after the caller's right was checked under RLS.
import { Hono } from 'hono';
import type { Context } from 'hono';
import {
  correctAnswerIndexes,
  courseCreateSchema,
  courseUpdateSchema,
  MESSAGES,
  moduleCreateSchema,
  moduleReorderSchema,
  moduleUpdateSchema,
  questionReorderSchema,
  questionSchema,
  quizSchema,
  type AuthoringQuiz,
  type QuizQuestion,
} from '../../_shared/authoring.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { type Bucket, objectName, readImage, removeImages, storeImage } from '../lib/images.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = (what: string) => new ApiError(404, `${what} not found`);
const NOT_YOURS = 'You can only change courses you author';

/** A path id: anything but a uuid is simply "not found". */
function pathId(c: Context, name: string, what: string): string {
  const value = c.req.param(name) ?? '';
  if (!UUID.test(value)) throw notFound(what);
  return value.toLowerCase();
}

/** Database refusals the routes expect, as API answers; anything else stays a 500. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === '42501') throw new ApiError(403, NOT_YOURS);
    if (code === '23514' || code === '22023' || code === '22P02') throw new ApiError(400, 'Validation failed');
    throw error;
  }
}

interface Me {
  role: 'ADMIN' | 'INSTRUCTOR' | 'STUDENT';
  services: string[];
}

async function me(tx: Tx): Promise<Me> {
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
async function courseToChange(tx: Tx, courseId: string, userId: string): Promise<CourseRow> {
  const [course] = await tx<CourseRow[]>`
    select id, author_id, service::text as service, cover_image from public.courses where id = ${courseId}::uuid`;
  if (!course) throw notFound('Course');
  const caller = await me(tx);
  const allowed = caller.role === 'ADMIN' || (caller.role === 'INSTRUCTOR' && course.authorId === userId);
  if (!allowed) throw new ApiError(403, NOT_YOURS);
  return course;
}

async function moduleToChange(tx: Tx, moduleId: string, userId: string) {
  // content and image only through private.module_body (the API roles cannot select them).
  const [module] = await tx<{ id: string; courseId: string; image: string | null }[]>`
    select m.id, m.course_id, b.image from public.course_modules m
    left join lateral private.module_body(m.id) b on true
    where m.id = ${moduleId}::uuid`;
  if (!module) throw notFound('Module');
  await courseToChange(tx, module.courseId, userId);
  return module;
}

async function quizToChange(tx: Tx, quizId: string, userId: string) {
  const [quiz] = await tx<{ id: string; moduleId: string; courseId: string }[]>`
    select q.id, q.module_id, m.course_id
    from public.quizzes q join public.course_modules m on m.id = q.module_id
    where q.id = ${quizId}::uuid`;
  if (!quiz) throw notFound('Quiz');
  await courseToChange(tx, quiz.courseId, userId);
  return quiz;
}

/** The course in the contract's shape (enrollment: the caller's, if any). */
async function readCourse(tx: Tx, courseId: string) {
  const [row] = await tx<Record<string, unknown>[]>`
    select c.id, c.title, c.description, c.service::text as service, c.cover_image, c.author_id,
           c.duration, c.level::text as level, c.featured, c.requires_enrollment, c.status::text as status,
           c.created_at, c.updated_at, c.certificate_valid_months, c.requires_approval,
           coalesce(c.requires_approval, private.course_access() = 'login-approval') as approval_required,
           (select count(*)::int from public.course_modules m where m.course_id = c.id) as modules,
           a.name as author_name, a.username as author_username,
           e.id as enrollment_id, e.progress as enrollment_progress, e.completed as enrollment_completed,
           e.status::text as enrollment_status, e.completed_at as enrollment_completed_at
    from public.courses c
    left join lateral private.course_authors(array[c.id]) a on true
    left join public.enrollments e on e.course_id = c.id and e.user_id = (select auth.uid())
    where c.id = ${courseId}::uuid`;
  if (!row) throw notFound('Course');
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    service: row.service,
    coverImage: row.coverImage ?? null,
    authorId: row.authorId ?? null,
    author: row.authorName ? { name: row.authorName, username: row.authorUsername } : null,
    duration: row.duration,
    level: row.level,
    featured: row.featured,
    requiresEnrollment: row.requiresEnrollment,
    status: row.status,
    modules: row.modules,
    certificateValidMonths: row.certificateValidMonths ?? null,
    requiresApproval: row.requiresApproval ?? null,
    approvalRequired: Boolean(row.approvalRequired),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    enrollment: row.enrollmentId
      ? {
        id: row.enrollmentId,
        progress: row.enrollmentProgress,
        completed: row.enrollmentCompleted,
        status: row.enrollmentStatus,
        completedAt: row.enrollmentCompletedAt ?? null,
      }
      : null,
  };
}

// content and image come from private.module_body (b), joined by moduleSource: the API roles
// cannot select those columns of public.course_modules directly.
const moduleColumns = (tx: Tx) => tx`
  m.id, m.course_id, m.title, coalesce(b.content, '') as content, m.order_index, m.duration, m.has_quiz, b.image,
  m.created_at, m.updated_at,
  exists (select 1 from public.user_module_progress p
          where p.module_id = m.id and p.user_id = (select auth.uid()) and p.completed) as completed`;

const moduleSource = (tx: Tx) => tx`
  public.course_modules m left join lateral private.module_body(m.id) b on true`;

async function readModule(tx: Tx, moduleId: string) {
  const [row] = await tx`select ${moduleColumns(tx)} from ${moduleSource(tx)} where m.id = ${moduleId}::uuid`;
  if (!row) throw notFound('Module');
  return row;
}

async function readModules(tx: Tx, courseId: string) {
  return await tx`
    select ${moduleColumns(tx)} from ${moduleSource(tx)}
    where m.course_id = ${courseId}::uuid order by m.order_index, m.created_at, m.id`;
}

async function readQuestions(tx: Tx, quizId: string): Promise<QuizQuestion[]> {
  return await tx<QuizQuestion[]>`
    select id, quiz_id, question_text, question_type::text as question_type, order_index, points, options,
           correct_answers, explanation, created_at, updated_at
    from public.quiz_questions where quiz_id = ${quizId}::uuid order by order_index, created_at, id`;
}

async function readQuestion(tx: Tx, questionId: string): Promise<QuizQuestion> {
  const [row] = await tx<QuizQuestion[]>`
    select id, quiz_id, question_text, question_type::text as question_type, order_index, points, options,
           correct_answers, explanation, created_at, updated_at
    from public.quiz_questions where id = ${questionId}::uuid`;
  if (!row) throw notFound('Question');
  return row;
}

async function readQuizOfModule(tx: Tx, moduleId: string): Promise<AuthoringQuiz | null> {
  const [quiz] = await tx<Omit<AuthoringQuiz, 'questions'>[]>`
    select id, module_id, title, description, passing_score, time_limit, randomize_questions,
           show_correct_answers, max_attempts, retry_wait_minutes, created_at, updated_at
    from public.quizzes where module_id = ${moduleId}::uuid`;
  if (!quiz) return null;
  return { ...quiz, questions: await readQuestions(tx, quiz.id) };
}

/** New order of a course's modules with `moduleId` moved to `position` (1-based, clamped). */
function movedTo(ids: string[], moduleId: string, position: number): string[] {
  const rest = ids.filter((id) => id !== moduleId);
  const at = Math.max(0, Math.min(rest.length, position - 1));
  return [...rest.slice(0, at), moduleId, ...rest.slice(at)];
}

export function authoringRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  /** Replaces an image column after storing the upload; the old object goes once the row points at the new one. */
  async function replaceImage(
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

  // ------------------------------------------------------------------ courses
  routes.post('/courses', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, courseCreateSchema);
    const course = await db.withCaller(caller.db, async (tx) => {
      const who = await me(tx);
      if (who.role === 'STUDENT') throw new ApiError(403, 'Only instructors and administrators can create courses');
      if (who.role === 'INSTRUCTOR' && !who.services.includes(input.service)) {
        throw new ApiError(403, MESSAGES.courseServices, { service: MESSAGES.courseServices });
      }
      const [row] = await guarded(() => tx<{ id: string }[]>`
        insert into public.courses (title, description, service, level, duration, status, featured, requires_enrollment, author_id,
                                    certificate_valid_months, requires_approval)
        values (${input.title}, ${input.description}, ${input.service}::public.service_code, ${input.level}::public.course_level,
                ${input.duration}, ${input.status}::public.course_status, ${input.featured}, ${input.requiresEnrollment},
                (select auth.uid()), ${input.certificateValidMonths ?? null}::integer, ${input.requiresApproval ?? null}::boolean)
        returning id`);
      return await readCourse(tx, row.id);
    });
    return c.json(course, 201);
  });

  routes.put('/courses/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Course');
    const input = await jsonBody(c, courseUpdateSchema);
    const course = await db.withCaller(caller.db, async (tx) => {
      await courseToChange(tx, id, caller.userId);
      const who = await me(tx);
      if (who.role === 'INSTRUCTOR' && input.service !== undefined && !who.services.includes(input.service)) {
        throw new ApiError(403, MESSAGES.courseServices, { service: MESSAGES.courseServices });
      }
      const rows = await guarded(() => tx`
        update public.courses set
          title = coalesce(${input.title ?? null}, title),
          description = coalesce(${input.description ?? null}, description),
          service = coalesce(${input.service ?? null}::public.service_code, service),
          level = coalesce(${input.level ?? null}::public.course_level, level),
          duration = coalesce(${input.duration ?? null}::integer, duration),
          status = coalesce(${input.status ?? null}::public.course_status, status),
          featured = coalesce(${input.featured ?? null}::boolean, featured),
          requires_enrollment = coalesce(${input.requiresEnrollment ?? null}::boolean, requires_enrollment),
          -- null clears it (never expires); absent leaves it as it is.
          certificate_valid_months = case when ${input.certificateValidMonths !== undefined}::boolean
            then ${input.certificateValidMonths ?? null}::integer else certificate_valid_months end,
          -- null: follow the site rule; absent leaves it as it is.
          requires_approval = case when ${input.requiresApproval !== undefined}::boolean
            then ${input.requiresApproval ?? null}::boolean else requires_approval end
        where id = ${id}::uuid
        returning id`);
      // RLS's with-check (e.g. a service outside the instructor's) refuses by raising; no row: refused.
      if (rows.length === 0) throw new ApiError(403, NOT_YOURS);
      return await readCourse(tx, id);
    });
    return c.json(course);
  });

  routes.delete('/courses/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Course');
    const removed = await db.withCaller(caller.db, async (tx) => {
      await courseToChange(tx, id, caller.userId);
      const images = await tx<{ image: string }[]>`
        select b.image from public.course_modules m
        cross join lateral private.module_body(m.id) b
        where m.course_id = ${id}::uuid and b.image is not null`;
      const [row] = await guarded(() => tx<{ coverImage: string | null }[]>`
        delete from public.courses where id = ${id}::uuid returning cover_image`);
      if (!row) throw new ApiError(403, NOT_YOURS);
      return { cover: row.coverImage, images: images.map((r) => r.image) };
    });
    await removeImages(config, 'course-covers', [objectName(config, 'course-covers', id, removed.cover)]);
    await removeImages(config, 'module-images', removed.images.map((url) => objectName(config, 'module-images', id, url)));
    return c.body(null, 204);
  });

  routes.post('/courses/:id/cover', async (c) => {
    const id = pathId(c, 'id', 'Course');
    await replaceImage(
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
    return c.json(await db.withCaller(caller.db, (tx) => readCourse(tx, id)));
  });

  // ------------------------------------------------------------------ modules
  routes.post('/courses/:courseId/modules', async (c) => {
    const caller = requireUser(c);
    const courseId = pathId(c, 'courseId', 'Course');
    const input = await jsonBody(c, moduleCreateSchema);
    const module = await db.withCaller(caller.db, async (tx) => {
      await courseToChange(tx, courseId, caller.userId);
      const [{ count }] = await tx<{ count: number }[]>`
        select count(*)::int as count from public.course_modules where course_id = ${courseId}::uuid`;
      // A position inside the list pushes the later modules down; beyond the end is the end.
      const position = Math.min(input.orderIndex ?? count + 1, count + 1);
      await guarded(() => tx`
        update public.course_modules set order_index = order_index + 1
        where course_id = ${courseId}::uuid and order_index >= ${position}`);
      const [row] = await guarded(() => tx<{ id: string }[]>`
        insert into public.course_modules (course_id, title, content, order_index, duration)
        values (${courseId}::uuid, ${input.title}, ${input.content}, ${position}, ${input.duration})
        returning id`);
      await tx`select private.renumber_modules(${courseId}::uuid)`;
      return await readModule(tx, row.id);
    });
    return c.json(module, 201);
  });

  routes.put('/courses/:courseId/modules/reorder', async (c) => {
    const caller = requireUser(c);
    const courseId = pathId(c, 'courseId', 'Course');
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

  routes.put('/modules/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Module');
    const input = await jsonBody(c, moduleUpdateSchema);
    const module = await db.withCaller(caller.db, async (tx) => {
      const current = await moduleToChange(tx, id, caller.userId);
      // Only the provided columns are set: the API roles may not read content, so no
      // `content = coalesce(x, content)`. With none (only orderIndex), `title = title` still checks
      // the caller may update the row.
      const values: Record<string, string | number> = {};
      if (input.title != null) values.title = input.title;
      if (input.content != null) values.content = input.content;
      if (input.duration != null) values.duration = input.duration;
      const columns = Object.keys(values);
      const rows = await guarded(() => tx`
        update public.course_modules set ${columns.length ? tx(values, columns) : tx`title = title`}
        where id = ${id}::uuid returning id`);
      if (rows.length === 0) throw new ApiError(403, NOT_YOURS);
      if (input.orderIndex !== undefined) {
        const ids = (await tx<{ id: string }[]>`
          select id from public.course_modules where course_id = ${current.courseId}::uuid
          order by order_index, created_at, id`).map((r) => r.id);
        const order = movedTo(ids, id, input.orderIndex);
        await guarded(() => tx`select private.reorder_modules(${current.courseId}::uuid, ${order}::uuid[])`);
      }
      return await readModule(tx, id);
    });
    return c.json(module);
  });

  routes.delete('/modules/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Module');
    const removed = await db.withCaller(caller.db, async (tx) => {
      const current = await moduleToChange(tx, id, caller.userId);
      const rows = await guarded(() => tx`delete from public.course_modules where id = ${id}::uuid returning id`);
      if (rows.length === 0) throw new ApiError(403, NOT_YOURS);
      await tx`select private.renumber_modules(${current.courseId}::uuid)`;
      return { image: current.image, courseId: current.courseId };
    });
    await removeImages(config, 'module-images', [objectName(config, 'module-images', removed.courseId, removed.image)]);
    return c.body(null, 204);
  });

  routes.post('/modules/:id/images', async (c) => {
    const id = pathId(c, 'id', 'Module');
    await replaceImage(
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

  // ------------------------------------------------------------------ quizzes
  // The learner's GET /api/modules/:id/quiz (no answers) belongs to routes/courses.ts; the
  // author's view with answers has its own path.
  routes.get('/modules/:id/quiz/authoring', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Module');
    const quiz = await db.withCaller(caller.db, async (tx) => {
      await moduleToChange(tx, id, caller.userId);
      return await readQuizOfModule(tx, id);
    });
    return c.json(quiz);
  });

  routes.put('/modules/:id/quiz', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Module');
    const input = await jsonBody(c, quizSchema);
    const { quiz, created } = await db.withCaller(caller.db, async (tx) => {
      await moduleToChange(tx, id, caller.userId);
      const [row] = await guarded(() => tx<{ inserted: boolean }[]>`
        insert into public.quizzes (module_id, title, description, passing_score, time_limit, randomize_questions,
                                    show_correct_answers, max_attempts, retry_wait_minutes)
        values (${id}::uuid, ${input.title}, ${input.description ?? null}, ${input.passingScore},
                ${input.timeLimit ?? null}::integer, ${input.randomizeQuestions},
                ${input.showCorrectAnswers ?? 'AFTER_PASSING'}, ${input.maxAttempts ?? null}::integer,
                ${input.retryWaitMinutes ?? 0}::integer)
        on conflict (module_id) do update set
          title = excluded.title, description = excluded.description, passing_score = excluded.passing_score,
          time_limit = excluded.time_limit, randomize_questions = excluded.randomize_questions,
          -- Quiz integrity settings left out of the body keep their stored values.
          show_correct_answers = case when ${input.showCorrectAnswers !== undefined} then excluded.show_correct_answers
                                      else public.quizzes.show_correct_answers end,
          max_attempts = case when ${input.maxAttempts !== undefined} then excluded.max_attempts else public.quizzes.max_attempts end,
          retry_wait_minutes = case when ${input.retryWaitMinutes !== undefined} then excluded.retry_wait_minutes
                                    else public.quizzes.retry_wait_minutes end
        returning (xmax = 0) as inserted`);
      return { quiz: await readQuizOfModule(tx, id), created: row.inserted };
    });
    return c.json(quiz, created ? 201 : 200);
  });

  routes.delete('/modules/:id/quiz', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Module');
    await db.withCaller(caller.db, async (tx) => {
      await moduleToChange(tx, id, caller.userId);
      const rows = await guarded(() => tx`delete from public.quizzes where module_id = ${id}::uuid returning id`);
      if (rows.length === 0) throw notFound('Quiz');
    });
    return c.body(null, 204);
  });

  // ------------------------------------------------------------------ questions
  routes.post('/quizzes/:id/questions', async (c) => {
    const caller = requireUser(c);
    const quizId = pathId(c, 'id', 'Quiz');
    const input = await jsonBody(c, questionSchema);
    const question = await db.withCaller(caller.db, async (tx) => {
      await quizToChange(tx, quizId, caller.userId);
      const [row] = await guarded(() => tx<{ id: string }[]>`
        insert into public.quiz_questions (quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
        values (${quizId}::uuid, ${input.questionText}, ${input.questionType}::public.question_type,
                (select count(*)::int + 1 from public.quiz_questions where quiz_id = ${quizId}::uuid),
                ${input.points}, ${tx.json(input.options)}, ${tx.json(correctAnswerIndexes(input.options))},
                ${input.explanation ?? null})
        returning id`);
      return await readQuestion(tx, row.id);
    });
    return c.json(question, 201);
  });

  routes.put('/quizzes/:id/questions/reorder', async (c) => {
    const caller = requireUser(c);
    const quizId = pathId(c, 'id', 'Quiz');
    const input = await jsonBody(c, questionReorderSchema);
    const questions = await db.withCaller(caller.db, async (tx) => {
      await quizToChange(tx, quizId, caller.userId);
      try {
        await tx`select private.reorder_quiz_questions(${quizId}::uuid, ${input.questionIds}::uuid[])`;
      } catch (error) {
        if ((error as { code?: string }).code === '22023') {
          throw new ApiError(400, MESSAGES.questionIds, { questionIds: MESSAGES.questionIds });
        }
        if ((error as { code?: string }).code === '42501') throw new ApiError(403, NOT_YOURS);
        throw error;
      }
      return await readQuestions(tx, quizId);
    });
    return c.json(questions);
  });

  routes.put('/questions/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Question');
    const input = await jsonBody(c, questionSchema);
    const question = await db.withCaller(caller.db, async (tx) => {
      // Questions are visible only to their authors and admins: anyone else gets 404.
      const current = await readQuestion(tx, id);
      await quizToChange(tx, current.quizId, caller.userId);
      const rows = await guarded(() => tx`
        update public.quiz_questions set
          question_text = ${input.questionText}, question_type = ${input.questionType}::public.question_type,
          points = ${input.points}, options = ${tx.json(input.options)},
          correct_answers = ${tx.json(correctAnswerIndexes(input.options))}, explanation = ${input.explanation ?? null}
        where id = ${id}::uuid returning id`);
      if (rows.length === 0) throw new ApiError(403, NOT_YOURS);
      return await readQuestion(tx, id);
    });
    return c.json(question);
  });

  routes.delete('/questions/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Question');
    await db.withCaller(caller.db, async (tx) => {
      const current = await readQuestion(tx, id);
      await quizToChange(tx, current.quizId, caller.userId);
      const rows = await guarded(() => tx`delete from public.quiz_questions where id = ${id}::uuid returning id`);
      if (rows.length === 0) throw new ApiError(403, NOT_YOURS);
      await tx`select private.renumber_quiz_questions(${current.quizId}::uuid)`;
    });
    return c.body(null, 204);
  });

  return routes;
}
