// /api/credentials: a credential its holder shares (public while sharing is on), and verification
// of any issuer's Open Badges 3.0 credential (pasted or uploaded JSON, at most 256 KB): the
// proof, the issuer's key, the status list, the dates and the OB 3.0.3 schema, each with its outcome.
// Verification is limited per client address (private.rate_limit_take, 'verify_credential').
import { Hono } from 'hono';
import { MAX_CREDENTIAL_BYTES } from '../../_shared/credentials.ts';
import type { Config } from '../lib/config.ts';
import type { Db } from '../lib/db.ts';
import type { Env } from '../lib/auth.ts';
import { readBytes } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { clientIp, takeAttempt } from '../lib/rate-limit.ts';
import { credentialUrls } from '../lib/credentials/urls.ts';
import { platformDocumentLoader } from '../lib/credentials/documents.ts';
import { verifyOpenBadge } from '../lib/credentials/verify.ts';

const SHARE_ID = /^[0-9a-f]{32}$/;

export function credentialRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();
  const urls = credentialUrls(config);

  routes.get('/shared/:shareId', async (c) => {
    const shareId = c.req.param('shareId');
    if (!SHARE_ID.test(shareId)) throw new ApiError(404, 'Credential not found');
    const credential = await db.withCaller(c.get('caller').db, async (tx) => {
      const [row] = await tx<{ credential: unknown }[]>`select private.shared_credential(${shareId}) as credential`;
      return row?.credential ?? null;
    });
    if (!credential) throw new ApiError(404, 'Credential not found');
    return c.body(JSON.stringify(credential), 200, { 'Content-Type': 'application/ld+json; charset=utf-8', 'Cache-Control': 'no-store' });
  });

  routes.post('/verify', async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/(ld\+)?json\b/i.test(type)) throw new ApiError(415, 'Send the credential as application/json');
    // Counted per address before the body is read: every request that could reach the proof check counts.
    await takeAttempt(db, 'verify_credential', null, clientIp(c));
    const bytes = await readBytes(c.req.raw, MAX_CREDENTIAL_BYTES, () =>
      new ApiError(413, 'A credential is at most 256 KB'));
    let credential: unknown;
    try {
      credential = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      throw new ApiError(400, 'Validation failed', { credential: 'This is not a credential: it is not JSON' });
    }
    return c.json(await verifyOpenBadge(credential, { documentLoader: platformDocumentLoader(db, urls) }));
  });

  return routes;
}
