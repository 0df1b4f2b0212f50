// What a learner may do with a course, and their enrolment as the API answers it: read by the
// course, module, quiz and enrolment routes. Every query runs as the caller under RLS; progress,
// scores and attempts are written only by the private security-definer SQL functions, which check
// the caller themselves.
import type { Enrollment } from '../../_shared/enrollment.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import { type LearnerQuiz, noAttemptsLeftMessage, type QuizAttempts, retryWaitMessage } from '../../_shared/quiz.ts';
import type { Config } from './config.ts';
import type { Db, DbCaller, Statements, Tx } from './db.ts';
import type { Caller } from './auth.ts';
import { ApiError, pgError } from './errors.ts';

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
  scormCompletesItself: 'This module completes when its SCORM package reports it complete: play the package to the end',
  timeUp: 'Time is up: answers must arrive within the time limit. Open the quiz again to retry.',
  notStarted: 'Open the quiz before submitting your answers',
  attemptStartedInWait: 'This attempt began before the wait after your last attempt was over. Open the quiz again to retry.',
} as const;

export type Row = Record<string, unknown>;

/** A timestamp column as ISO text (the columns read here are never null). */
export const iso = (value: unknown): string => isoTimestamp(value)!;

/** A stored image (a full URL, or a path in the bucket) as a public URL. */
export function publicUrl(config: Config, bucket: string, value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (/^https?:\/\//i.test(value)) return value;
  const path = value.replace(/^\/+/, '').replace(new RegExp(`^${bucket}/`), '');
  return `${config.supabaseUrl}/storage/v1/object/public/${bucket}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

export function userIdOf(caller: Caller): string | null {
  return caller.kind === 'user' ? caller.userId : null;
}

/** The caller's attempts at a quiz (private.quiz_attempt_status; quiz integrity). */
export async function quizAttempts(tx: Tx, quizId: string): Promise<QuizAttempts> {
  const [row] = await tx<Row[]>`select * from private.quiz_attempt_status(${quizId}::uuid)`;
  return {
    used: Number(row?.attemptsUsed ?? 0),
    max: row?.maxAttempts == null ? null : Number(row.maxAttempts),
    remaining: row?.attemptsRemaining == null ? null : Number(row.attemptsRemaining),
    nextAttemptAt: isoTimestamp(row?.nextAttemptAt),
  };
}

/**
 * A quiz start or submission that the database refused, thrown out of the route's transaction,
 * which rolls it back (nothing was written before it). The statement runs without a savepoint:
 * SAVEPOINT and RELEASE were two more round trips on every start and submission for a rare refusal;
 * what the learner is told is read afterwards by attemptRefusal.
 */
export class AttemptFailed extends Error {
  constructor(readonly quizId: string, override readonly cause: unknown) {
    super('The quiz attempt was refused');
  }
}

/** A row of private.quiz_questions_for_learner as the learner is served it (no answers). */
export function toLearnerQuestion(q: Row): LearnerQuiz['questions'][number] {
  return {
    id: String(q.id),
    questionText: String(q.questionText),
    questionType: String(q.questionType),
    orderIndex: Number(q.orderIndex),
    points: Number(q.points),
    options: (q.options as { text: string }[]).map((o) => ({ text: String(o.text ?? '') })),
    questionCy: (q.questionTextCy as string | null) ?? null,
    optionsCy: Array.isArray(q.optionsCy) ? (q.optionsCy as unknown[]).map(String) : null,
    multipleAnswers: Boolean(q.multipleAnswers),
  };
}

/** A start or a submission the quiz's maximum or wait refuses (55000 from the database): 409 with
 * what the learner can do, and Retry-After while waiting, read in a transaction of its own (the
 * refused one is rolled back). Null for any other error. */
export async function attemptRefusal(db: Db, caller: DbCaller, quizId: string, error: unknown): Promise<ApiError | null> {
  const pg = pgError(error);
  if (pg?.code !== '55000' || (pg.hint !== 'quiz_no_attempts_left' && pg.hint !== 'quiz_retry_wait')) return null;
  const attempts = await db.withCaller(caller, (tx) => quizAttempts(tx, quizId));
  if (pg.hint === 'quiz_no_attempts_left') return new ApiError(409, noAttemptsLeftMessage(attempts.max ?? attempts.used));
  // A running attempt that began within the wait (the wait is over now): the next start restarts it.
  if (attempts.nextAttemptAt == null) return new ApiError(409, MSG.attemptStartedInWait);
  const seconds = Math.max(1, Math.ceil((new Date(attempts.nextAttemptAt).getTime() - Date.now()) / 1000));
  return new ApiError(409, retryWaitMessage(attempts.nextAttemptAt), undefined, { 'Retry-After': String(seconds) });
}

/**
 * An enrolment in the contract's shape, with its course and the certificate it earned (if any): by
 * its id, or as a learner's enrolment on a course (so that it can be sent with other statements).
 */
export async function readEnrollment(tx: Tx, id: string | { userId: string; courseId: string }): Promise<Enrollment | null> {
  const which = typeof id === 'string'
    ? tx`e.id = ${id}::uuid`
    : tx`e.user_id = ${id.userId}::uuid and e.course_id = ${id.courseId}::uuid`;
  const [row] = await tx<Row[]>`
    select e.id, e.user_id, e.course_id, e.progress, e.completed, e.status::text as status, e.started_at,
           e.completed_at, e.last_accessed_module_id,
           c.id as c_id, c.title as c_title, c.title_cy as c_title_cy, c.description as c_description, c.service::text as c_service,
           c.duration as c_duration,
           (select count(*)::int from public.course_modules m where m.course_id = e.course_id) as c_modules,
           (select ct.id from public.certificates ct
             where e.completed and ct.user_id = e.user_id and ct.course_id = e.course_id and ct.revoked_at is null
             order by ct.cycle desc, ct.issued_at desc limit 1) as certificate_id
    from public.enrollments e
    left join public.courses c on c.id = e.course_id
    where ${which}`;
  if (!row) return null;
  return {
    id: String(row.id),
    userId: String(row.userId),
    courseId: String(row.courseId),
    progress: Number(row.progress),
    completed: Boolean(row.completed),
    status: row.status as 'PENDING' | 'ACTIVE',
    startedAt: iso(row.startedAt),
    completedAt: isoTimestamp(row.completedAt),
    lastAccessedModuleId: (row.lastAccessedModuleId as string | null) ?? null,
    certificateId: (row.certificateId as string | null) ?? null,
    course: row.cId
      ? {
        id: String(row.cId),
        title: String(row.cTitle),
        titleCy: (row.cTitleCy as string | null) ?? null,
        description: String(row.cDescription),
        service: String(row.cService),
        duration: Number(row.cDuration),
        modules: Number(row.cModules),
      }
      : null,
  };
}

export interface Access {
  visible: boolean;
  mayRead: boolean;
  studiable: boolean;
  enrollmentStatus: string | null;
}

/** A course: by its id, or as the course of a module or of a quiz. */
export type CourseOf = string | { ofModule: string } | { ofQuiz: string };

/**
 * What the caller may do with a course: see it, study its content, and their enrolment status.
 * The course is given by id, or as the course of a module or a quiz, so that their routes need no
 * statement of their own to find it (a module the caller cannot see has no course: not visible).
 */
export async function access(tx: Tx, course: CourseOf): Promise<Access> {
  const [row] = await accessQuery(tx, course);
  return toAccess(row);
}

/** The statement of `access`, not yet run (for a read that sends it with others). */
export function accessQuery(tx: Statements, course: CourseOf) {
  const courseId = typeof course === 'string'
    ? tx`${course}::uuid`
    : 'ofModule' in course
    ? tx`(select m.course_id from public.course_modules m where m.id = ${course.ofModule}::uuid)`
    : tx`(select m.course_id from public.quizzes q join public.course_modules m on m.id = q.module_id where q.id = ${course.ofQuiz}::uuid)`;
  return tx<Row[]>`
    with target as (select ${courseId} as id)
    select private.can_view_course(t.id) as visible,
           private.can_study_course(t.id) as studiable,
           (select c.requires_enrollment from public.courses c where c.id = t.id) as requires_enrollment,
           (select e.status::text from public.enrollments e
             where e.course_id = t.id and e.user_id = (select auth.uid())) as enrollment_status
    from target t`;
}

export function toAccess(row: Row): Access {
  const visible = Boolean(row.visible);
  const studiable = Boolean(row.studiable);
  return {
    visible,
    // A course that does not require enrolment is read by anyone who can see it, visitors too.
    mayRead: visible && (studiable || row.requiresEnrollment === false),
    studiable,
    enrollmentStatus: (row.enrollmentStatus as string | null) ?? null,
  };
}

/** Why the caller may not read (or take the quiz of) a course they can see: 401 or 403 with what to do. */
export function refusal(caller: Caller, enrollmentStatus: string | null, kind: 'read' | 'quiz'): ApiError {
  if (caller.kind !== 'user') return new ApiError(401, kind === 'read' ? MSG.signInToRead : MSG.signInToQuiz);
  if (enrollmentStatus === 'PENDING') return new ApiError(403, MSG.pending);
  return new ApiError(403, kind === 'read' ? MSG.enrolToRead : MSG.enrolToQuiz);
}
