// /api/scim/v2/Groups: an organisation's units as SCIM Groups (displayName = the unit's name,
// members = its provisioned people placed there). Adding a member moves the person into the unit;
// removing one takes them out of it. The SQL functions check the token and keep to its organisation.
import type { Context, Hono } from 'hono';
import type { Db, Tx } from '../../lib/db.ts';
import {
  asToken, bearerToken, eqFilter, invalidValue, listResponse, membersWanted, paging, type PatchOpMessage, resourceId, SCIMMY,
  scimBody, scimJson, ScimError, withLocation, withScimmy,
} from './protocol.ts';
import { UUID_PATTERN } from '../../../_shared/ids.ts';

type Json = Record<string, unknown>;

/** The member ids of a `members` value (`[{ value }]`); an id that is no uuid is no person here. */
function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((member) => {
    const id = member !== null && typeof member === 'object' ? (member as Json).value : member;
    if (typeof id !== 'string' || !UUID_PATTERN.test(id)) throw invalidValue('Every member must be a provisioned user of the organisation');
    return id.toLowerCase();
  });
}

/** Checked uuids as one array literal (an empty JS array has no type postgres.js can send). */
const uuidArray = (ids: string[] | null) => (ids === null ? null : `{${ids.join(',')}}`);

function displayNameOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidValue('displayName must be a non-empty string');
  return value;
}

interface GroupChange {
  displayName: string | null;
  add: string[];
  remove: string[];
  /** PUT, or a replace of all members: the members after the request. */
  set: string[] | null;
}

/** `members[value eq "id"]`: the one member a remove names in its path (SCIMMY reads the filter). */
function memberOfPath(path: string): string {
  const inner = /^members\[(.+)\]$/i.exec(path)?.[1];
  let expressions: Json[] = [];
  try {
    expressions = inner ? [...new SCIMMY.Types.Filter(inner)] as Json[] : [];
  } catch (error) {
    throw new ScimError(400, 'invalidFilter', `Invalid filter: ${(error as Error).message}`);
  }
  const comparison = expressions.length === 1 ? Object.entries(expressions[0]) : [];
  if (comparison.length !== 1 || comparison[0][0].toLowerCase() !== 'value' || !Array.isArray(comparison[0][1]) ||
      String(comparison[0][1][0]).toLowerCase() !== 'eq') {
    throw new ScimError(400, 'invalidPath', `Unsupported path '${path}': use members or members[value eq "id"]`);
  }
  return memberIds(comparison[0][1][1])[0];
}

/**
 * A Group PatchOp as the change the database makes. SCIMMY checks the message; the operations on a
 * unit are few (rename, add, remove, replace members), so they are read here rather than applied to
 * a whole member list, which Entra never asks for.
 */
async function groupChange(body: Json): Promise<GroupChange> {
  const message = await withScimmy(() => new SCIMMY.Messages.PatchOp(body as PatchOpMessage));
  const change: GroupChange = { displayName: null, add: [], remove: [], set: null };
  for (const operation of message.Operations as { op: string; path?: string; value?: unknown }[]) {
    const op = operation.op.toLowerCase();
    const path = operation.path?.trim() ?? '';
    const values: [string, unknown][] = path
      ? [[path, operation.value]]
      : operation.value !== null && typeof operation.value === 'object' ? Object.entries(operation.value as Json) : [];
    if (!path && values.length === 0) throw invalidValue('An operation without a path needs an object value');
    for (const [attribute, value] of values) {
      const name = attribute.toLowerCase();
      if (name === 'displayname' && op !== 'remove') change.displayName = displayNameOf(value);
      else if (name === 'externalid') continue; // Units keep no externalId: Entra matches groups by displayName.
      else if (name === 'members' && op === 'add') change.add.push(...memberIds(value));
      else if (name === 'members' && op === 'replace') change.set = memberIds(value ?? []);
      else if (name === 'members' && op === 'remove') {
        if (value === undefined || value === null) change.set = [];
        else change.remove.push(...memberIds(value));
      } else if (name.startsWith('members[') && op === 'remove') change.remove.push(memberOfPath(attribute));
      else throw new ScimError(400, 'invalidPath', `Unsupported ${op} of '${attribute}' on a Group`);
    }
  }
  return change;
}

async function patchGroup(tx: Tx, token: string, id: string, change: GroupChange): Promise<Json> {
  const [row] = await tx<{ group: Json }[]>`
    select private.scim_patch_group(${token}, ${id}::uuid, ${change.displayName}, ${uuidArray(change.add)}::uuid[],
      ${uuidArray(change.remove)}::uuid[], ${uuidArray(change.set)}::uuid[]) as group`;
  return row.group;
}

export function registerGroupRoutes(scim: Hono, db: Db, baseUrl: string) {
  const resource = (group: Json, c: Context) => {
    const answer = withLocation(group, baseUrl, 'Group');
    if (!membersWanted(c)) delete (answer as Json).members;
    return answer;
  };

  scim.get('/Groups', async (c) => {
    const token = bearerToken(c);
    const filter = eqFilter(c, ['displayName']);
    const { startIndex, offset, limit } = paging(c);
    const page = await asToken(db, async (tx) => {
      const [row] = await tx<{ page: { total: number; items: Json[] } }[]>`
        select private.scim_list_groups(${token}, ${filter?.value ?? null}, ${offset}, ${limit}, ${membersWanted(c)}) as page`;
      return row.page;
    });
    return scimJson(c, listResponse({ total: page.total, items: page.items.map((g) => resource(g, c)) }, startIndex));
  });

  scim.post('/Groups', async (c) => {
    const token = bearerToken(c);
    const body = await scimBody(c);
    const displayName = displayNameOf(body.displayName);
    const members = body.members === undefined || body.members === null ? [] : memberIds(body.members);
    const created = await asToken(db, async (tx) => {
      const [row] = await tx<{ group: Json }[]>`
        select private.scim_create_group(${token}, ${displayName}, ${uuidArray(members)}::uuid[]) as group`;
      return row.group;
    });
    const answer = resource(created, c);
    return scimJson(c, answer, 201, { location: answer.meta.location as string });
  });

  scim.get('/Groups/:id', async (c) => {
    const token = bearerToken(c);
    const id = resourceId(c, 'Group');
    const group = await asToken(db, async (tx) => {
      const [row] = await tx<{ group: Json }[]>`select private.scim_get_group(${token}, ${id}::uuid, ${membersWanted(c)}) as group`;
      return row.group;
    });
    return scimJson(c, resource(group, c));
  });

  scim.put('/Groups/:id', async (c) => {
    const token = bearerToken(c);
    const id = resourceId(c, 'Group');
    const body = await scimBody(c);
    const change: GroupChange = {
      displayName: displayNameOf(body.displayName),
      add: [],
      remove: [],
      set: body.members === undefined || body.members === null ? [] : memberIds(body.members),
    };
    return scimJson(c, resource(await asToken(db, (tx) => patchGroup(tx, token, id, change)), c));
  });

  scim.patch('/Groups/:id', async (c) => {
    const token = bearerToken(c);
    const id = resourceId(c, 'Group');
    const change = await groupChange(await scimBody(c));
    await asToken(db, (tx) => patchGroup(tx, token, id, change));
    // Entra reads nothing back from a group PATCH (its members may be many); RFC 7644 allows 204.
    return c.body(null, 204);
  });

  // Only an empty unit is removed (409 otherwise): its people, sub-units and rules are the administrators'.
  scim.delete('/Groups/:id', async (c) => {
    const token = bearerToken(c);
    const id = resourceId(c, 'Group');
    await asToken(db, (tx) => tx`select private.scim_delete_group(${token}, ${id}::uuid)`);
    return c.body(null, 204);
  });
}
