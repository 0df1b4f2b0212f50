// The user as every answer shows it (never a password or hash), read through RLS.
import type { CurrentUser, User } from '../../_shared/domain.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import { type Language, toLanguage } from '../../_shared/language.ts';
import type { Tx } from './db.ts';

/** Reads one profile; the caller's RLS policies decide whether it is visible. */
export async function readUser(tx: Tx, id: string): Promise<User | null> {
  const rows = await tx<Record<string, unknown>[]>`
    select id, username, email, name, role::text as role, services::text[] as services, created_at, language,
           must_change_password, deactivated_at, organisation_id, unit_id, manager_id
    from public.profiles
    where id = ${id}::uuid`;
  const row = rows[0];
  if (!row) return null;
  return toUser(row);
}

/** The caller as GET /api/user shows them: their profile with the names of their placement. */
export async function readCurrentUser(tx: Tx, id: string): Promise<CurrentUser | null> {
  const user = await readUser(tx, id);
  if (!user) return null;
  const [place] = await tx<Record<string, unknown>[]>`select * from private.my_placement()`;
  const current: CurrentUser = { ...user, hasReports: place?.hasReports === true };
  if (place?.organisationId) {
    current.organisation = { id: String(place.organisationId), name: String(place.organisationName), code: String(place.organisationCode) };
  }
  if (place?.unitId) current.unit = { id: String(place.unitId), name: String(place.unitName) };
  if (place?.managerId) current.manager = { id: String(place.managerId), name: String(place.managerName) };
  return current;
}

export function toUser(row: Record<string, unknown>): User {
  const createdAt = row.createdAt;
  const user: User = {
    id: String(row.id),
    username: String(row.username),
    email: String(row.email ?? ''),
    name: String(row.name ?? ''),
    role: row.role as User['role'],
    services: Array.isArray(row.services) ? row.services.map(String) : [],
    createdAt: isoTimestamp(createdAt)!,
    language: toLanguage(row.language),
    // Only present while the person must still replace a temporary password.
    ...(row.mustChangePassword === true ? { mustChangePassword: true } : {}),
  };
  // Only present for a deactivated person (a leaver), as the mustChangePassword flag above.
  const at = row.deactivatedAt;
  if (at) user.deactivatedAt = isoTimestamp(at)!;
  // Organisation, unit and manager: present only when set, so a person of no organisation reads as before.
  if (row.organisationId) user.organisationId = String(row.organisationId);
  if (row.unitId) user.unitId = String(row.unitId);
  if (row.managerId) user.managerId = String(row.managerId);
  return user;
}

/** The language of a person's own profile (English when it cannot be read): what the server writes for them is in it. */
export async function languageOf(tx: Tx, id: string): Promise<Language> {
  const [row] = await tx<{ language: string }[]>`select language from public.profiles where id = ${id}::uuid`;
  return toLanguage(row?.language);
}
