// /api/issuers: each issuer's public documents, for anyone who verifies its credentials: the Open
// Badges Profile with its keys (current and retired), one key as a Multikey document, its signed
// Bitstring Status Lists (revocation) and its image. And key rotation, for the issuer's
// administrators: it answers the new key's public part only.
import { Hono } from 'hono';
import type { Config } from '../lib/config.ts';
import type { Db } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { ApiError } from '../lib/errors.ts';
import { credentialUrls } from '../lib/credentials/urls.ts';
import { keyDocumentOf, profileDocument, statusListDocument } from '../lib/credentials/documents.ts';
import { addKey, ISSUER_ID, keyDocument } from '../lib/credentials/issuer.ts';
import { badgePng } from '../lib/credentials/png.ts';

const NOT_FOUND = 'Issuer not found';
const JSON_LD = { 'Content-Type': 'application/ld+json; charset=utf-8', 'Cache-Control': 'public, max-age=300' };

/** The issuer's colour: national blue, an organisation's from its id. */
export function issuerColour(issuerId: string): [number, number, number] {
  if (issuerId === 'national') return [0, 48, 135];
  const n = parseInt(issuerId.slice(0, 6), 16);
  return [40 + (n % 120), 40 + ((n >> 8) % 120), 40 + ((n >> 16) % 120)];
}

export function issuerRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();
  const urls = credentialUrls(config);

  const issuerParam = (value: string | undefined) => {
    if (!value || !ISSUER_ID.test(value)) throw new ApiError(404, NOT_FOUND);
    return value;
  };

  routes.get('/:issuerId', async (c) => {
    const issuerId = issuerParam(c.req.param('issuerId'));
    const profile = await db.withCaller(c.get('caller').db, (tx) => profileDocument(tx, urls, issuerId));
    if (!profile) throw new ApiError(404, NOT_FOUND);
    return c.body(JSON.stringify(profile), 200, JSON_LD);
  });

  routes.get('/:issuerId/image.png', async (c) => {
    const issuerId = issuerParam(c.req.param('issuerId'));
    const profile = await db.withCaller(c.get('caller').db, (tx) => profileDocument(tx, urls, issuerId));
    if (!profile) throw new ApiError(404, NOT_FOUND);
    return c.body(badgePng(issuerColour(issuerId)), 200, { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=86400' });
  });

  routes.get('/:issuerId/keys/:keyId', async (c) => {
    const issuerId = issuerParam(c.req.param('issuerId'));
    const key = await db.withCaller(c.get('caller').db, (tx) => keyDocumentOf(tx, urls, issuerId, c.req.param('keyId')));
    if (!key) throw new ApiError(404, 'Key not found');
    return c.body(JSON.stringify(key), 200, JSON_LD);
  });

  // Signed on each request with the issuer's current key, so a revocation shows at once.
  routes.get('/:issuerId/status/:listId', async (c) => {
    const issuerId = issuerParam(c.req.param('issuerId'));
    const list = await db.withServiceRole((tx) => statusListDocument(tx, urls, issuerId, c.req.param('listId')));
    if (!list) throw new ApiError(404, 'Status list not found');
    return c.body(JSON.stringify(list), 200, { ...JSON_LD, 'Cache-Control': 'no-store' });
  });

  // The issuer's administrators: a national administrator for national, an organisation's for its
  // own (and national administrators for any). The old key is kept, retired, for verification.
  routes.post('/:issuerId/keys/rotate', async (c) => {
    const caller = requireUser(c);
    const issuerId = issuerParam(c.req.param('issuerId'));
    const allowed = await db.withCaller(caller.db, async (tx) => {
      const [row] = await tx<{ known: boolean; allowed: boolean }[]>`
        select exists (select 1 from private.issuer_profile(${issuerId})) as known,
               (select private.is_admin()) or coalesce((select private.administered_organisation_id())::text = ${issuerId}, false) as allowed`;
      return row;
    });
    if (!allowed.known) throw new ApiError(404, NOT_FOUND);
    if (!allowed.allowed) throw new ApiError(403, 'Only the issuer\'s administrators may rotate its key');
    const key = await db.withServiceRole(async (tx) => {
      const added = await addKey(tx, issuerId, true);
      await tx`
        insert into public.audit_events (actor_id, actor_name, actor_username, action, target_type, target_label, new_data)
        select p.id, p.name, p.username, 'issuer.key_rotated', 'issuer',
               (select i.name from private.issuer_profile(${issuerId}) i), ${tx.json({ issuerId, keyId: added.id })}
        from public.profiles p where p.id = ${caller.userId}`;
      return added;
    });
    return c.json(keyDocument(urls, issuerId, key), 201);
  });

  return routes;
}
