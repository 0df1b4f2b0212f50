// The learner's journey (issue 3): catalogue, course, modules, enrolment, progress and quizzes.
// Every query runs as the caller under RLS (withCaller); progress, scores and attempts are written
// only by the private security-definer SQL functions, which check the caller themselves.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import type postgres from 'postgres';
import {
  type Course,
  type CourseModule,
  courseListQuerySchema,
  type Enrollment,
  enrollBodySchema,
  enrollmentUpdateSchema,
  type ModuleDetail,
  type PagedList,
  uuidSchema,
} from '../../_shared/catalogue.ts';
import {
  type AnswerDisplay,
  type LearnerQuiz,
  noAttemptsLeftMessage,
  QUIZ_GRACE_SECONDS,
  quizAnswersSchema,
  type QuizAttempts,
  type QuizResult,
  retryWaitMessage,
} from '../../_shared/quiz.ts';
import type { Config } from '../lib/config.ts';
import { containsPattern, type Db, type Statements, type Tx } from '../lib/db.ts';
import { type Caller, type Env, requireUser } from '../lib/auth.ts';
import { jsonBody, validate } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';

export const MSG = {
  courseNotFound: 'Course not found',
  moduleNotFound: 'Module not found',
  quizNotFound: 'Quiz not found',
  enrollmentNotFound: 'Enrolment not found',
  enrolToRead: 'Enrol in this course to read its modules',
  enrolToQuiz: 'Enrol in this course to take its quiz',
  signInToRead: 'Sign in to read the modules of this course',
  signInToQuiz: 'Sign in to take this quiz',
  signInToEnrol: 'Sign in to enrol',
  pending: 'Your enrolment is waiting for approval',
  alreadyEnrolled: 'You are already enrolled in this course',
  notOpen: 'This course is not open for enrolment',
  notYourself: 'You can only enrol yourself',
  courseMismatch: 'The course in the body does not match the address',
  notEnrolledProgress: 'Enrol in this course to keep your progress',
  timeUp: 'Time is up: answers must arrive within the time limit. Open the quiz again to retry.',
  notStarted: 'Open the quiz before submitting your answers',
  attemptStartedInWait: 'This attempt began before the wait after your last attempt was over. Open the quiz again to retry.',
} as const;

type Row = Record<string, unknown>;

const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
const isoOrNull = (value: unknown): string | null => (value == null ? null : iso(value));

/** A stored image (a full URL, or a path in the bucket) as a public URL. */
export function publicUrl(config: Config, bucket: string, value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (/^https?:\/\//i.test(value)) return value;
  const path = value.replace(/^\/+/, '').replace(new RegExp(`^${bucket}/`), '');
  return `${config.supabaseUrl}/storage/v1/object/public/${bucket}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** A path parameter that must be a uuid: anything else is simply not found. */
function idParam(c: Context, name: string, notFound: string): string {
  const parsed = uuidSchema.safeParse(c.req.param(name));
  if (!parsed.success) throw new ApiError(404, notFound);
  return parsed.data.toLowerCase();
}

interface PgErrorLike {
  code?: string;
  hint?: string;
}
function pgError(error: unknown): PgErrorLike | null {
  return error && typeof error === 'object' && 'code' in error && typeof (error as PgErrorLike).code === 'string'
    ? (error as PgErrorLike)
    : null;
}

/** The caller's attempts at a quiz (private.quiz_attempt_status; issue 15, quiz integrity). */
async function quizAttempts(tx: Tx, quizId: string): Promise<QuizAttempts> {
  const [row] = await tx<Row[]>`select * from private.quiz_attempt_status(${quizId}::uuid)`;
  return {
    used: Number(row?.attemptsUsed ?? 0),
    max: row?.maxAttempts == null ? null : Number(row.maxAttempts),
    remaining: row?.attemptsRemaining == null ? null : Number(row.attemptsRemaining),
    nextAttemptAt: isoOrNull(row?.nextAttemptAt),
  };
}

/** A start or a submission the quiz's maximum or wait refuses (55000 from the database): 409 with
 * what the learner can do, and Retry-After while waiting. Null for any other error. */
async function attemptRefusal(tx: Tx, quizId: string, error: unknown): Promise<ApiError | null> {
  const pg = pgError(error);
  if (pg?.code !== '55000' || (pg.hint !== 'quiz_no_attempts_left' && pg.hint !== 'quiz_retry_wait')) return null;
  const attempts = await quizAttempts(tx, quizId);
  if (pg.hint === 'quiz_no_attempts_left') return new ApiError(409, noAttemptsLeftMessage(attempts.max ?? attempts.used));
  // A running attempt that began within the wait (the wait is over now): the next start restarts it.
  if (attempts.nextAttemptAt == null) return new ApiError(409, MSG.attemptStartedInWait);
  const seconds = Math.max(1, Math.ceil((new Date(attempts.nextAttemptAt).getTime() - Date.now()) / 1000));
  return new ApiError(409, retryWaitMessage(attempts.nextAttemptAt), undefined, { 'Retry-After': String(seconds) });
}

/** Optional JSON body: none (or empty) is {}; anything sent must be valid JSON. */
async function optionalJson(c: Context): Promise<boolean> {
  const length = c.req.header('content-length');
  const type = c.req.header('content-type');
  if (!type && (length === undefined || length === '0')) return false;
  if (!type && length !== '0') throw new ApiError(415, 'Send the body as application/json');
  return true;
}

function userIdOf(caller: Caller): string | null {
  return caller.kind === 'user' ? caller.userId : null;
}

export function courseRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  function toCourse(row: Row): Course {
    return {
      id: String(row.id),
      title: String(row.title),
      description: String(row.description),
      service: String(row.service),
      coverImage: publicUrl(config, 'course-covers', row.coverImage),
      authorId: (row.authorId as string | null) ?? null,
      author: row.authorUsername ? { name: String(row.authorName), username: String(row.authorUsername) } : null,
      duration: Number(row.duration),
      level: String(row.level),
      featured: Boolean(row.featured),
      requiresEnrollment: Boolean(row.requiresEnrollment),
      status: String(row.status),
      modules: Number(row.modules ?? 0),
      certificateValidMonths: row.certificateValidMonths == null ? null : Number(row.certificateValidMonths),
      requiresApproval: row.requiresApproval == null ? null : Boolean(row.requiresApproval),
      approvalRequired: Boolean(row.approvalRequired),
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
      enrollment: row.enrollmentId
        ? {
          id: String(row.enrollmentId),
          progress: Number(row.enrollmentProgress),
          completed: Boolean(row.enrollmentCompleted),
          status: row.enrollmentStatus as 'PENDING' | 'ACTIVE',
          completedAt: isoOrNull(row.enrollmentCompletedAt),
          certificateId: (row.enrollmentCertificateId as string | null) ?? null,
        }
        : null,
    };
  }

  /** Courses with module counts, public author names and the caller's enrolment, in ONE query. */
  /** A page of courses with their module counts, authors and the caller's enrolment (not yet run). */
  function selectCourses(tx: Statements, userId: string | null, where: postgres.PendingQuery<postgres.Row[]>, limit: number, offset: number) {
    // The caller's enrolment and, once it is complete, the certificate it earned (the latest of the
    // course, not revoked: certificates_user_course_cycle_key), joined per row of the same statement.
    const enrollmentJoin = userId
      ? tx`left join public.enrollments e on e.course_id = p.id and e.user_id = ${userId}::uuid
           left join lateral (
             select ct.id from public.certificates ct
             where e.completed and ct.user_id = e.user_id and ct.course_id = e.course_id and ct.revoked_at is null
             order by ct.cycle desc, ct.issued_at desc
             limit 1
           ) cert on true`
      : tx`left join (select null::uuid as id, null::int as progress, null::boolean as completed,
                             null::text as status, null::timestamptz as completed_at, null::uuid as course_id) e on false
           left join (select null::uuid as id) cert on false`;
    return tx<Row[]>`
      with page as (
        select c.* from public.courses c
        where true ${where}
        order by c.featured desc, c.created_at desc, c.id
        limit ${limit} offset ${offset}
      )
      select p.id, p.title, p.description, p.service::text as service, p.cover_image, p.author_id, p.duration,
             p.level::text as level, p.featured, p.requires_enrollment, p.status::text as status,
             p.created_at, p.updated_at, coalesce(a.modules, 0) as modules, p.certificate_valid_months,
             p.requires_approval, coalesce(p.requires_approval, private.course_access() = 'login-approval') as approval_required,
             a.username as author_username, a.name as author_name,
             e.id as enrollment_id, e.progress as enrollment_progress, e.completed as enrollment_completed,
             e.status::text as enrollment_status, e.completed_at as enrollment_completed_at,
             cert.id as enrollment_certificate_id
      from page p
      -- Module counts and authors of the visible courses of the page, in one call.
      left join private.course_summaries(array(select id from page)) a on a.course_id = p.id
      ${enrollmentJoin}
      order by p.featured desc, p.created_at desc, p.id`;
  }

  async function readEnrollment(tx: Tx, id: string): Promise<Enrollment | null> {
    const [row] = await tx<Row[]>`
      select e.id, e.user_id, e.course_id, e.progress, e.completed, e.status::text as status, e.started_at,
             e.completed_at, e.last_accessed_module_id,
             c.id as c_id, c.title as c_title, c.description as c_description, c.service::text as c_service,
             c.duration as c_duration,
             (select count(*)::int from public.course_modules m where m.course_id = e.course_id) as c_modules,
             (select ct.id from public.certificates ct
               where e.completed and ct.user_id = e.user_id and ct.course_id = e.course_id and ct.revoked_at is null
               order by ct.cycle desc, ct.issued_at desc limit 1) as certificate_id
      from public.enrollments e
      left join public.courses c on c.id = e.course_id
      where e.id = ${id}::uuid`;
    if (!row) return null;
    return {
      id: String(row.id),
      userId: String(row.userId),
      courseId: String(row.courseId),
      progress: Number(row.progress),
      completed: Boolean(row.completed),
      status: row.status as 'PENDING' | 'ACTIVE',
      startedAt: iso(row.startedAt),
      completedAt: isoOrNull(row.completedAt),
      lastAccessedModuleId: (row.lastAccessedModuleId as string | null) ?? null,
      certificateId: (row.certificateId as string | null) ?? null,
      course: row.cId
        ? {
          id: String(row.cId),
          title: String(row.cTitle),
          description: String(row.cDescription),
          service: String(row.cService),
          duration: Number(row.cDuration),
          modules: Number(row.cModules),
        }
        : null,
    };
  }

  /**
   * What the caller may do with a course: see it, study its content, and their enrolment status.
   * The course is given by id, or as the course of a module, so that a module's route needs no
   * statement of its own to find it (a module the caller cannot see has no course: not visible).
   */
  async function access(tx: Tx, course: string | { ofModule: string }) {
    const [row] = await accessQuery(tx, course);
    return toAccess(row);
  }

  /** The statement of `access`, not yet run (for a read that sends it with others). */
  function accessQuery(tx: Statements, course: string | { ofModule: string }) {
    const courseId = typeof course === 'string'
      ? tx`${course}::uuid`
      : tx`(select m.course_id from public.course_modules m where m.id = ${course.ofModule}::uuid)`;
    return tx<Row[]>`
      with target as (select ${courseId} as id)
      select private.can_view_course(t.id) as visible,
             private.can_study_course(t.id) as studiable,
             (select c.requires_enrollment from public.courses c where c.id = t.id) as requires_enrollment,
             (select e.status::text from public.enrollments e
               where e.course_id = t.id and e.user_id = (select auth.uid())) as enrollment_status
      from target t`;
  }

  function toAccess(row: Row) {
    const visible = Boolean(row.visible);
    const studiable = Boolean(row.studiable);
    return {
      visible,
      // requiresEnrollment false: anyone who can see the course reads it (DESIGN.md §3), visitors too.
      mayRead: visible && (studiable || row.requiresEnrollment === false),
      studiable,
      enrollmentStatus: (row.enrollmentStatus as string | null) ?? null,
    };
  }

  function refusal(caller: Caller, enrollmentStatus: string | null, kind: 'read' | 'quiz'): ApiError {
    if (caller.kind !== 'user') return new ApiError(401, kind === 'read' ? MSG.signInToRead : MSG.signInToQuiz);
    if (enrollmentStatus === 'PENDING') return new ApiError(403, MSG.pending);
    return new ApiError(403, kind === 'read' ? MSG.enrolToRead : MSG.enrolToQuiz);
  }

  function toModule(row: Row, withContent: boolean): CourseModule {
    return {
      id: String(row.id),
      courseId: String(row.courseId),
      title: String(row.title),
      content: withContent ? String(row.content ?? '') : null,
      orderIndex: Number(row.orderIndex),
      duration: Number(row.duration),
      hasQuiz: Boolean(row.hasQuiz),
      image: withContent ? publicUrl(config, 'module-images', row.image) : null,
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
      completed: Boolean(row.completed),
      read: Boolean(row.read),
      quizPassed: Boolean(row.quizPassed),
    };
  }

  // ---- Catalogue ----

  /** The distinct words of a search, at most six (a longer query adds nothing a person needs). */
  function searchWords(search: string | undefined): string[] {
    return [...new Set((search ?? '').toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 6);
  }

  routes.get('/courses', async (c) => {
    const query = validate(courseListQuerySchema, c.req.query());
    const caller = c.get('caller');
    const userId = userIdOf(caller);
    if (query.mine && !userId) throw new ApiError(401, 'Sign in to list your own courses');
    const [[{ total }], rows] = await db.read(caller.db, (tx) => {
      // The matching ids come from the trigram indexes (private.course_search_ids: under row-level
      // security an ILIKE of the query itself cannot use them); the rows are read under RLS as ever.
      // Every word of the query, in any order, in the title or the description (issue 15: "smart
      // motorways safety" found nothing): one index-backed match per word.
      const patterns = searchWords(query.search).map(containsPattern);
      const pattern = patterns.length > 0;
      const where = tx`
        ${query.service ? tx`and c.service = ${query.service}::public.service_code` : tx``}
        ${query.status ? tx`and c.status = ${query.status}::public.course_status` : tx``}
        ${query.mine ? tx`and c.author_id = ${userId}::uuid` : tx``}
        ${patterns.reduce((words, p) => tx`${words} and c.id in (select private.course_search_ids(${p}))`, tx``)}`;
      // The total: without a search or "mine", from the kept per-status-and-service counts
      // (private.visible_course_count, the rule of the courses policies) rather than a count of every
      // visible course; a search or "mine" counts its matches.
      const totalQuery = pattern || query.mine
        ? tx<{ total: number }[]>`select count(*)::int as total from public.courses c where true ${where}`
        : tx<{ total: number }[]>`
            select private.visible_course_count(${query.service ?? null}::public.service_code,
                                                ${query.status ?? null}::public.course_status) as total`;
      return [totalQuery, selectCourses(tx, userId, where, query.pageSize, (query.page - 1) * query.pageSize)];
    }, { genericPlans: true });
    const body: PagedList<Course> = {
      items: rows.map(toCourse),
      total: Number(total),
      page: query.page,
      pageSize: query.pageSize,
    };
    return c.json(body);
  });

  routes.get('/courses/:id', async (c) => {
    const id = idParam(c, 'id', MSG.courseNotFound);
    const caller = c.get('caller');
    const [rows] = await db.read(caller.db, (tx) => [selectCourses(tx, userIdOf(caller), tx`and c.id = ${id}::uuid`, 1, 0)], {
      genericPlans: true,
    });
    if (!rows[0]) throw new ApiError(404, MSG.courseNotFound);
    return c.json(toCourse(rows[0]));
  });

  routes.get('/courses/:courseId/modules', async (c) => {
    const courseId = idParam(c, 'courseId', MSG.courseNotFound);
    const caller = c.get('caller');
    const userId = userIdOf(caller);
    // The rights and the modules in one round trip (the modules of a course the caller cannot see
    // come back empty under row-level security, and their bodies only to those who may read them).
    const [[rightsRow], rows] = await db.read(caller.db, (tx) => [accessQuery(tx, courseId), tx<Row[]>`
        select m.id, m.course_id, m.title, b.content, m.order_index, m.duration,
               (m.has_quiz or q.id is not null) as has_quiz, b.image, m.created_at, m.updated_at,
               coalesce(p.completed, false) as completed, (p.read_at is not null) as read,
               coalesce(p.quiz_passed, false) as quiz_passed
        from public.course_modules m
        -- content and image only through private.course_module_bodies (the API roles cannot select
        -- them): the right to read is checked once for the course, not once per module.
        left join private.course_module_bodies(${courseId}::uuid) b on b.module_id = m.id
        left join public.quizzes q on q.module_id = m.id
        left join public.user_module_progress p on p.module_id = m.id and p.user_id = ${userId}::uuid
        where m.course_id = ${courseId}::uuid
        order by m.order_index, m.created_at, m.id`]);
    const rights = toAccess(rightsRow);
    if (!rights.visible) throw new ApiError(404, MSG.courseNotFound);
    return c.json(rows.map((row) => toModule(row, rights.mayRead)));
  });

  // ---- Modules ----

  routes.get('/modules/:id', async (c) => {
    const id = idParam(c, 'id', MSG.moduleNotFound);
    const caller = c.get('caller');
    const userId = userIdOf(caller);
    const detail = await db.withCaller(caller.db, async (tx): Promise<ModuleDetail | ApiError> => {
      const [row] = await tx<Row[]>`
        with siblings as (
          select m.id, lag(m.id) over w as previous_id, lead(m.id) over w as next_id,
                 row_number() over w as position, count(*) over () as total
          from public.course_modules m
          where m.course_id = (select course_id from public.course_modules where id = ${id}::uuid)
          window w as (order by m.order_index, m.created_at, m.id)
        )
        select m.id, m.course_id, m.title, b.content, m.order_index, m.duration,
               (m.has_quiz or q.id is not null) as has_quiz, b.image, m.created_at, m.updated_at,
               coalesce(p.completed, false) as completed, (p.read_at is not null) as read,
               coalesce(p.quiz_passed, false) as quiz_passed,
               s.previous_id, s.next_id, s.position::int as position, s.total::int as total,
               c.title as course_title, c.service::text as course_service, c.requires_enrollment,
               q.id as quiz_id, q.title as quiz_title, q.description as quiz_description,
               q.passing_score, q.time_limit, q.show_correct_answers, q.max_attempts
        from public.course_modules m
        -- content and image only through private.module_body (the API roles cannot select them).
        left join lateral private.module_body(m.id) b on true
        join siblings s on s.id = m.id
        join public.courses c on c.id = m.course_id
        left join public.quizzes q on q.module_id = m.id
        left join public.user_module_progress p on p.module_id = m.id and p.user_id = ${userId}::uuid
        where m.id = ${id}::uuid`;
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
      return {
        ...toModule(row, true),
        content: String(row.content ?? ''),
        previousId: (row.previousId as string | null) ?? null,
        nextId: (row.nextId as string | null) ?? null,
        position: Number(row.position),
        total: Number(row.total),
        course: {
          id: courseId,
          title: String(row.courseTitle),
          service: String(row.courseService),
          requiresEnrollment: Boolean(row.requiresEnrollment),
        },
        quiz: row.quizId
          ? {
            id: String(row.quizId),
            title: String(row.quizTitle),
            description: (row.quizDescription as string | null) ?? null,
            passingScore: Number(row.passingScore),
            timeLimit: row.timeLimit == null ? null : Number(row.timeLimit),
            showCorrectAnswers: String(row.showCorrectAnswers) as AnswerDisplay,
            attempts: attempts!,
          }
          : null,
        enrolled: rights.enrollmentStatus === 'ACTIVE',
      };
    });
    if (detail instanceof ApiError) throw detail;
    return c.json(detail);
  });

  routes.post('/modules/:id/complete', async (c) => {
    const id = idParam(c, 'id', MSG.moduleNotFound);
    const caller = requireUser(c);
    if (await optionalJson(c)) await jsonBody(c, z.object({}));
    const result = await db.withCaller(caller.db, async (tx): Promise<Enrollment | ApiError> => {
      const rights = await access(tx, { ofModule: id });
      if (!rights.visible) return new ApiError(404, MSG.moduleNotFound);
      if (!rights.studiable) return refusal(caller, rights.enrollmentStatus, 'read');
      const [marked] = await tx<Row[]>`select (private.mark_module_read(${id}::uuid)).id as id`;
      if (!marked?.id) return new ApiError(409, MSG.notEnrolledProgress);
      return (await readEnrollment(tx, String(marked.id)))!;
    });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  // ---- Enrolment and progress ----

  routes.post('/courses/:courseId/enroll', async (c) => {
    const courseId = idParam(c, 'courseId', MSG.courseNotFound);
    const caller = c.get('caller');
    if (caller.kind !== 'user') throw new ApiError(401, MSG.signInToEnrol);
    if (await optionalJson(c)) {
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
        if (pg?.code === '42501') return new ApiError(403, MSG.notOpen);
        throw error;
      }
    });
    if (result instanceof ApiError) throw result;
    return c.json(result, 201);
  });

  // Recertification (issue 8): from an expiring or expired certificate, the learner's enrolment starts
  // its next cycle at 0 % with fresh module and quiz progress (private.start_recertification).
  routes.post('/courses/:courseId/recertify', async (c) => {
    const courseId = idParam(c, 'courseId', MSG.courseNotFound);
    const caller = requireUser(c);
    if (await optionalJson(c)) await jsonBody(c, z.object({}));
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

  routes.put('/enrollments/:id', async (c) => {
    const id = idParam(c, 'id', MSG.enrollmentNotFound);
    const caller = requireUser(c);
    // The body's progress and completed are validated but not trusted: the server computes progress.
    if (await optionalJson(c)) await jsonBody(c, enrollmentUpdateSchema);
    const result = await db.withCaller(caller.db, async (tx): Promise<Enrollment | ApiError> => {
      const [row] = await tx<Row[]>`
        select e.id, e.status::text as status,
               exists (select 1 from public.course_modules m where m.course_id = e.course_id) as has_modules
        from public.enrollments e
        where e.id = ${id}::uuid and e.user_id = ${caller.userId}::uuid`;
      if (!row) return new ApiError(404, MSG.enrollmentNotFound);
      if (row.status !== 'ACTIVE') return new ApiError(403, MSG.pending);
      // A course with modules progresses module by module (DESIGN.md §3): its state is answered as is.
      if (!row.hasModules) await tx`select private.step_course_progress(${id}::uuid)`;
      return (await readEnrollment(tx, id))!;
    });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  // ---- Quizzes ----

  routes.get('/modules/:id/quiz', async (c) => {
    const id = idParam(c, 'id', MSG.moduleNotFound);
    const caller = c.get('caller');
    const result = await db.withCaller(caller.db, async (tx): Promise<LearnerQuiz | ApiError> => {
      // The quiz and the rights on its course in one pipeline.
      const [[quiz], rights] = await Promise.all([
        tx<Row[]>`
          select q.id, q.module_id, m.course_id, q.title, q.description, q.passing_score, q.time_limit,
                 q.randomize_questions, q.show_correct_answers
          from public.course_modules m
          left join public.quizzes q on q.module_id = m.id
          where m.id = ${id}::uuid`,
        access(tx, { ofModule: id }),
      ]);
      if (!quiz) return new ApiError(404, MSG.moduleNotFound);
      if (!rights.visible) return new ApiError(404, MSG.moduleNotFound);
      if (!quiz.id) return new ApiError(404, MSG.quizNotFound);
      if (caller.kind !== 'user' || !rights.studiable) return refusal(caller, rights.enrollmentStatus, 'quiz');
      const quizId = String(quiz.id);
      // The attempt first: beyond the quiz's maximum or within its wait nothing (no question) is served.
      let attempt: Row;
      try {
        [attempt] = await tx.savepoint((sp) =>
          sp<Row[]>`select a.id, a.started_at, now() as server_now from private.start_quiz_attempt(${quizId}::uuid) a`
        );
      } catch (error) {
        const refused = await attemptRefusal(tx, quizId, error);
        if (refused) return refused;
        throw error;
      }
      // The questions, the standing and the history do not depend on each other: one pipeline.
      const [questions, attempts, [history]] = await Promise.all([
        tx<Row[]>`select * from private.quiz_questions_for_learner(${quizId}::uuid)`,
        quizAttempts(tx, quizId),
        tx<Row[]>`
        select bool_or(a.passed) as passed,
               (array_agg(json_build_object('score', a.score, 'maxScore', a.max_score, 'passed', a.passed,
                                            'completedAt', a.completed_at) order by a.completed_at desc))[1] as last_result
        from public.quiz_attempts a
        where a.quiz_id = ${quizId}::uuid and a.user_id = ${caller.userId}::uuid and a.completed_at is not null
          -- Recertifying: only this cycle's attempts count (earlier ones stay in the history).
          and not exists (select 1 from public.enrollments e
                          where e.user_id = a.user_id and e.course_id = ${String(quiz.courseId)}::uuid
                            and e.cycle > 1 and a.completed_at < e.started_at)`,
      ]);
      const timeLimit = quiz.timeLimit == null ? null : Number(quiz.timeLimit);
      const startedAt = attempt.startedAt as Date;
      return {
        id: quizId,
        moduleId: String(quiz.moduleId),
        courseId: String(quiz.courseId),
        title: String(quiz.title),
        description: (quiz.description as string | null) ?? null,
        passingScore: Number(quiz.passingScore),
        timeLimit,
        randomizeQuestions: Boolean(quiz.randomizeQuestions),
        questions: questions.map((q) => ({
          id: String(q.id),
          questionText: String(q.questionText),
          questionType: String(q.questionType),
          orderIndex: Number(q.orderIndex),
          points: Number(q.points),
          options: (q.options as { text: string }[]).map((o) => ({ text: String(o.text ?? '') })),
          multipleAnswers: Boolean(q.multipleAnswers),
        })),
        attempt: {
          id: String(attempt.id),
          startedAt: iso(startedAt),
          deadline: timeLimit == null ? null : new Date(startedAt.getTime() + timeLimit * 60_000).toISOString(),
        },
        serverNow: iso(attempt.serverNow),
        passed: Boolean(history?.passed),
        lastResult: history?.lastResult ? history.lastResult as LearnerQuiz['lastResult'] : null,
        attempts,
        showCorrectAnswers: String(quiz.showCorrectAnswers) as AnswerDisplay,
      };
    });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  routes.post('/quizzes/:id/attempts', async (c) => {
    const id = idParam(c, 'id', MSG.quizNotFound);
    const caller = c.get('caller');
    if (caller.kind !== 'user') throw new ApiError(401, MSG.signInToQuiz);
    const { answers } = await jsonBody(c, quizAnswersSchema);
    const normalised: Record<string, number[]> = {};
    for (const [questionId, chosen] of Object.entries(answers)) {
      normalised[questionId.toLowerCase()] = [...new Set(Array.isArray(chosen) ? chosen : [chosen])].sort((a, b) => a - b);
    }
    const result = await db.withCaller(caller.db, async (tx): Promise<QuizResult | ApiError> => {
      const [quiz] = await tx<Row[]>`
        select q.id, q.module_id, q.passing_score, m.course_id
        from public.quizzes q join public.course_modules m on m.id = q.module_id
        where q.id = ${id}::uuid`;
      if (!quiz) return new ApiError(404, MSG.quizNotFound);
      const rights = await access(tx, String(quiz.courseId));
      if (!rights.visible) return new ApiError(404, MSG.quizNotFound);
      if (!rights.studiable) return refusal(caller, rights.enrollmentStatus, 'quiz');
      let attempt: Row;
      try {
        [attempt] = await tx.savepoint((sp) =>
          sp<Row[]>`select * from private.finish_quiz_attempt(${id}::uuid, ${sp.json(normalised)}, ${QUIZ_GRACE_SECONDS})`
        );
      } catch (error) {
        const refused = await attemptRefusal(tx, id, error);
        if (refused) return refused;
        const pg = pgError(error);
        if (pg?.hint === 'quiz_time_up') return new ApiError(400, MSG.timeUp);
        if (pg?.hint === 'quiz_not_started') return new ApiError(400, MSG.notStarted);
        if (pg?.code === '42501') return new ApiError(403, MSG.enrolToQuiz);
        throw error;
      }
      // The review, the module's state and the enrolment after the attempt: one pipeline.
      const [review, attempts, [progress], [enrollment]] = await Promise.all([
        tx<Row[]>`select * from private.quiz_attempt_review(${String(attempt.id)}::uuid)`,
        quizAttempts(tx, id),
        tx<Row[]>`
        select p.completed from public.user_module_progress p
        where p.user_id = ${caller.userId}::uuid and p.module_id = ${String(quiz.moduleId)}::uuid`,
        tx<Row[]>`
        select e.id from public.enrollments e
        where e.user_id = ${caller.userId}::uuid and e.course_id = ${String(quiz.courseId)}::uuid`,
      ]);
      const score = Number(attempt.score);
      const maxScore = Number(attempt.maxScore);
      // The database decides (the quiz's show_correct_answers); hidden answers never reach this code.
      const answersShown = review.length > 0 && review.every((q) => q.answersShown === true);
      return {
        id: String(attempt.id),
        quizId: id,
        score,
        maxScore,
        percentage: maxScore > 0 ? Math.round((100 * score) / maxScore) : 0,
        passingScore: Number(quiz.passingScore),
        passed: Boolean(attempt.passed),
        startedAt: iso(attempt.startedAt),
        completedAt: iso(attempt.completedAt),
        answersShown,
        // Display only: the score above is the database's.
        questions: review.map((q) => {
          const chosen = normalised[String(q.questionId)] ?? [];
          const options = (q.options as { text?: unknown }[]).map((o) => String(o.text ?? ''));
          if (!answersShown || !Array.isArray(q.correctAnswers)) {
            return {
              id: String(q.questionId),
              chosen,
              correctAnswers: null,
              correct: null,
              options: options.map((text) => ({ text, isCorrect: null })),
              explanation: null,
            };
          }
          const correctAnswers = [...new Set((q.correctAnswers as unknown[]).map(Number))].sort((a, b) => a - b);
          return {
            id: String(q.questionId),
            chosen,
            correctAnswers,
            correct: chosen.length === correctAnswers.length && chosen.every((v, i) => v === correctAnswers[i]),
            options: options.map((text, index) => ({ text, isCorrect: correctAnswers.includes(index) })),
            explanation: (q.explanation as string | null) ?? null,
          };
        }),
        attempts,
        moduleCompleted: Boolean(progress?.completed),
        enrollment: enrollment ? await readEnrollment(tx, String(enrollment.id)) : null,
      };
    });
    if (result instanceof ApiError) throw result;
    return c.json(result, 201);
  });

  return routes;
}
