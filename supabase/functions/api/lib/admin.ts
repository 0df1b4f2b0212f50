// The administrator's checks: the database decides, in the same transaction as the work.
// - asAdmin / isAdmin: a national administrator (private.is_admin), for the national-only routes
//   (settings, roles, audit, organisations, certificates).
// - asPeopleAdmin / peopleAdmin: a national administrator or an organisation's, for the
//   people routes (users, import and export, learning records), scoped to the organisation.
import type { Context } from 'hono';
import type { Db, Fragment, Statements, Tx } from './db.ts';
import { type Env, requireUser } from './auth.ts';
import { NAME_INVISIBLE } from '../../_shared/schemas.ts';
import { ApiError, pgError } from './errors.ts';

export const forbidden = (message = 'Only administrators may do this') => new ApiError(403, message);

/** An organisation's administrator gives their people only the organisation's service. */
export const ORGANISATION_SERVICES_ONLY = "You can give only your organisation's service.";

export const LAST_ADMIN = 'The last administrator cannot be demoted or deleted. Make another user an administrator first.';

export async function isAdmin(tx: Tx): Promise<boolean> {
  const [row] = await adminCheck(tx);
  return row?.admin === true;
}

/** The statement of `isAdmin`, not yet run (for a read that sends it with the rest). */
export function adminCheck(tx: Statements) {
  return tx<{ admin: boolean }[]>`select private.is_admin() as admin`;
}

/** Postgres errors the database raises on purpose, as API answers. */
export function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  if (code === 'P0409') throw new ApiError(409, LAST_ADMIN);
  if (code === '42501' && (error as { hint?: unknown }).hint === 'services') {
    throw new ApiError(403, ORGANISATION_SERVICES_ONLY, { services: ORGANISATION_SERVICES_ONLY });
  }
  if (code === '42501') throw forbidden();
  if (code === '23505') throw new ApiError(409, 'That username or email is already in use');
  // The profile's own name check (the shared name rule refuses the same before any write).
  if (code === '23514' && pgError(error)?.constraint_name === 'profiles_name_visible') {
    throw new ApiError(400, 'Validation failed', { name: NAME_INVISIBLE });
  }
  throw error;
}

/** Runs fn as the caller after checking, in the same transaction, that they are an admin. */
export function asAdmin<T>(db: Db, c: Context<Env>, fn: (tx: Tx, callerId: string) => Promise<T>): Promise<T> {
  const caller = requireUser(c);
  return db.withCaller(caller.db, async (tx) => {
    if (!(await isAdmin(tx))) throw forbidden();
    return await fn(tx, caller.userId);
  }).catch(fromDatabase);
}

/**
 * Who administers people, and whose: a national administrator (every person) or an
 * organisation's administrator (its people only: `organisationId`). Null for anyone else.
 */
export interface PeopleAdmin {
  national: boolean;
  /** The organisation an organisation's administrator administers; null for a national one. */
  organisationId: string | null;
}

/** The statement of `peopleAdmin`, not yet run (for a read that sends it with the rest). */
export function peopleAdminCheck(tx: Statements) {
  return tx<{ national: boolean; organisationId: string | null }[]>`
    select private.is_admin() as national, private.administered_organisation_id() as organisation_id`;
}

export function toPeopleAdmin(row: { national: boolean; organisationId: string | null } | undefined): PeopleAdmin | null {
  if (row?.national === true) return { national: true, organisationId: null };
  if (row?.organisationId) return { national: false, organisationId: String(row.organisationId) };
  return null;
}

export async function peopleAdmin(tx: Tx): Promise<PeopleAdmin | null> {
  const [row] = await peopleAdminCheck(tx);
  return toPeopleAdmin(row);
}

/**
 * Runs fn as the caller after checking, in the same transaction, that they administer people
 * (national, or an organisation's administrator: then fn must keep to `admin.organisationId`; row-
 * level security and the database functions keep to it too).
 */
export function asPeopleAdmin<T>(
  db: Db,
  c: Context<Env>,
  fn: (tx: Tx, admin: PeopleAdmin, callerId: string) => Promise<T>,
): Promise<T> {
  const caller = requireUser(c);
  return db.withCaller(caller.db, async (tx) => {
    const admin = await peopleAdmin(tx);
    if (!admin) throw forbidden();
    return await fn(tx, admin, caller.userId);
  }).catch(fromDatabase);
}

/**
 * The profiles the caller administers (private.people_i_administer, the rule every policy on people's
 * data keeps) that `filter` (conditions on `p`, each starting with `and`) admits, as the FROM item
 * `p`: one statement whoever asks. A national administrator's branch reads profiles as they are (the
 * set of everyone is never built), an organisation's administrator's reads their people by primary
 * key; the one-time filter of each leaves the other unread. With `first`, each branch keeps only its
 * first so many, newest first (profiles_created_at_idx serves the national branch's, as it serves a
 * list of everyone). Without `national`, only an organisation's administrator's branch (their search;
 * a national administrator's is answered by private.user_search_page).
 */
export function administeredProfiles(
  tx: Statements,
  filter: () => Fragment,
  { national = true, first }: { national?: boolean; first?: number } = {},
) {
  const newestFirst = () => (first === undefined ? tx`` : tx`order by p.created_at desc, p.id desc limit ${first}`);
  return tx`(
    ${national ? tx`(select p.* from public.profiles p where (select private.is_admin()) ${filter()} ${newestFirst()}) union all` : tx``}
    (select p.* from public.profiles p
     where not (select private.is_admin()) and p.id in (select private.people_i_administer()) ${filter()} ${newestFirst()})
  ) p`;
}

/** A Postgres array literal of codes (`{UKPS,UKAS}`). */
export const pgArray = (codes: readonly string[]) => `{${codes.join(',')}}`;
