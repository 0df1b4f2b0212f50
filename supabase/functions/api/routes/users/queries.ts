// The SQL of the admin's user list, and Supabase Auth's admin API (GoTrue's /admin/users) with the
// service role key, called only after the database has said the caller may.
import type { z } from 'zod';
import { USER_SEARCH_MATCH_LIMIT, type UserListItem, type userListQuerySchema } from '../../../_shared/admin.ts';
import type { User } from '../../../_shared/domain.ts';
import type { Config } from '../../lib/config.ts';
import { containsPattern, type Statements, type Tx } from '../../lib/db.ts';
import { toUser } from '../../lib/users.ts';
import { administeredProfiles, pgArray } from '../../lib/admin.ts';
import { ApiError } from '../../lib/errors.ts';

type UserListQuery = z.infer<typeof userListQuerySchema>;

/** Someone the caller may not administer is answered as not found, as one who does not exist. */
export const USER_NOT_FOUND = 'User not found';
export const userNotFound = () => new ApiError(404, USER_NOT_FOUND);

export interface AuthAdminError {
  status: number;
  code?: string;
  message: string;
}

/** Auth's admin API for users; a refusal is thrown as an AuthAdminError. */
export async function authAdmin(config: Config, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${config.supabaseUrl}/auth/v1/admin/users${path}`, {
    method,
    headers: {
      apikey: config.serviceRoleKey,
      authorization: `Bearer ${config.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = {};
  }
  if (!response.ok) {
    const error: AuthAdminError = {
      status: response.status,
      code: (json.error_code ?? json.code) as string | undefined,
      message: String(json.msg ?? json.message ?? json.error_description ?? `Auth answered ${response.status}`),
    };
    throw error;
  }
  return json;
}

export const isAuthError = (error: unknown): error is AuthAdminError =>
  typeof error === 'object' && error !== null && typeof (error as AuthAdminError).status === 'number' && !(error instanceof Error);

/**
 * One search (private.user_search_page, admins only): it keeps at most USER_SEARCH_MATCH_LIMIT
 * matches, so its cost does not follow how many people a short term matches; their number,
 * whether more match and this page's ids come in one pass, then those rows by primary key
 * under row-level security. A page past the end gives one row without an id. A one-word term
 * (letters and digits) may be answered from the index of people's words.
 */
export function searchUsers(tx: Statements, term: string, query: UserListQuery) {
  const pattern = containsPattern(term);
  const word = /^[\p{L}\p{N}]+$/u.test(term) ? term : null;
  return tx<Record<string, unknown>[]>`
    select s.total, s.more, p.id, p.username, p.email, p.name, p.role::text as role, p.services::text[] as services, p.created_at, p.language,
           p.deactivated_at, p.organisation_id, p.unit_id, p.manager_id, ${placementNames(tx)}
    from private.user_search_page(${pattern}, ${word}, ${query.service ?? null}::public.service_code,
                                  ${query.role ?? null}::public.user_role, ${query.pageSize}, ${(query.page - 1) * query.pageSize},
                                  ${USER_SEARCH_MATCH_LIMIT}) s
    left join public.profiles p on p.id = s.id
    order by p.created_at desc nulls last, p.id desc`;
}

/**
 * The names of a row's organisation, unit and manager (p), each read by primary key in the same
 * statement (no query per row; a join could be planned as a hash join over every profile).
 */
function placementNames(tx: Statements) {
  return tx`
    (select o.name from public.organisations o where o.id = p.organisation_id) as organisation_name,
    (select u.name from public.units u where u.id = p.unit_id) as unit_name,
    (select m.name from public.profiles m where m.id = p.manager_id) as manager_name`;
}

/**
 * The whole list or a service/role/status/organisation/unit/manager filter (with a search when a
 * status or placement filter is chosen, or for an organisation's administrator): the count and the
 * page, of the people the caller administers (administeredProfiles: everyone for a national
 * administrator, their organisation's people for an organisation's, nobody for anyone else).
 * `national: false` reads only an organisation's administrator's people (a national administrator's
 * search is private.user_search_page's). Each filter has its index: profiles_organisation_idx,
 * profiles_unit_idx (the unit and its sub-units, private.unit_subtree), profiles_manager_idx (direct
 * reports); an organisation's administrator's people come by primary key.
 */
export function filterUsers(tx: Statements, term: string | null, query: UserListQuery, { national = true } = {}) {
  // Deactivated people are few: profiles_deactivated_idx reads them.
  const filter = () => tx`
    ${term ? tx`and lower(p.name || ' ' || p.username || ' ' || p.email) like ${containsPattern(term)}` : tx``}
    ${query.service ? tx`and p.services @> ${pgArray([query.service])}::public.service_code[]` : tx``}
    ${query.role ? tx`and p.role = ${query.role}::public.user_role` : tx``}
    ${query.status === 'active' ? tx`and p.deactivated_at is null` : tx``}
    ${query.status === 'deactivated' ? tx`and p.deactivated_at is not null` : tx``}
    ${query.organisationId ? tx`and p.organisation_id = ${query.organisationId}::uuid` : tx``}
    ${query.unitId ? tx`and p.unit_id = any (array(select private.unit_subtree(${query.unitId}::uuid)))` : tx``}
    ${query.managerId ? tx`and p.manager_id = ${query.managerId}::uuid` : tx``}`;
  const offset = (query.page - 1) * query.pageSize;
  return [
    tx<{ total: number }[]>`select count(*)::int as total from ${administeredProfiles(tx, filter, { national })}`,
    tx<Record<string, unknown>[]>`
      select p.id, p.username, p.email, p.name, p.role::text as role, p.services::text[] as services, p.created_at, p.deactivated_at, p.language,
             p.organisation_id, p.unit_id, p.manager_id, ${placementNames(tx)}
      from ${administeredProfiles(tx, filter, { national, first: offset + query.pageSize })}
      order by p.created_at desc, p.id desc
      limit ${query.pageSize} offset ${offset}`,
  ] as const;
}

/** A row of the list: the person and the names of their placement (each absent when there is none). */
export function toUserListItem(row: Record<string, unknown>): UserListItem {
  const item: UserListItem = toUser(row);
  if (row.organisationName) item.organisationName = String(row.organisationName);
  if (row.unitName) item.unitName = String(row.unitName);
  if (row.managerName) item.managerName = String(row.managerName);
  return item;
}

/**
 * The person's profile, locked for the rest of the transaction, and whether the caller administers
 * them (private.administers); null when RLS hides it or there is none.
 */
export async function lockProfile(tx: Tx, id: string): Promise<{ user: User; administered: boolean } | null> {
  const [row] = await tx<Record<string, unknown>[]>`
    select id, username, email, name, role::text as role, services::text[] as services, created_at, language,
           organisation_id, unit_id, manager_id, private.administers(id) as administered
    from public.profiles where id = ${id}::uuid for update`;
  return row ? { user: toUser(row), administered: row.administered === true } : null;
}

/** Whether someone else already signs in with this email (any case). */
export async function emailUsedByAnother(tx: Tx, email: string, id: string): Promise<boolean> {
  const [clash] = await tx`
    select 1 from public.profiles where lower(email) = lower(${email}) and id <> ${id}::uuid limit 1`;
  return Boolean(clash);
}

/** Name, role and services of a profile (the email follows Auth: its trigger copies it). */
/** The services an organisation's people may be given: its own (one). */
export async function organisationServices(tx: Tx, organisationId: string): Promise<string[]> {
  const rows = await tx<{ service: string }[]>`
    select o.service::text as service from public.organisations o where o.id = ${organisationId}::uuid`;
  return rows.map((row) => row.service);
}

export async function updateProfile(tx: Tx, id: string, name: string, role: string, services: readonly string[]): Promise<void> {
  await tx`
    update public.profiles set
      name = ${name},
      role = ${role}::public.user_role,
      services = ${pgArray(services)}::public.service_code[]
    where id = ${id}::uuid`;
}

export interface Placement {
  organisationId: string | null;
  unitId: string | null;
  managerId: string | null;
}

/**
 * A person's organisation, unit and manager, checked first so that each wrong one is a
 * field of a 400: the organisation exists, the unit is of it, the manager is of it and is not the
 * person. The database checks the same (and refuses a management cycle: 23514 manager_cycle).
 */
export async function placementProblems(tx: Tx, id: string, next: Placement): Promise<Record<string, string>> {
  const [row] = await tx<{ organisation: boolean; unit: boolean; manager: boolean }[]>`
    select
      (${next.organisationId}::uuid is null or exists (select 1 from public.organisations o where o.id = ${next.organisationId}::uuid)) as organisation,
      (${next.unitId}::uuid is null or exists (select 1 from public.units u where u.id = ${next.unitId}::uuid
         and u.organisation_id = ${next.organisationId}::uuid)) as unit,
      (${next.managerId}::uuid is null or (${next.managerId}::uuid <> ${id}::uuid and exists (select 1 from public.profiles m
         where m.id = ${next.managerId}::uuid and m.organisation_id = ${next.organisationId}::uuid))) as manager`;
  const problems: Record<string, string> = {};
  if (!row.organisation) problems.organisationId = 'Choose an organisation';
  if (!row.unit) problems.unitId = 'Choose a unit of the person\'s organisation';
  if (!row.manager) problems.managerId = 'Choose a manager of the person\'s organisation';
  return problems;
}

export async function updatePlacement(tx: Tx, id: string, next: Placement): Promise<void> {
  await tx`
    update public.profiles set organisation_id = ${next.organisationId}::uuid, unit_id = ${next.unitId}::uuid,
      manager_id = ${next.managerId}::uuid
    where id = ${id}::uuid`;
}
