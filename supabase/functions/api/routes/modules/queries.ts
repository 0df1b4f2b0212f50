// The SQL and row mapping of a course's modules: the learner's view (with the caller's progress;
// content and image only where the caller may read them) and the author's.
import type { CourseModule } from '../../../_shared/catalogue.ts';
import type { ModuleUpdateInput } from '../../../_shared/authoring.ts';
import type { Config } from '../../lib/config.ts';
import type { Tx } from '../../lib/db.ts';
import { guarded, notFound } from '../../lib/authoring.ts';
import { iso, publicUrl, type Row } from '../../lib/learning.ts';

/** A module as the learner's screens show it. */
export function toModule(config: Config, row: Row, withContent: boolean): CourseModule {
  return {
    id: String(row.id),
    courseId: String(row.courseId),
    title: String(row.title),
    titleCy: (row.titleCy as string | null) ?? null,
    content: withContent ? String(row.content ?? '') : null,
    contentCy: withContent ? (row.contentCy as string | null) ?? null : null,
    orderIndex: Number(row.orderIndex),
    duration: Number(row.duration),
    hasQuiz: Boolean(row.hasQuiz),
    kind: row.kind as CourseModule['kind'],
    image: withContent ? publicUrl(config, 'module-images', row.image) : null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    completed: Boolean(row.completed),
    read: Boolean(row.read),
    quizPassed: Boolean(row.quizPassed),
  };
}

/** One module with its neighbours, its course, its quiz and the caller's progress, in one statement. */
export async function readModuleDetail(tx: Tx, id: string, userId: string | null): Promise<Row | undefined> {
  const [row] = await tx<Row[]>`
    with siblings as (
      select m.id, lag(m.id) over w as previous_id, lead(m.id) over w as next_id,
             row_number() over w as position, count(*) over () as total
      from public.course_modules m
      where m.course_id = (select course_id from public.course_modules where id = ${id}::uuid)
      window w as (order by m.order_index, m.created_at, m.id)
    )
    select m.id, m.course_id, m.title, m.title_cy, b.content, b.content_cy, m.order_index, m.duration, m.kind,
           (m.has_quiz or q.id is not null) as has_quiz, b.image, m.created_at, m.updated_at,
           coalesce(p.completed, false) as completed, (p.read_at is not null) as read,
           coalesce(p.quiz_passed, false) as quiz_passed,
           s.previous_id, s.next_id, s.position::int as position, s.total::int as total,
           c.title as course_title, c.title_cy as course_title_cy, c.service::text as course_service, c.requires_enrollment,
           q.id as quiz_id, q.title as quiz_title, q.description as quiz_description,
           q.title_cy as quiz_title_cy, q.description_cy as quiz_description_cy,
           q.passing_score, q.time_limit, q.show_correct_answers, q.max_attempts
    from public.course_modules m
    -- content and image only through private.module_body (the API roles cannot select them).
    left join lateral private.module_body(m.id) b on true
    join siblings s on s.id = m.id
    join public.courses c on c.id = m.course_id
    left join public.quizzes q on q.module_id = m.id
    left join public.user_module_progress p on p.module_id = m.id and p.user_id = ${userId}::uuid
    where m.id = ${id}::uuid`;
  return row;
}

// The author's view. content and image come from private.module_body (b), joined by moduleSource:
// the API roles cannot select those columns of public.course_modules directly.
const moduleColumns = (tx: Tx) => tx`
  m.id, m.course_id, m.title, m.title_cy, coalesce(b.content, '') as content, b.content_cy, m.order_index, m.duration,
  m.has_quiz, m.kind, b.image,
  m.created_at, m.updated_at,
  exists (select 1 from public.user_module_progress p
          where p.module_id = m.id and p.user_id = (select auth.uid()) and p.completed) as completed`;

const moduleSource = (tx: Tx) => tx`
  public.course_modules m left join lateral private.module_body(m.id) b on true`;

export async function readModule(tx: Tx, moduleId: string) {
  const [row] = await tx`select ${moduleColumns(tx)} from ${moduleSource(tx)} where m.id = ${moduleId}::uuid`;
  if (!row) throw notFound('Module');
  return row;
}

export async function readModules(tx: Tx, courseId: string) {
  return await tx`
    select ${moduleColumns(tx)} from ${moduleSource(tx)}
    where m.course_id = ${courseId}::uuid order by m.order_index, m.created_at, m.id`;
}

/** New order of a course's modules with `moduleId` moved to `position` (1-based, clamped). */
export function movedTo(ids: string[], moduleId: string, position: number): string[] {
  const rest = ids.filter((id) => id !== moduleId);
  const at = Math.max(0, Math.min(rest.length, position - 1));
  return [...rest.slice(0, at), moduleId, ...rest.slice(at)];
}

/** The fields given, written (and the module moved when orderIndex is given); false when RLS let no row change. */
export async function updateModule(tx: Tx, id: string, courseId: string, input: ModuleUpdateInput): Promise<boolean> {
  // Only the provided columns are set: the API roles may not read content, so no
  // `content = coalesce(x, content)`. With none (only orderIndex), `title = title` still checks
  // the caller may update the row.
  const values: Record<string, string | number | null> = {};
  if (input.title != null) values.title = input.title;
  if (input.content != null) values.content = input.content;
  // The Welsh: null (or blank) clears it; absent leaves it as it is.
  if (input.titleCy !== undefined) values.titleCy = input.titleCy;
  if (input.contentCy !== undefined) values.contentCy = input.contentCy;
  if (input.duration != null) values.duration = input.duration;
  const columns = Object.keys(values);
  const rows = await guarded(() => tx`
    update public.course_modules set ${columns.length ? tx(values, columns) : tx`title = title`}
    where id = ${id}::uuid returning id`);
  if (rows.length === 0) return false;
  if (input.orderIndex !== undefined) {
    const ids = (await tx<{ id: string }[]>`
      select id from public.course_modules where course_id = ${courseId}::uuid
      order by order_index, created_at, id`).map((r) => r.id);
    const order = movedTo(ids, id, input.orderIndex);
    await guarded(() => tx`select private.reorder_modules(${courseId}::uuid, ${order}::uuid[])`);
  }
  return true;
}
