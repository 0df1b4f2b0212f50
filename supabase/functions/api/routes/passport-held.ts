// /api/passport/held: credentials of other issuers a learner holds and uploads (a credential JSON,
// at most 256 KB), so that the organisation they join can recognise them. The upload is verified
// here with the platform's verifier (proof, issuer key, status list, dates, OB 3.0.3 schema) and
// must be the caller's own (its subject's hashed email is the caller's); only then is it recorded,
// by private.record_held_credential, which the function's service role alone may call. A
// credential whose proof cannot be checked is refused; one that verifies but is expired, revoked,
// not yet valid or whose status could not be read is kept as not verified (it is never recognised).
// The holder lists and removes their own (row-level security: 29_recognition.sql).
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { MAX_CREDENTIAL_BYTES } from '../../_shared/credentials.ts';
import { type HeldCredential, type HeldState } from '../../_shared/recognition.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { readBytes } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { firstQueryValues, pageFields, pagingQuery, pathId } from '../lib/params.ts';
import { credentialUrls } from '../lib/credentials/urls.ts';
import { platformDocumentLoader } from '../lib/credentials/documents.ts';
import { verifyOpenBadge, type VerificationResult } from '../lib/credentials/verify.ts';
import { hashedEmail } from '../lib/credentials/build.ts';

const NOT_FOUND = 'Credential not found';
export const NOT_THE_HOLDER = 'This credential was issued to someone else: its email is not yours';
const pagingSchema = z.object(pageFields);

interface Row {
  id: string;
  issuerId: string;
  issuerName: string;
  achievementId: string;
  achievementName: string;
  validFrom: Date | null;
  validUntil: Date | null;
  state: HeldState;
  codes: string[] | null;
  verifiedAt: Date;
  total: number;
}

const toItem = (r: Row): HeldCredential => ({
  id: r.id,
  issuerId: r.issuerId,
  issuerName: r.issuerName,
  achievementId: r.achievementId,
  achievementName: r.achievementName,
  validFrom: isoTimestamp(r.validFrom),
  validUntil: isoTimestamp(r.validUntil),
  state: r.state,
  codes: r.codes ?? [],
  verifiedAt: isoTimestamp(r.verifiedAt) ?? '',
});

/** The holder's credentials (row-level security: the caller's own here), or one of them. */
function selectHeld(tx: Tx, userId: string, id: string | null, limit: number, offset: number) {
  return tx<Row[]>`
    select h.id, h.issuer_id, h.issuer_name, h.achievement_id, h.achievement_name, h.valid_from, h.valid_until,
           case when h.valid_until is not null and h.valid_until <= now() then 'expired'
                when h.verified then 'valid' else 'not-verified' end as state,
           array(select jsonb_array_elements_text(coalesce(h.verification -> 'codes', '[]'::jsonb))) as codes,
           h.verified_at, count(*) over ()::int as total
    from public.held_credentials h
    where h.user_id = ${userId}::uuid and (${id}::uuid is null or h.id = ${id}::uuid)
    order by h.valid_until desc nulls first, h.achievement_name, h.id
    limit ${limit} offset ${offset}`;
}

/** The uploaded credential: JSON of at most 256 KB (413, 415, 400 otherwise), with its sha256. */
async function uploadedCredential(c: Context<Env>): Promise<{ credential: unknown; hash: string }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/(ld\+)?json\b/i.test(type)) throw new ApiError(415, 'Send the credential as application/json');
  const bytes = await readBytes(c.req.raw, MAX_CREDENTIAL_BYTES, () => new ApiError(413, 'A credential is at most 256 KB'));
  let credential: unknown;
  try {
    credential = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ApiError(400, 'Validation failed', { credential: 'This is not a credential: it is not JSON' });
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return { credential, hash: [...digest].map((b) => b.toString(16).padStart(2, '0')).join('') };
}

/** A credential's date as an ISO instant (null when absent or not a date). */
const instant = (value: string | null) => (value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null);

/** Whether the credential's subject is the person of this email (a hashed or plain email identity). */
async function isHolder(credential: unknown, email: string): Promise<boolean> {
  const subject = (credential as { credentialSubject?: unknown }).credentialSubject;
  const identifiers = [subject].flat().flatMap((s) => [(s as { identifier?: unknown } | null)?.identifier ?? []].flat());
  for (const identifier of identifiers) {
    const { identityType, identityHash, hashed, salt } = (identifier ?? {}) as Record<string, unknown>;
    if (identityType !== 'emailAddress' || typeof identityHash !== 'string') continue;
    if (hashed === true) {
      const mine = await hashedEmail(email, typeof salt === 'string' ? salt : '');
      if (identityHash.toLowerCase() === mine.identityHash) return true;
    } else if (identityHash.trim().toLowerCase() === email.trim().toLowerCase()) {
      return true;
    }
  }
  return false;
}

/** A credential whose signature and issuer key hold is kept (verified or not); anything else is refused. */
function refuseUnverifiable(result: VerificationResult): void {
  if (result.checks.proof === 'passed' && result.checks.issuerKey === 'passed' && result.checks.schema === 'passed' &&
    result.issuer && result.issuer.id.length <= 2000 && result.achievement?.id && result.achievement.id.length <= 2000) return;
  throw new ApiError(400, 'Validation failed', {
    credential: result.codes.includes('tampered')
      ? 'This credential has been changed since it was signed'
      : result.codes.includes('unknown-issuer-key') || result.codes.includes('untrusted-issuer')
      ? 'The issuer\'s key could not be checked'
      : 'This is not an Open Badges 3.0 credential',
  });
}

export function heldCredentialRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();
  const urls = credentialUrls(config);

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const { page, pageSize } = pagingQuery(pagingSchema, firstQueryValues(c));
    const rows = await db.withCaller(caller.db, (tx) => selectHeld(tx, caller.userId, null, pageSize, (page - 1) * pageSize));
    return c.json({ items: rows.map(toItem), total: rows[0]?.total ?? 0, page, pageSize });
  });

  routes.post('/', async (c) => {
    const caller = requireUser(c);
    const { credential, hash } = await uploadedCredential(c);
    const verification = await verifyOpenBadge(credential, { documentLoader: platformDocumentLoader(db, urls) });
    refuseUnverifiable(verification);
    const row = await db.withServiceRole(async (tx) => {
      const [me] = await tx<{ email: string }[]>`
        select email from public.profiles where id = ${caller.userId}::uuid and deactivated_at is null`;
      if (!me || !(await isHolder(credential, me.email))) throw new ApiError(403, NOT_THE_HOLDER);
      const [row] = await tx<{ id: string }[]>`
        select private.record_held_credential(${caller.userId}::uuid, ${tx.json(credential as never)}, ${hash},
          ${verification.issuer!.id}, ${verification.issuer!.name || verification.issuer!.id}, ${verification.achievement!.id!},
          ${verification.achievement!.name || verification.achievement!.id!}, ${instant(verification.validFrom)}::timestamptz,
          ${instant(verification.validUntil)}::timestamptz, ${verification.verified},
          ${tx.json({ codes: verification.codes, checks: verification.checks } as never)}) as id`;
      const [held] = await selectHeld(tx, caller.userId, row.id, 1, 0);
      return held;
    });
    return c.json({ heldCredential: toItem(row), verification }, 201);
  });

  routes.get('/:id/credential.json', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NOT_FOUND);
    const [row] = await db.withCaller(caller.db, (tx) =>
      tx<{ credential: unknown }[]>`
        select credential from public.held_credentials where id = ${id}::uuid and user_id = ${caller.userId}::uuid`);
    if (!row) throw new ApiError(404, NOT_FOUND);
    return c.body(JSON.stringify(row.credential), 200, {
      'content-type': 'application/ld+json; charset=utf-8',
      'content-disposition': `attachment; filename="credential-${id}.json"`,
      'cache-control': 'no-store',
    });
  });

  routes.delete('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NOT_FOUND);
    const removed = await db.withCaller(caller.db, (tx) =>
      tx`delete from public.held_credentials where id = ${id}::uuid and user_id = ${caller.userId}::uuid returning id`);
    if (removed.length === 0) throw new ApiError(404, NOT_FOUND);
    return c.body(null, 204);
  });

  return routes;
}
