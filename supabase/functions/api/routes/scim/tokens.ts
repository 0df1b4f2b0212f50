// /api/organisations/:id/scim: an organisation's SCIM provisioning for its administrators (and
// national ones): the base URL to give the identity system and the tokens, made (shown once) and
// revoked. The database decides who may (private.create_scim_token, private.revoke_scim_token and
// the policy on scim_tokens); the routes only answer 404 rather than an empty list.
import { Hono } from 'hono';
import type { CreatedScimToken, ScimSettings, ScimTokenItem } from '../../../_shared/scim.ts';
import { scimTokenCreateSchema } from '../../../_shared/scim.ts';
import type { Config } from '../../lib/config.ts';
import type { Db, Tx } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { ApiError, fromSqlFunction, pgError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { forbidden } from '../../lib/admin.ts';
import { scimBaseUrl } from './index.ts';

const NO_ORGANISATION = 'Organisation not found';
const NO_TOKEN = 'Token not found';

interface TokenRow {
  id: string;
  label: string;
  tokenHint: string;
  createdAt: Date;
  createdBy: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

function toItem(row: TokenRow, names: Map<string, string>): ScimTokenItem {
  return {
    id: row.id,
    label: row.label,
    hint: row.tokenHint,
    createdAt: iso(row.createdAt)!,
    createdByName: row.createdBy ? names.get(row.createdBy) ?? null : null,
    lastUsedAt: iso(row.lastUsedAt),
    revokedAt: iso(row.revokedAt),
  };
}

/** The creators' names, read as the caller (a creator the caller may not see reads as no name). */
async function creatorNames(tx: Tx, rows: TokenRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((r) => r.createdBy).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const people = await tx<{ id: string; name: string }[]>`select id, name from public.profiles where id = any(${`{${ids.join(',')}}`}::uuid[])`;
  return new Map(people.map((p) => [p.id, p.name]));
}

/** 403 for anyone but an administrator, 404 for an organisation the caller does not administer. */
async function administeredOrganisation(tx: Tx, id: string): Promise<void> {
  const [who] = await tx<{ national: boolean; org: string | null }[]>`
    select private.is_admin() as national, private.administered_organisation_id() as org`;
  if (!who.national && !who.org) throw forbidden("Only the organisation's administrators may manage SCIM provisioning");
  if (!who.national && who.org !== id) throw new ApiError(404, NO_ORGANISATION);
  const [found] = await tx`select 1 from public.organisations where id = ${id}`;
  if (!found) throw new ApiError(404, NO_ORGANISATION);
}

export function scimTokenRoutes(config: Config, db: Db) {
  const app = new Hono<Env>();

  app.get('/', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const answer = await db.withCaller(caller.db, async (tx): Promise<ScimSettings> => {
      await administeredOrganisation(tx, id);
      // Column grants keep token_hash out of reach; the policy keeps other organisations' out.
      const rows = await tx<TokenRow[]>`
        select id, label, token_hint, created_at, created_by, last_used_at, revoked_at
        from public.scim_tokens where organisation_id = ${id} order by created_at desc, id desc limit 100`;
      const names = await creatorNames(tx, rows);
      return { baseUrl: scimBaseUrl(config), tokens: rows.map((r) => toItem(r, names)) };
    });
    return c.json(answer);
  });

  app.post('/tokens', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const input = await jsonBody(c, scimTokenCreateSchema);
    const answer = await db.withCaller(caller.db, async (tx): Promise<CreatedScimToken> => {
      await administeredOrganisation(tx, id);
      try {
        const [row] = await tx<(TokenRow & { token: string })[]>`
          select token, id, label, token_hint, created_by, created_at, last_used_at, revoked_at
          from private.create_scim_token(${id}::uuid, ${input.label})`;
        const { token, ...item } = row;
        return { token, item: toItem(item, await creatorNames(tx, [item])) };
      } catch (error) {
        if (pgError(error)?.code === '22023') throw new ApiError(400, 'Validation failed', { label: (error as Error).message });
        fromSqlFunction(error);
      }
    });
    return c.json(answer, 201);
  });

  app.delete('/tokens/:tokenId', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const tokenId = pathId(c, 'tokenId', NO_TOKEN);
    const answer = await db.withCaller(caller.db, async (tx): Promise<ScimTokenItem> => {
      await administeredOrganisation(tx, id);
      // A token of another organisation is not found here, whoever asks.
      const [mine] = await tx`select 1 from public.scim_tokens where id = ${tokenId} and organisation_id = ${id}`;
      if (!mine) throw new ApiError(404, NO_TOKEN);
      try {
        const [row] = await tx<TokenRow[]>`
          select id, label, token_hint, created_by, created_at, last_used_at, revoked_at
          from private.revoke_scim_token(${tokenId}::uuid)`;
        return toItem(row, await creatorNames(tx, [row]));
      } catch (error) {
        fromSqlFunction(error);
      }
    });
    return c.json(answer);
  });

  return app;
}
