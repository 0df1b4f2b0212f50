// /api/recognition: what an organisation recognises of other issuers' credentials: the issuers it
// trusts (/trusted-issuers) and which of their achievements count for its own courses
// (/equivalences). Organisation administrators manage their organisation's, national
// administrators any organisation's; row-level security (29_recognition.sql) decides every read
// and write, so a list holds only what the caller may see. An issuer or achievement of this
// platform (its URLs under /api/issuers and /api/courses/:id/achievement) is marked as such, so its
// certificates count without upload. Whether a person's credential counts: THE status rule.
import { Hono } from 'hono';
import {
  type Equivalence,
  equivalenceCreateSchema,
  recognitionListSchema,
  type TrustedIssuer,
  trustedIssuerCreateSchema,
} from '../../_shared/recognition.ts';
import { UUID_PATTERN } from '../../_shared/ids.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { firstQueryValues, pageFields, pagingQuery, pathId } from '../lib/params.ts';
import { credentialUrls } from '../lib/credentials/urls.ts';
import { ISSUER_ID } from '../lib/credentials/issuer.ts';

const ISSUER_NOT_FOUND = 'Trusted issuer not found';
const EQUIVALENCE_NOT_FOUND = 'Equivalence not found';
const ONLY_ADMINISTRATORS = 'Only administrators manage recognised training';
const listQuery = recognitionListSchema.extend(pageFields);

/** The caller's organisation to read or write: the one asked for (national administrators, or an
 * organisation administrator's own), else their own; 403 for anyone who administers none. */
async function organisationOf(tx: Tx, asked: string | undefined, required: boolean): Promise<string | null> {
  const [me] = await tx<{ national: boolean; organisationId: string | null }[]>`
    select private.is_admin() as national, private.administered_organisation_id() as organisation_id`;
  if (!me.national && !me.organisationId) throw new ApiError(403, ONLY_ADMINISTRATORS);
  if (me.national) {
    if (!asked && required) throw new ApiError(400, 'Validation failed', { organisationId: 'Choose an organisation' });
    return asked ?? null;
  }
  if (asked && asked !== me.organisationId) throw new ApiError(403, 'You manage recognised training of your own organisation only');
  return me.organisationId;
}

/** The database's refusals of a recognition write, as the API's answers. */
function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  const raised = (error as { routine?: unknown })?.routine === 'exec_stmt_raise';
  const message = raised ? String((error as { message?: unknown })?.message ?? '') : '';
  const hint = raised ? String((error as { hint?: unknown })?.hint ?? '') : '';
  const constraint = String((error as { constraint_name?: unknown })?.constraint_name ?? '');
  if (code === '42501') throw new ApiError(403, ONLY_ADMINISTRATORS);
  if (code === '22023' && hint === 'achievementId') throw new ApiError(400, 'Validation failed', { achievementId: message });
  if (code === '22023') throw new ApiError(400, 'Validation failed', { courseId: message });
  if (code === '23505' && constraint === 'trusted_issuers_issuer_key') throw new ApiError(409, 'This issuer is already trusted');
  if (code === '23505') throw new ApiError(409, 'This achievement already counts for that course');
  if (code === '23503' && constraint === 'recognition_equivalences_issuer_fkey') {
    throw new ApiError(400, 'Validation failed', { issuerId: 'Trust the issuer first' });
  }
  if (code === '23503' && constraint === 'recognition_equivalences_course_id_fkey') {
    throw new ApiError(400, 'Validation failed', { courseId: 'Course not found' });
  }
  if (code === '23503') throw new ApiError(400, 'Validation failed', { organisationId: 'Organisation not found' });
  throw error;
}

interface IssuerRow {
  id: string;
  organisationId: string;
  issuerId: string;
  name: string;
  platformIssuer: string | null;
  createdAt: Date;
  total: string;
}

const toIssuer = (r: IssuerRow): TrustedIssuer => ({
  id: r.id,
  organisationId: r.organisationId,
  issuerId: r.issuerId,
  name: r.name,
  platformIssuer: r.platformIssuer,
  createdAt: isoTimestamp(r.createdAt) ?? '',
});

interface EquivalenceRow {
  id: string;
  organisationId: string;
  courseId: string;
  courseTitle: string;
  issuerId: string;
  issuerName: string;
  achievementId: string;
  achievementName: string;
  platformCourseId: string | null;
  createdAt: Date;
  total: string;
}

const toEquivalence = (r: EquivalenceRow): Equivalence => ({
  id: r.id,
  organisationId: r.organisationId,
  course: { id: r.courseId, title: r.courseTitle },
  issuerId: r.issuerId,
  issuerName: r.issuerName,
  achievementId: r.achievementId,
  achievementName: r.achievementName,
  platformCourseId: r.platformCourseId,
  createdAt: isoTimestamp(r.createdAt) ?? '',
});

function selectEquivalences(tx: Tx, where: { id?: string; organisationId?: string | null; limit: number; offset: number }) {
  return tx<EquivalenceRow[]>`
    select e.id, e.organisation_id, e.course_id, c.title as course_title, e.issuer_id, t.name as issuer_name,
           e.achievement_id, e.achievement_name, e.platform_course_id, e.created_at, count(*) over () as total
    from public.recognition_equivalences e
    join public.trusted_issuers t on t.organisation_id = e.organisation_id and t.issuer_id = e.issuer_id
    join public.courses c on c.id = e.course_id
    where (${where.id ?? null}::uuid is null or e.id = ${where.id ?? null}::uuid)
      and (${where.organisationId ?? null}::uuid is null or e.organisation_id = ${where.organisationId ?? null}::uuid)
    order by c.title, t.name, e.achievement_name, e.id
    limit ${where.limit} offset ${where.offset}`;
}

export function recognitionRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();
  const urls = credentialUrls(config);
  const issuersPrefix = `${urls.apiBase}/issuers/`;
  const coursesPrefix = `${urls.apiBase}/courses/`;

  /** This platform's issuer named by an issuer id (its organisation's id or national), else null. */
  const platformIssuer = (issuerId: string) => {
    const rest = issuerId.startsWith(issuersPrefix) ? issuerId.slice(issuersPrefix.length) : '';
    return ISSUER_ID.test(rest) ? rest : null;
  };
  /** This platform's course named by an achievement id, else null. */
  const platformCourse = (achievementId: string) => {
    const match = achievementId.startsWith(coursesPrefix) ? /^([^/]+)\/achievement$/.exec(achievementId.slice(coursesPrefix.length)) : null;
    return match && UUID_PATTERN.test(match[1]) ? match[1].toLowerCase() : null;
  };

  routes.get('/trusted-issuers', async (c) => {
    const caller = requireUser(c);
    const query = pagingQuery(listQuery, firstQueryValues(c));
    const rows = await db.withCaller(caller.db, async (tx) => {
      const organisationId = await organisationOf(tx, query.organisationId, false);
      return await tx<IssuerRow[]>`
        select t.id, t.organisation_id, t.issuer_id, t.name, t.platform_issuer, t.created_at, count(*) over () as total
        from public.trusted_issuers t
        where (${organisationId}::uuid is null or t.organisation_id = ${organisationId}::uuid)
        order by t.name, t.issuer_id, t.id
        limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`;
    });
    return c.json({ items: rows.map(toIssuer), total: Number(rows[0]?.total ?? 0), page: query.page, pageSize: query.pageSize });
  });

  routes.post('/trusted-issuers', async (c) => {
    const caller = requireUser(c);
    const body = await jsonBody(c, trustedIssuerCreateSchema);
    const row = await db.withCaller(caller.db, async (tx) => {
      const organisationId = await organisationOf(tx, body.organisationId, true);
      const [added] = await tx<IssuerRow[]>`
        insert into public.trusted_issuers (organisation_id, issuer_id, name, platform_issuer)
        values (${organisationId}::uuid, ${body.issuerId}, ${body.name}, ${platformIssuer(body.issuerId)})
        returning id, organisation_id, issuer_id, name, platform_issuer, created_at, 1 as total`;
      return added;
    }).catch(fromDatabase);
    return c.json(toIssuer(row), 201);
  });

  routes.delete('/trusted-issuers/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', ISSUER_NOT_FOUND);
    await db.withCaller(caller.db, async (tx) => {
      await organisationOf(tx, undefined, false);
      const removed = await tx`delete from public.trusted_issuers where id = ${id}::uuid returning id`;
      if (removed.length === 0) throw new ApiError(404, ISSUER_NOT_FOUND);
    });
    return c.body(null, 204);
  });

  routes.get('/equivalences', async (c) => {
    const caller = requireUser(c);
    const query = pagingQuery(listQuery, firstQueryValues(c));
    const rows = await db.withCaller(caller.db, async (tx) => {
      const organisationId = await organisationOf(tx, query.organisationId, false);
      return await selectEquivalences(tx, { organisationId, limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
    });
    return c.json({ items: rows.map(toEquivalence), total: Number(rows[0]?.total ?? 0), page: query.page, pageSize: query.pageSize });
  });

  routes.post('/equivalences', async (c) => {
    const caller = requireUser(c);
    const body = await jsonBody(c, equivalenceCreateSchema);
    const row = await db.withCaller(caller.db, async (tx) => {
      const organisationId = await organisationOf(tx, body.organisationId, true);
      // An achievement of this platform's issuer counts its certificates without upload.
      const course = platformIssuer(body.issuerId) ? platformCourse(body.achievementId) : null;
      const [added] = await tx<{ id: string }[]>`
        insert into public.recognition_equivalences (organisation_id, course_id, issuer_id, achievement_id, achievement_name,
          platform_course_id)
        values (${organisationId}::uuid, ${body.courseId}::uuid, ${body.issuerId}, ${body.achievementId}, ${body.achievementName},
          ${course}::uuid)
        returning id`;
      const [read] = await selectEquivalences(tx, { id: added.id, limit: 1, offset: 0 });
      return read;
    }).catch(fromDatabase);
    return c.json(toEquivalence(row), 201);
  });

  routes.delete('/equivalences/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', EQUIVALENCE_NOT_FOUND);
    await db.withCaller(caller.db, async (tx) => {
      await organisationOf(tx, undefined, false);
      const removed = await tx`delete from public.recognition_equivalences where id = ${id}::uuid returning id`;
      if (removed.length === 0) throw new ApiError(404, EQUIVALENCE_NOT_FOUND);
    });
    return c.body(null, 204);
  });

  return routes;
}
