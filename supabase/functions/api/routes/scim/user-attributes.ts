// A SCIM User as the SQL functions take it: the few attributes the platform keeps (userName,
// externalId, the name's parts, one email, active, preferredLanguage, the enterprise department and
// manager), read
// from a resource SCIMMY has checked. Microsoft Entra ID sends some values RFC 7643 does not allow
// ("True"/"False" as strings, a manager as a bare id); they are made compliant first, so SCIMMY
// can read the rest as the standard says.
import { ENTERPRISE, invalidValue, SCIMMY } from './protocol.ts';
import { type Language, languageFromTag } from '../../../_shared/language.ts';

export interface UserAttributes {
  userName: string | null;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  formatted: string | null;
  displayName: string | null;
  email: string | null;
  active: boolean | null;
  /** The person's language: cy for any Welsh tag (cy, cy-GB), else en-GB; null when not sent. */
  preferredLanguage: Language | null;
  department: string | null;
  manager: string | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** "True"/"False" (any case) as booleans; anything else as it came, for SCIMMY to judge. */
function booleanOf(value: unknown): unknown {
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return value;
}

/** A manager sent as a bare id becomes `{ value: id }`. */
function managerOf(value: unknown): unknown {
  return typeof value === 'string' ? { value } : value;
}

/** A resource body (POST, PUT, or a PATCH operation's value object) made compliant, keys as sent. */
export function compliantResource(body: Json): Json {
  const out: Json = { ...body };
  for (const key of Object.keys(out)) {
    const lower = key.toLowerCase();
    if (lower === 'active') out[key] = booleanOf(out[key]);
    if (lower === `${ENTERPRISE}:manager`.toLowerCase()) out[key] = managerOf(out[key]);
    if (lower === ENTERPRISE.toLowerCase() && isObject(out[key])) {
      const extension = { ...(out[key] as Json) };
      for (const inner of Object.keys(extension)) {
        if (inner.toLowerCase() === 'manager') extension[inner] = managerOf(extension[inner]);
      }
      out[key] = extension;
    }
  }
  return out;
}

/** A PatchOp body whose operations' values are made compliant (ops' case SCIMMY accepts itself). */
export function compliantPatch(body: Json): Json {
  if (!Array.isArray(body.Operations)) return body;
  const operations = body.Operations.map((operation: unknown) => {
    if (!isObject(operation)) return operation;
    const path = typeof operation.path === 'string' ? operation.path.trim().toLowerCase() : '';
    let value = operation.value;
    if (path === 'active') value = booleanOf(value);
    else if (path.endsWith(':manager') || path === 'manager') value = managerOf(value);
    else if (!path && isObject(value)) value = compliantResource(value);
    return { ...operation, value };
  });
  return { ...body, Operations: operations };
}

/** A resource checked against SCIMMY's User schema (with the enterprise extension), as plain JSON. */
export function checkedUser(body: Json, direction: 'in' | 'out'): Json {
  try {
    return JSON.parse(JSON.stringify(new SCIMMY.Schemas.User(body, direction)));
  } catch (error) {
    if (error instanceof SCIMMY.Types.Error) throw error;
    throw invalidValue((error as Error).message);
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The one email the platform keeps: the primary, else the work one, else the first. */
function emailOf(emails: unknown): string | null {
  if (!Array.isArray(emails)) return null;
  const list = emails.filter(isObject);
  const chosen = list.find((e) => e.primary === true) ?? list.find((e) => String(e.type).toLowerCase() === 'work') ?? list[0];
  return chosen ? text(chosen.value)?.toLowerCase() ?? null : null;
}

/** The attributes of a checked User resource (absent ones null). */
export function attributesOf(user: Json): UserAttributes {
  const name = isObject(user.name) ? user.name : {};
  const extension = isObject(user[ENTERPRISE]) ? user[ENTERPRISE] as Json : {};
  const manager = isObject(extension.manager) ? text(extension.manager.value) : null;
  return {
    userName: text(user.userName),
    externalId: text(user.externalId),
    givenName: text(name.givenName),
    familyName: text(name.familyName),
    formatted: text(name.formatted),
    displayName: text(user.displayName),
    email: emailOf(user.emails),
    active: typeof user.active === 'boolean' ? user.active : null,
    preferredLanguage: text(user.preferredLanguage) ? languageFromTag(user.preferredLanguage) : null,
    department: text(extension.department),
    manager,
  };
}

/** What a PATCH changed, attribute by attribute: only those go to the database. */
export function changedAttributes(before: UserAttributes, after: UserAttributes): Partial<UserAttributes> {
  const changes: Partial<UserAttributes> = {};
  for (const key of Object.keys(after) as (keyof UserAttributes)[]) {
    if (before[key] !== after[key]) (changes as Record<string, unknown>)[key] = after[key];
  }
  // The name shown is made from the parts: a change of one part sends the others it is made with.
  if (['givenName', 'familyName', 'formatted', 'displayName'].some((k) => k in changes)) {
    Object.assign(changes, { givenName: after.givenName, familyName: after.familyName, formatted: after.formatted, displayName: after.displayName });
  }
  // A removed active (no value) leaves the person as they are.
  if (changes.active === null) delete changes.active;
  return changes;
}
