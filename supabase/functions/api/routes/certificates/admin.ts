// /api/admin/certificates, admins only: search every certificate by learner name or
// verification code (server-side, paged, trigram-indexed), revoke one with a reason, reissue one.
// Runs under the caller's RLS; private.revoke_certificate and private.reissue_certificate check the
// admin themselves and the audit trigger records it.
import { Hono } from 'hono';
import type { Context } from 'hono';
import {
  type AdminCertificate,
  type CertificateState,
  certificateRevokeSchema,
  certificateSearchQuerySchema,
} from '../../../_shared/certificates.ts';
import { isoTimestamp as iso } from '../../../_shared/dates.ts';
import type { Config } from '../../lib/config.ts';
import { containsPattern, type Db, type Tx } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody, validate } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';
import { firstQueryValues, pathId } from '../../lib/params.ts';

const forbidden = () => new ApiError(403, 'Only administrators may do this');
const NOT_FOUND = 'Certificate not found';
const notFound = () => new ApiError(404, NOT_FOUND);

interface Row {
  id: string;
  verificationCode: string;
  userId: string | null;
  learnerName: string;
  learnerUsername: string | null;
  courseId: string | null;
  courseTitle: string;
  courseTitleCy: string | null;
  service: string | null;
  cycle: number;
  issuedAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
  revokedById: string | null;
  revokedByName: string | null;
  reissuedAt: Date | null;
  state: CertificateState;
}

function toAdminCertificate(row: Row): AdminCertificate {
  return {
    id: row.id,
    verificationCode: row.verificationCode,
    userId: row.userId,
    learnerName: row.learnerName,
    learnerUsername: row.learnerUsername,
    courseId: row.courseId,
    courseTitle: row.courseTitle,
    courseTitleCy: row.courseTitleCy ?? null,
    service: row.service,
    cycle: row.cycle,
    issuedAt: iso(row.issuedAt)!,
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
    revokedReason: row.revokedReason,
    revokedBy: row.revokedById ? { id: row.revokedById, name: row.revokedByName ?? '' } : null,
    reissuedAt: iso(row.reissuedAt),
    state: row.state,
  };
}

/** One query for the list and for a single certificate: the learner's username and the revoker's name joined. */
function selectCertificates(tx: Tx) {
  return tx`
    select c.id, c.verification_code, c.user_id, c.learner_name, l.username as learner_username, c.course_id,
           c.course_title, c.course_title_cy, c.service::text as service, c.cycle, c.issued_at, c.expires_at, c.revoked_at,
           c.revoked_reason, c.revoked_by as revoked_by_id, r.name as revoked_by_name, c.reissued_at,
           private.certificate_state(c.expires_at, c.revoked_at) as state
    from public.certificates c
    left join public.profiles l on l.id = c.user_id
    left join public.profiles r on r.id = c.revoked_by`;
}

export function adminCertificateRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  /** Runs fn as the caller after checking, in the same transaction, that they are an admin. */
  function asAdmin<T>(c: Context<Env>, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const caller = requireUser(c);
    return db.withCaller(caller.db, async (tx) => {
      const [row] = await tx<{ admin: boolean }[]>`select private.is_admin() as admin`;
      if (row?.admin !== true) throw forbidden();
      return await fn(tx);
    });
  }

  routes.get('/', async (c) => {
    const query = validate(certificateSearchQuerySchema, firstQueryValues(c));
    const page = await asAdmin(c, async (tx) => {
      const pattern = query.search ? containsPattern(query.search.toLowerCase()) : null;
      // The expression matches certificates_search_trgm_idx.
      const where = pattern ? tx`where lower(c.learner_name || ' ' || c.verification_code) like ${pattern}` : tx``;
      const [{ total }] = await tx<{ total: number }[]>`select count(*)::int as total from public.certificates c ${where}`;
      const rows = await tx<Row[]>`
        ${selectCertificates(tx)}
        ${where}
        order by c.issued_at desc, c.id desc
        limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`;
      return { items: rows.map(toAdminCertificate), total, page: query.page, pageSize: query.pageSize };
    });
    return c.json(page);
  });

  routes.post('/:id/revoke', async (c) => {
    requireUser(c);
    // Who may: before reading the body, so a non-admin learns nothing from validation.
    await asAdmin(c, async () => {});
    const id = pathId(c, 'id', NOT_FOUND);
    const { reason } = await jsonBody(c, certificateRevokeSchema);
    const certificate = await asAdmin(c, async (tx) => {
      try {
        await tx.savepoint((sp) => sp`select private.revoke_certificate(${id}::uuid, ${reason})`);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'P0002') throw notFound();
        if (code === 'P0409') throw new ApiError(409, 'This certificate is already revoked');
        if (code === '42501') throw forbidden();
        if (code === '22023') throw new ApiError(400, 'Validation failed', { reason: 'Give a reason of 1 to 500 characters' });
        throw error;
      }
      const [row] = await tx<Row[]>`${selectCertificates(tx)} where c.id = ${id}::uuid`;
      return toAdminCertificate(row);
    });
    return c.json(certificate);
  });

  // The same verification code with the learner's name, course title and service as they
  // are now (after an admin corrected the name); private.reissue_certificate records it in the audit trail.
  routes.post('/:id/reissue', async (c) => {
    requireUser(c);
    await asAdmin(c, async () => {});
    const id = pathId(c, 'id', NOT_FOUND);
    const certificate = await asAdmin(c, async (tx) => {
      try {
        await tx.savepoint((sp) => sp`select 1 from private.reissue_certificate(${id}::uuid)`);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'P0002') throw notFound();
        if (code === 'P0409') throw new ApiError(409, 'A revoked certificate cannot be reissued');
        if (code === '42501') throw forbidden();
        throw error;
      }
      const [row] = await tx<Row[]>`${selectCertificates(tx)} where c.id = ${id}::uuid`;
      return toAdminCertificate(row);
    });
    return c.json(certificate);
  });

  return routes;
}
