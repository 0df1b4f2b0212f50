// /api/scim/v2/Users: an organisation's people as SCIM Users (RFC 7644 section 3), for its identity
// system. Every handler is one transaction as anon whose SQL functions check the token and keep to
// its organisation (supabase/schemas/23_scim_provisioning.sql); the handler only reads SCIM.
import type { Hono } from 'hono';
import type { Db, Tx } from '../../lib/db.ts';
import {
  asToken, bearerToken, eqFilter, listResponse, paging, type PatchOpMessage, resourceId, SCIMMY, scimBody, scimJson, ScimError,
  withLocation, withScimmy,
} from './protocol.ts';
import {
  attributesOf, changedAttributes, checkedUser, compliantPatch, compliantResource, type UserAttributes,
} from './user-attributes.ts';

type Json = Record<string, unknown>;
/** The attributes as the JSON parameter postgres.js sends (plain strings, booleans and nulls). */
const asJson = (attributes: Partial<UserAttributes>) => attributes as unknown as Parameters<Tx['json']>[0];

async function getUser(tx: Tx, token: string, id: string): Promise<Json> {
  const [row] = await tx<{ user: Json }[]>`select private.scim_get_user(${token}, ${id}::uuid) as user`;
  return row.user;
}

/** A User's attributes for the SQL functions, from a POST or PUT body. */
function userFromBody(body: Json): UserAttributes {
  const attributes = attributesOf(checkedUser(compliantResource(body), 'in'));
  if (!attributes.userName) throw new ScimError(400, 'invalidValue', 'userName is required');
  return attributes;
}

export function registerUserRoutes(scim: Hono, db: Db, baseUrl: string) {
  const resource = (user: Json) => withLocation(user, baseUrl, 'User');

  scim.get('/Users', async (c) => {
    const token = bearerToken(c);
    const filter = eqFilter(c, ['userName', 'externalId']);
    const { startIndex, offset, limit } = paging(c);
    const page = await asToken(db, async (tx) => {
      const [row] = await tx<{ page: { total: number; items: Json[] } }[]>`
        select private.scim_list_users(${token}, ${filter?.attribute === 'userName' ? filter.value : null},
          ${filter?.attribute === 'externalId' ? filter.value : null}, ${offset}, ${limit}) as page`;
      return row.page;
    });
    return scimJson(c, listResponse({ total: page.total, items: page.items.map(resource) }, startIndex));
  });

  scim.post('/Users', async (c) => {
    const token = bearerToken(c);
    const user = userFromBody(await scimBody(c));
    const created = await asToken(db, async (tx) => {
      const [row] = await tx<{ user: Json }[]>`select private.scim_create_user(${token}, ${tx.json(asJson(user))}) as user`;
      return row.user;
    });
    const answer = resource(created);
    return scimJson(c, answer, 201, { location: answer.meta.location as string });
  });

  scim.get('/Users/:id', async (c) => {
    const token = bearerToken(c);
    const id = resourceId(c, 'User');
    return scimJson(c, resource(await asToken(db, (tx) => getUser(tx, token, id))));
  });

  scim.put('/Users/:id', async (c) => {
    const token = bearerToken(c);
    const id = resourceId(c, 'User');
    const user = userFromBody(await scimBody(c));
    const replaced = await asToken(db, async (tx) => {
      const [row] = await tx<{ user: Json }[]>`select private.scim_replace_user(${token}, ${id}::uuid, ${tx.json(asJson(user))}) as user`;
      return row.user;
    });
    return scimJson(c, resource(replaced));
  });

  // The PatchOp is applied by SCIMMY to the resource as it is now, in the same transaction as the
  // write; only the attributes that differ afterwards are sent, so a repeated PATCH writes nothing.
  // SCIMMY checks each value an operation sets, and the whole resource's required attributes, as
  // it applies them; its result is read as it is. It is given the resource without meta, which
  // the server alone writes and no attribute sent to the database comes from: SCIMMY's reading of
  // meta's two dates was a third of its time (an operation on meta is refused as before, by the
  // schema). SCIMMY was most of a PATCH's CPU time in the function.
  scim.patch('/Users/:id', async (c) => {
    const token = bearerToken(c);
    const id = resourceId(c, 'User');
    const body = compliantPatch(await scimBody(c));
    const message = await withScimmy(() => new SCIMMY.Messages.PatchOp(body as PatchOpMessage));
    const patched = await asToken(db, async (tx) => {
      const current = resource(await getUser(tx, token, id));
      const { meta: _meta, ...patchable } = current;
      const after = await withScimmy(() => message.apply(new SCIMMY.Schemas.User(patchable, 'out')));
      if (after === undefined) return current;
      const changes = changedAttributes(attributesOf(current), attributesOf(JSON.parse(JSON.stringify(after))));
      if (Object.keys(changes).length === 0) return current;
      if ('userName' in changes && !changes.userName) throw new ScimError(400, 'invalidValue', 'userName is required');
      const [row] = await tx<{ user: Json }[]>`select private.scim_patch_user(${token}, ${id}::uuid, ${tx.json(asJson(changes))}) as user`;
      return resource(row.user);
    });
    return scimJson(c, patched);
  });

  // The person is deactivated and leaves SCIM; their training records stay (no erasure).
  scim.delete('/Users/:id', async (c) => {
    const token = bearerToken(c);
    const id = resourceId(c, 'User');
    await asToken(db, (tx) => tx`select private.scim_delete_user(${token}, ${id}::uuid)`);
    return c.body(null, 204);
  });
}
