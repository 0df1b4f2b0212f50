// /api/organisations: organisations and their unit trees. National administrators see
// and create organisations and manage every organisation's units; an organisation's administrator
// sees only their own organisation and manages its units (another organisation is simply not found).
// Everyone else: 403. Everything runs under the caller's row-level security
// (supabase/schemas/13_organisations.sql), which enforces the same rules on its own.
import { Hono } from 'hono';
import {
  type Organisation, organisationInputSchema, type Unit, unitCreateSchema, unitUpdateSchema,
} from '../../_shared/organisations.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError, pgError } from '../lib/errors.ts';
import { pathId } from '../lib/params.ts';
import { forbidden } from '../lib/admin.ts';

const NO_ORGANISATION = 'Organisation not found';
const NO_UNIT = 'Unit not found';

interface Administrator {
  national: boolean;
  /** The organisation an organisation administrator administers; null for a national one. */
  organisationId: string | null;
}

/** Who the caller administers, checked in the transaction of the work: 403 for a non-administrator. */
async function administrator(tx: Tx): Promise<Administrator> {
  const [row] = await tx<{ national: boolean; org: string | null }[]>`
    select private.is_admin() as national, private.administered_organisation_id() as org`;
  if (!row.national && !row.org) throw forbidden('Only administrators may manage organisations');
  return { national: row.national, organisationId: row.org };
}

/** The organisation, if the caller administers it (a national administrator: any); else 404. */
async function administeredOrganisation(tx: Tx, id: string): Promise<void> {
  const who = await administrator(tx);
  if (!who.national && who.organisationId !== id) throw new ApiError(404, NO_ORGANISATION);
  const [found] = await tx`select 1 from public.organisations where id = ${id}`;
  if (!found) throw new ApiError(404, NO_ORGANISATION);
}

/** Database refusals of a unit write as answers: a clash of names or a cycle 409, a stray parent 404. */
function unitConflict(error: unknown): never {
  const pg = pgError(error);
  if (pg?.code === '23505') throw new ApiError(409, 'A unit of that name is already there', { name: 'A unit of that name is already there' });
  if (pg?.code === '23514' && pg.hint === 'unit_cycle') {
    throw new ApiError(409, 'A unit cannot be moved below itself', { parentId: 'A unit cannot be moved below itself' });
  }
  if (pg?.code === '23503') throw new ApiError(404, 'Parent unit not found', { parentId: 'Choose a unit of this organisation' });
  throw error;
}

/**
 * An organisation's units (or one of them) with their people, counting every sub-unit's: one
 * statement. The people of the organisation are grouped by unit (profiles_organisation_idx), then
 * each count climbs its unit's ancestors among the organisation's units (read once, by
 * units_organisation_idx), so the work is the units that hold people times the depth of the tree,
 * never a query per unit.
 */
function unitsWithCounts(tx: Tx, organisationId: string, unitId: string | null = null) {
  return tx<Unit[]>`
    with recursive tree as materialized (
      -- The organisation's units read once by units_organisation_idx; the climb below walks this set.
      select u.id, u.parent_id from public.units u where u.organisation_id = ${organisationId}
    ), direct as (
      select p.unit_id as id, count(*)::int as n from public.profiles p
      where p.organisation_id = ${organisationId} and p.unit_id is not null
      group by p.unit_id
    ), up as (
      select d.id, d.n, 0 as depth from direct d
      union all
      select t.parent_id, up.n, up.depth + 1 from up
      join tree t on t.id = up.id
      where t.parent_id is not null and up.depth < 64
    ), totals as (
      select up.id, sum(up.n)::int as people from up group by up.id
    )
    select u.id, u.organisation_id as "organisationId", u.parent_id as "parentId", u.name,
           coalesce(t.people, 0) as people
    from public.units u left join totals t on t.id = u.id
    where u.organisation_id = ${organisationId} ${unitId ? tx`and u.id = ${unitId}` : tx``}
    order by u.name, u.id`;
}

const organisationColumns = (tx: Tx) => tx`
  o.id, o.name, o.code, o.service::text as service,
  to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt"`;

export function organisationRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const list = await db.withCaller(caller.db, async (tx) => {
      await administrator(tx);
      // Row-level security: every organisation for a national administrator, their own otherwise.
      // Each organisation's people counted by profiles_organisation_idx for that organisation only
      // (an organisation administrator's count reads nobody else's entries).
      return await tx<Organisation[]>`
        select ${organisationColumns(tx)}, coalesce(n.people, 0) as people
        from public.organisations o
        left join lateral (select count(*)::int as people from public.profiles p
                           where p.organisation_id = o.id) n on true
        order by o.name, o.id`;
    });
    return c.json(list);
  });

  routes.post('/', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, organisationInputSchema);
    const created = await db.withCaller(caller.db, async (tx) => {
      const who = await administrator(tx);
      if (!who.national) throw forbidden('Only a national administrator may create organisations');
      const [clash] = await tx`select 1 from public.organisations where lower(code) = lower(${input.code})`;
      if (clash) throw new ApiError(409, 'That code is already in use', { code: 'That code is already in use' });
      const [row] = await tx<Organisation[]>`
        insert into public.organisations as o (name, code, service)
        values (${input.name}, ${input.code}, ${input.service}::public.service_code)
        returning ${organisationColumns(tx)}, 0 as people`;
      return row;
    }).catch((error) => {
      if (pgError(error)?.code === '23505') throw new ApiError(409, 'That code is already in use', { code: 'That code is already in use' });
      throw error;
    });
    return c.json(created, 201);
  });

  routes.get('/:id/units', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const units = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      return await unitsWithCounts(tx, id);
    });
    return c.json(units);
  });

  routes.post('/:id/units', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const input = await jsonBody(c, unitCreateSchema);
    const unit = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      if (input.parentId) {
        const [parent] = await tx`select 1 from public.units where id = ${input.parentId} and organisation_id = ${id}`;
        if (!parent) throw new ApiError(404, 'Parent unit not found', { parentId: 'Choose a unit of this organisation' });
      }
      const [row] = await tx<Unit[]>`
        insert into public.units (organisation_id, parent_id, name) values (${id}, ${input.parentId}, ${input.name})
        returning id, organisation_id as "organisationId", parent_id as "parentId", name, 0 as people`;
      return row;
    }).catch(unitConflict);
    return c.json(unit, 201);
  });

  routes.put('/:id/units/:unitId', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const unitId = pathId(c, 'unitId', NO_UNIT);
    const input = await jsonBody(c, unitUpdateSchema);
    const unit = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      const [current] = await tx<{ parentId: string | null; name: string }[]>`
        select parent_id as "parentId", name from public.units where id = ${unitId} and organisation_id = ${id} for update`;
      if (!current) throw new ApiError(404, NO_UNIT);
      const parentId = input.parentId === undefined ? current.parentId : input.parentId;
      if (parentId === unitId) {
        throw new ApiError(409, 'A unit cannot be moved below itself', { parentId: 'A unit cannot be moved below itself' });
      }
      if (parentId && parentId !== current.parentId) {
        const [parent] = await tx`select 1 from public.units where id = ${parentId} and organisation_id = ${id}`;
        if (!parent) throw new ApiError(404, 'Parent unit not found', { parentId: 'Choose a unit of this organisation' });
      }
      const [row] = await tx<{ id: string }[]>`
        update public.units u set name = ${input.name ?? current.name}, parent_id = ${parentId}
        where u.id = ${unitId}
        returning u.id`;
      // The moved unit's count is that of its subtree, which a move does not change.
      return (await unitsWithCounts(tx, id, row.id))[0];
    }).catch(unitConflict);
    return c.json(unit);
  });

  return routes;
}
