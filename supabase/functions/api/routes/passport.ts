// /api/passport: the learner's training passport. Every credential of their certificates (the
// latest of each certificate: a reissue makes a new one) with its status, the signed JSON, the PNG
// badge with the credential baked in, and the public share link they switch on and off. Credentials
// still pending are signed first (the function's service role), then read as the learner.
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { type PassportCredential, type PassportState, shareSchema } from '../../_shared/credentials.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Statements } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { pageFields, pagingQuery, pathId } from '../lib/params.ts';
import { credentialUrls } from '../lib/credentials/urls.ts';
import { sharedCredentialUrl, type Urls } from '../lib/credentials/issuer.ts';
import { signPending } from '../lib/credentials/sign.ts';
import { bakePng, badgePng } from '../lib/credentials/png.ts';
import { issuerColour } from './issuers.ts';

const NOT_FOUND = 'Credential not found';
const pagingSchema = z.object(pageFields);

interface Row {
  id: string;
  certificateId: string;
  verificationCode: string;
  courseTitle: string;
  achievementName: string | null;
  issuerId: string;
  issuerName: string | null;
  issuedAt: Date;
  validUntil: Date | null;
  state: string;
  signed: boolean;
  shareEnabled: boolean;
  shareId: string;
  total: number;
}

/** The latest credential of each of the caller's certificates (RLS: the holder's own). */
function passportRows(sql: Statements, page: number, pageSize: number) {
  return sql<Row[]>`
    select x.*, count(*) over ()::int as total from (
      select distinct on (cr.certificate_id)
             cr.id, cr.certificate_id as "certificateId", c.verification_code as "verificationCode",
             c.course_title as "courseTitle",
             cr.credential #>> '{credentialSubject,achievement,name}' as "achievementName",
             cr.issuer_id as "issuerId", cr.credential #>> '{issuer,name}' as "issuerName",
             c.issued_at as "issuedAt", c.expires_at as "validUntil",
             private.certificate_state(c.expires_at, c.revoked_at) as state,
             cr.credential is not null as signed, cr.share_enabled as "shareEnabled", cr.share_id as "shareId"
      from public.credentials cr
      join public.certificates c on c.id = cr.certificate_id
      where cr.user_id = (select auth.uid())
      order by cr.certificate_id, cr.created_at desc
    ) x
    order by x."issuedAt" desc, x.id
    limit ${pageSize} offset ${(page - 1) * pageSize}`;
}

const toState = (state: string): PassportState => (state === 'revoked' || state === 'expired' ? state : 'valid');

function toItem(urls: Urls, row: Row): PassportCredential {
  return {
    id: row.id,
    certificateId: row.certificateId,
    verificationCode: row.verificationCode,
    courseTitle: row.courseTitle,
    achievementName: row.achievementName,
    issuerId: row.issuerId,
    issuerName: row.issuerName,
    issuedAt: new Date(row.issuedAt).toISOString(),
    validUntil: row.validUntil ? new Date(row.validUntil).toISOString() : null,
    status: toState(row.state),
    signed: row.signed,
    shareEnabled: row.shareEnabled,
    shareUrl: row.shareEnabled ? sharedCredentialUrl(urls, row.shareId) : null,
    verifyUrl: `${urls.siteUrl}/verify/${row.verificationCode}`,
  };
}

export function passportRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();
  const urls = credentialUrls(config);

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const { page, pageSize } = pagingQuery(pagingSchema, {
      page: c.req.query('page') ?? undefined,
      pageSize: c.req.query('pageSize') ?? undefined,
    });
    await signPending(db, urls, { userIds: [caller.userId] });
    const rows = await db.withCaller(caller.db, (tx) => passportRows(tx, page, pageSize));
    return c.json({ items: rows.map((r) => toItem(urls, r)), total: rows[0]?.total ?? 0, page, pageSize });
  });

  /** The caller's signed credential (signing it first when it is still pending). */
  async function ownCredential(c: Context<Env>) {
    const caller = requireUser(c);
    const id = pathId(c, 'credentialId', NOT_FOUND);
    const read = () =>
      db.withCaller(caller.db, async (tx) => {
        const [row] = await tx<{ credential: unknown; issuerId: string }[]>`
          select credential, issuer_id as "issuerId" from public.credentials where id = ${id}`;
        return row ?? null;
      });
    let row = await read();
    if (row && row.credential === null) {
      await signPending(db, urls, { credentialIds: [id] });
      row = await read();
    }
    if (!row) throw new ApiError(404, NOT_FOUND);
    if (row.credential === null) throw new ApiError(409, 'This credential is being signed: try again in a moment');
    return { id, ...row };
  }

  routes.get('/:credentialId/credential.json', async (c) => {
    const { id, credential } = await ownCredential(c);
    return c.body(JSON.stringify(credential, null, 2), 200, {
      'Content-Type': 'application/ld+json; charset=utf-8',
      'Content-Disposition': `attachment; filename="credential-${id}.json"`,
      'Cache-Control': 'no-store',
    });
  });

  routes.get('/:credentialId/badge.png', async (c) => {
    const { id, credential, issuerId } = await ownCredential(c);
    return c.body(bakePng(badgePng(issuerColour(issuerId)), credential), 200, {
      'Content-Type': 'image/png',
      'Content-Disposition': `attachment; filename="badge-${id}.png"`,
      'Cache-Control': 'no-store',
    });
  });

  routes.patch('/:credentialId', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'credentialId', NOT_FOUND);
    const { shareEnabled } = await jsonBody(c, shareSchema);
    const row = await db.withCaller(caller.db, async (tx) => {
      const [updated] = await tx<{ shareId: string; shareEnabled: boolean }[]>`
        update public.credentials set share_enabled = ${shareEnabled} where id = ${id}
        returning share_id as "shareId", share_enabled as "shareEnabled"`;
      return updated ?? null;
    });
    if (!row) throw new ApiError(404, NOT_FOUND);
    return c.json({ id, shareEnabled: row.shareEnabled, shareUrl: row.shareEnabled ? sharedCredentialUrl(urls, row.shareId) : null });
  });

  return routes;
}
