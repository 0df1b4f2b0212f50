// The SQL and row mapping of /api/courses: the catalogue page (one statement with module counts,
// authors and the caller's enrolment), a course's module list, and the author's writes.
import type postgres from 'postgres';
import type {
  AssessmentModuleCreateInput, CourseCreateInput, CourseUpdateInput, ModuleCreateInput, ScormModuleCreateInput, SessionModuleCreateInput,
} from '../../../_shared/authoring.ts';
import type { Course, CourseListQuery } from '../../../_shared/catalogue.ts';
import { isoTimestamp } from '../../../_shared/dates.ts';
import type { Config } from '../../lib/config.ts';
import { containsPattern, type Statements, type Tx } from '../../lib/db.ts';
import { guarded, notFound } from '../../lib/authoring.ts';
import { iso, publicUrl, type Row } from '../../lib/learning.ts';

export function toCourse(config: Config, row: Row): Course {
  return {
    id: String(row.id),
    title: String(row.title),
    description: String(row.description),
    titleCy: (row.titleCy as string | null) ?? null,
    descriptionCy: (row.descriptionCy as string | null) ?? null,
    availableInWelsh: Boolean(row.availableInWelsh),
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
        completedAt: isoTimestamp(row.enrollmentCompletedAt),
        certificateId: (row.enrollmentCertificateId as string | null) ?? null,
      }
      : null,
  };
}

/** A page of courses with their module counts, authors and the caller's enrolment, in ONE query (not yet run). */
export function selectCourses(tx: Statements, userId: string | null, where: postgres.PendingQuery<postgres.Row[]>, limit: number, offset: number) {
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
    select p.id, p.title, p.description, p.title_cy, p.description_cy, p.available_in_welsh,
           p.service::text as service, p.cover_image, p.author_id, p.duration,
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

/** The distinct words of a search, at most six (a longer query adds nothing a person needs). */
function searchWords(search: string | undefined): string[] {
  return [...new Set((search ?? '').toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 6);
}

/** The catalogue's two statements (the total, then the page), sent together. */
export function catalogueStatements(tx: Statements, query: CourseListQuery, userId: string | null) {
  // The matching ids come from the trigram indexes (private.course_search_ids: under row-level
  // security an ILIKE of the query itself cannot use them); the rows are read under RLS as ever.
  // Every word of the query, in any order, in the title or the description ("smart
  // motorways safety" found nothing): one index-backed match per word.
  const patterns = searchWords(query.search).map(containsPattern);
  const pattern = patterns.length > 0;
  // Archived courses only when asked for, by their status or by a manager's list.
  const includeArchived = query.includeArchived || query.status === 'ARCHIVED';
  const where = tx`
    ${includeArchived ? tx`` : tx`and c.status in ('DRAFT', 'ACTIVE')`}
    ${query.service ? tx`and c.service = ${query.service}::public.service_code` : tx``}
    ${query.status ? tx`and c.status = ${query.status}::public.course_status` : tx``}
    ${query.mine ? tx`and c.author_id = ${userId}::uuid` : tx``}
    ${query.welsh ? tx`and c.available_in_welsh` : tx``}
    ${patterns.reduce((words, p) => tx`${words} and c.id in (select private.course_search_ids(${p}, ${includeArchived}))`, tx``)}`;
  // The total: without a search or "mine", from the kept per-status-and-service counts
  // (private.visible_course_count, the rule of the courses policies) rather than a count of every
  // visible course; a search, "mine" or "welsh" counts its matches (courses_in_welsh_idx).
  const totalQuery = pattern || query.mine || query.welsh
    ? tx<{ total: number }[]>`select count(*)::int as total from public.courses c where true ${where}`
    : tx<{ total: number }[]>`
        select private.visible_course_count(${query.service ?? null}::public.service_code,
                                            ${query.status ?? null}::public.course_status, ${includeArchived}) as total`;
  const page = selectCourses(tx, userId, where, query.pageSize, (query.page - 1) * query.pageSize);
  return [totalQuery, page] as [typeof totalQuery, typeof page];
}

/** A course's modules with the caller's progress (not yet run); content and image only where the caller may read. */
export function courseModulesQuery(tx: Statements, courseId: string, userId: string | null) {
  return tx<Row[]>`
    select m.id, m.course_id, m.title, m.title_cy, b.content, b.content_cy, m.order_index, m.duration, m.kind,
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
    order by m.order_index, m.created_at, m.id`;
}

/** The course as an author's write answers it (enrollment: the caller's, if any). */
export async function readAuthoredCourse(tx: Tx, courseId: string) {
  const [row] = await tx<Row[]>`
    select c.id, c.title, c.description, c.title_cy, c.description_cy, c.available_in_welsh,
           c.service::text as service, c.cover_image, c.author_id,
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
    titleCy: row.titleCy ?? null,
    descriptionCy: row.descriptionCy ?? null,
    availableInWelsh: Boolean(row.availableInWelsh),
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

/** A new course written by the caller (its author). */
export async function insertCourse(tx: Tx, input: CourseCreateInput): Promise<string> {
  const [row] = await guarded(() => tx<{ id: string }[]>`
    insert into public.courses (title, description, service, level, duration, status, featured, requires_enrollment, author_id,
                                certificate_valid_months, requires_approval, title_cy, description_cy)
    values (${input.title}, ${input.description}, ${input.service}::public.service_code, ${input.level}::public.course_level,
            ${input.duration}, ${input.status}::public.course_status, ${input.featured}, ${input.requiresEnrollment},
            (select auth.uid()), ${input.certificateValidMonths ?? null}::integer, ${input.requiresApproval ?? null}::boolean,
            ${input.titleCy ?? null}::text, ${input.descriptionCy ?? null}::text)
    returning id`);
  return row.id;
}

/** The fields given, written; false when RLS let no row change. */
export async function updateCourse(tx: Tx, id: string, input: CourseUpdateInput): Promise<boolean> {
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
        then ${input.requiresApproval ?? null}::boolean else requires_approval end,
      -- The Welsh: null (or blank) clears it; absent leaves it as it is.
      title_cy = case when ${input.titleCy !== undefined}::boolean then ${input.titleCy ?? null}::text else title_cy end,
      description_cy = case when ${input.descriptionCy !== undefined}::boolean
        then ${input.descriptionCy ?? null}::text else description_cy end
    where id = ${id}::uuid
    returning id`);
  return rows.length > 0;
}

/** Whether the course can be deleted (no learner records); 42501 unless the caller may delete it. */
export async function courseDeletable(tx: Tx, id: string): Promise<boolean> {
  const [row] = await guarded(() => tx<{ deletable: boolean }[]>`select private.course_deletable(${id}::uuid) as deletable`);
  return row.deletable;
}

/** Sets the course's status (archiving, restoring); false when RLS let no row change. */
export async function setCourseStatus(tx: Tx, id: string, status: 'ARCHIVED' | 'DRAFT'): Promise<boolean> {
  const rows = await guarded(() => tx`
    update public.courses set status = ${status}::public.course_status where id = ${id}::uuid returning id`);
  return rows.length > 0;
}

/** Deletes the course; its cover and module images (to remove from storage), or null when RLS kept it. */
export async function deleteCourse(tx: Tx, id: string): Promise<{ cover: string | null; images: string[]; scormPrefixes: string[] } | null> {
  const images = await tx<{ image: string }[]>`
    select b.image from public.course_modules m
    cross join lateral private.module_body(m.id) b
    where m.course_id = ${id}::uuid and b.image is not null`;
  const packages = await tx<{ storagePrefix: string }[]>`
    select storage_prefix from public.scorm_packages where course_id = ${id}::uuid`;
  const [row] = await guarded(() => tx<{ coverImage: string | null }[]>`
    delete from public.courses where id = ${id}::uuid returning cover_image`);
  if (!row) return null;
  return { cover: row.coverImage, images: images.map((r) => r.image), scormPrefixes: packages.map((p) => p.storagePrefix) };
}

/** A new module at `orderIndex` (pushing the later ones down; beyond the end is the end). */
export async function insertModule(
  tx: Tx, courseId: string, input: ModuleCreateInput | ScormModuleCreateInput | SessionModuleCreateInput | AssessmentModuleCreateInput,
): Promise<string> {
  const [{ count }] = await tx<{ count: number }[]>`
    select count(*)::int as count from public.course_modules where course_id = ${courseId}::uuid`;
  const position = Math.min(input.orderIndex ?? count + 1, count + 1);
  await guarded(() => tx`
    update public.course_modules set order_index = order_index + 1
    where course_id = ${courseId}::uuid and order_index >= ${position}`);
  const [row] = await guarded(() => tx<{ id: string }[]>`
    insert into public.course_modules (course_id, title, content, order_index, duration, kind, title_cy, content_cy)
    values (${courseId}::uuid, ${input.title}, ${'content' in input ? input.content ?? '' : ''}, ${position}, ${input.duration},
            ${'kind' in input ? input.kind : 'content'}, ${input.titleCy ?? null}::text, ${input.contentCy ?? null}::text)
    returning id`);
  await tx`select private.renumber_modules(${courseId}::uuid)`;
  return row.id;
}
