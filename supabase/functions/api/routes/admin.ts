// Administration: users (list, create, update, delete), role services, settings and the audit trail.
// Every query runs under the caller's RLS; the service role is used only for Auth admin calls
// (create a user, change a sign-in email), after the database has said the caller may make them.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import {
  type AuditEvent,
  generateTemporaryPassword,
  pageQuerySchema,
  type PublicSettings,
  type RolePermissions,
  roleServicesSchema,
  settingsSchema,
  userCreateSchema,
  userListQuerySchema,
  USER_SEARCH_MATCH_LIMIT,
  type UserList,
  userUpdateSchema,
} from '../../_shared/admin.ts';
import { AUDIT_KINDS, auditFilterSchema, type AuditFilters, auditSentence } from '../../_shared/audit.ts';
import { attachmentDisposition, CSV_CONTENT_TYPE, csvDate, csvFileName, csvJson, csvTime, toCsv } from '../../_shared/csv.ts';
import { ROLES, type Role } from '../../_shared/domain.ts';
import { SERVICE_CODES, type ServiceCode } from '../../_shared/services.ts';
import type { Config } from '../lib/config.ts';
import { containsPattern, type Db, type Statements, type Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody, validate } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { readUser, toUser } from '../lib/users.ts';

/** The most events one CSV holds (newest first); narrow the filters for older ones. */
export const AUDIT_EXPORT_LIMIT = 10000;
export const AUDIT_CSV_HEADER = ['date', 'time', 'who', 'username', 'kind', 'what', 'target', 'summary', 'before', 'after'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const forbidden = (message = 'Only administrators may do this') => new ApiError(403, message);
const userNotFound = () => new ApiError(404, 'User not found');
const LAST_ADMIN = 'The last administrator cannot be demoted or deleted. Make another user an administrator first.';

/** A path id that is not a uuid names nothing: 404, never a database cast error. */
function userId(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!UUID.test(id)) throw userNotFound();
  return id;
}

/** Postgres errors the database raises on purpose, as API answers. */
function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  if (code === 'P0409') throw new ApiError(409, LAST_ADMIN);
  if (code === '42501') throw forbidden();
  if (code === '23505') throw new ApiError(409, 'That username or email is already in use');
  throw error;
}

const pgArray = (codes: readonly string[]) => `{${codes.join(',')}}`;

/** Escapes LIKE wildcards so a search for "50%" means the characters. */

async function isAdmin(tx: Tx): Promise<boolean> {
  const [row] = await adminCheck(tx);
  return row?.admin === true;
}

/** The statement of `isAdmin`, not yet run (for a read that sends it with the rest). */
function adminCheck(tx: Statements) {
  return tx<{ admin: boolean }[]>`select private.is_admin() as admin`;
}

function searchQuery(c: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(c.req.queries()).map(([key, values]) => [key, values[0] ?? '']));
}

function toPublicSettings(row: Record<string, unknown>): PublicSettings {
  const updatedAt = row.updatedAt;
  const settings: PublicSettings = {
    siteName: String(row.siteName),
    courseAccess: row.courseAccess as PublicSettings['courseAccess'],
    certificateTemplate: row.certificateTemplate as PublicSettings['certificateTemplate'],
    footerText: String(row.footerText ?? ''),
    enableAnalytics: row.enableAnalytics === true,
    autoEnrollment: row.autoEnrollment === true,
    updatedAt: updatedAt instanceof Date ? updatedAt.toISOString() : String(updatedAt),
    contactEmail: (row.contactEmail as string | null) ?? null,
  };
  if (typeof row.adminEmail === 'string') settings.adminEmail = row.adminEmail;
  return settings;
}

function toAuditEvent(row: Record<string, unknown>): AuditEvent {
  const occurredAt = row.occurredAt;
  return {
    id: String(row.id),
    occurredAt: occurredAt instanceof Date ? occurredAt.toISOString() : String(occurredAt),
    actor: row.actorId || row.actorName
      ? { id: (row.actorId as string) ?? null, name: (row.actorName as string) ?? null, username: (row.actorUsername as string) ?? null }
      : null,
    action: String(row.action),
    targetType: String(row.targetType),
    targetId: (row.targetId as string) ?? null,
    targetLabel: (row.targetLabel as string) ?? null,
    oldData: (row.oldData as Record<string, unknown>) ?? null,
    newData: (row.newData as Record<string, unknown>) ?? null,
  };
}

interface AuthAdminError {
  status: number;
  code?: string;
  message: string;
}

export function adminRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  /** Supabase Auth's admin API with the service role key (GoTrue's /admin/users). */
  async function authAdmin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
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

  const isAuthError = (error: unknown): error is AuthAdminError =>
    typeof error === 'object' && error !== null && typeof (error as AuthAdminError).status === 'number' && !(error instanceof Error);

  /** Runs fn as the caller after checking, in the same transaction, that they are an admin. */
  function asAdmin<T>(c: Context<Env>, fn: (tx: Tx, callerId: string) => Promise<T>): Promise<T> {
    const caller = requireUser(c);
    return db.withCaller(caller.db, async (tx) => {
      if (!(await isAdmin(tx))) throw forbidden();
      return await fn(tx, caller.userId);
    }).catch(fromDatabase);
  }

  // ------------------------------------------------------------------ users

  routes.get('/users', async (c) => {
    const query = validate(userListQuerySchema, searchQuery(c));
    const caller = requireUser(c);
    // The admin check goes in the same round trip as the list: the search function answers no one
    // else, and row-level security keeps the profiles of a refused caller's list to what they may see.
    const term = query.search ? query.search.toLowerCase() : null;
    if (term && !query.status) {
      const pattern = containsPattern(term);
      // One search (private.user_search_page, admins only): it keeps at most USER_SEARCH_MATCH_LIMIT
      // matches, so its cost does not follow how many people a short term matches; their number,
      // whether more match and this page's ids come in one pass, then those rows by primary key
      // under row-level security. A page past the end gives one row without an id. A one-word term
      // (letters and digits) may be answered from the index of people's words; the plans are kept
      // for the connection, since planning each call cost more than the search.
      const word = /^[\p{L}\p{N}]+$/u.test(term) ? term : null;
      const [[me], found] = await db.read(caller.db, (tx) => [
        adminCheck(tx),
        tx<Record<string, unknown>[]>`
          select s.total, s.more, p.id, p.username, p.email, p.name, p.role::text as role, p.services::text[] as services, p.created_at,
                 p.deactivated_at
          from private.user_search_page(${pattern}, ${word}, ${query.service ?? null}::public.service_code,
                                        ${query.role ?? null}::public.user_role, ${query.pageSize}, ${(query.page - 1) * query.pageSize},
                                        ${USER_SEARCH_MATCH_LIMIT}) s
          left join public.profiles p on p.id = s.id
          order by p.created_at desc nulls last, p.id desc`,
      ], { genericPlans: true }).catch(fromDatabase);
      if (me?.admin !== true) throw forbidden();
      const list: UserList = {
        items: found.filter((row) => row.id != null).map(toUser),
        total: Number(found[0]?.total ?? 0),
        page: query.page,
        pageSize: query.pageSize,
        moreMatches: found[0]?.more === true,
      };
      return c.json(list);
    }
    // No search (or a search with a status filter): the whole list or a service/role/status filter
    // (count and page). Deactivated people are few: profiles_deactivated_idx reads them.
    const [[me], [{ total }], rows] = await db.read(caller.db, (tx) => {
      const where = () => tx`
        where true
        ${term ? tx`and lower(name || ' ' || username || ' ' || email) like ${containsPattern(term)}` : tx``}
        ${query.service ? tx`and services @> ${pgArray([query.service])}::public.service_code[]` : tx``}
        ${query.role ? tx`and role = ${query.role}::public.user_role` : tx``}
        ${query.status === 'active' ? tx`and deactivated_at is null` : tx``}
        ${query.status === 'deactivated' ? tx`and deactivated_at is not null` : tx``}`;
      return [
        adminCheck(tx),
        tx<{ total: number }[]>`select count(*)::int as total from public.profiles ${where()}`,
        tx<Record<string, unknown>[]>`
          select id, username, email, name, role::text as role, services::text[] as services, created_at, deactivated_at
          from public.profiles ${where()}
          order by created_at desc, id desc
          limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`,
      ];
    }).catch(fromDatabase);
    if (me?.admin !== true) throw forbidden();
    const list: UserList = { items: rows.map(toUser), total, page: query.page, pageSize: query.pageSize, moreMatches: false };
    return c.json(list);
  });

  routes.post('/users', async (c) => {
    const caller = requireUser(c);
    await asAdmin(c, async () => {});
    const input = await jsonBody(c, userCreateSchema);

    const taken = await db.withServiceRole(async (tx) => {
      const [row] = await tx<{ usernameTaken: boolean; emailTaken: boolean }[]>`
        select private.username_taken(${input.username}) as username_taken,
               private.email_taken(${input.email}) as email_taken`;
      return row;
    });
    if (taken.usernameTaken) throw new ApiError(409, 'Username is already taken', { username: 'Username is already taken' });
    if (taken.emailTaken) throw new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });

    const temporaryPassword = generateTemporaryPassword();
    let created: Record<string, unknown>;
    try {
      created = await authAdmin('POST', '', {
        email: input.email,
        password: temporaryPassword,
        email_confirm: true,
        user_metadata: { username: input.username, name: input.name },
        // Only the service role can write app_metadata: the audit trigger names this admin as the creator.
        // must_change_password: the profile is born flagged (a temporary password must be replaced).
        app_metadata: { created_by: caller.userId, must_change_password: true },
      });
    } catch (error) {
      if (isAuthError(error)) {
        if (error.status === 422 || error.code === 'email_exists') {
          throw new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });
        }
        // The profile trigger's unique username index lost a race with a concurrent sign-up.
        if (error.status >= 500 && /database error/i.test(error.message)) {
          throw new ApiError(409, 'Username is already taken', { username: 'Username is already taken' });
        }
        if (error.status === 400) throw new ApiError(400, error.message);
        throw new Error(`Auth admin create failed: ${error.status} ${error.message}`);
      }
      throw error;
    }
    const id = String(created.id);
    try {
      const user = await asAdmin(c, async (tx) => {
        await tx`
          update public.profiles
          set role = ${input.role}::public.user_role, services = ${pgArray(input.services)}::public.service_code[]
          where id = ${id}::uuid`;
        return await readUser(tx, id);
      });
      if (!user) throw new Error(`No profile for created user ${id}`);
      return c.json({ user, temporaryPassword }, 201);
    } catch (error) {
      // No half-made account: the Auth user goes again if its role could not be set.
      await authAdmin('DELETE', `/${id}`).catch(() => {});
      throw error;
    }
  });

  routes.put('/users/:id', async (c) => {
    const caller = requireUser(c);
    const id = userId(c);
    const input = await jsonBody(c, userUpdateSchema);
    if (Object.values(input).every((value) => value === undefined)) throw new ApiError(400, 'Nothing to update', { _: 'Nothing to update' });
    const { before, emailChanged } = await db.withCaller(caller.db, async (tx) => {
      const admin = await isAdmin(tx);
      const self = id === caller.userId;
      if (!admin && !self) throw forbidden();
      const [row] = await tx<Record<string, unknown>[]>`
        select id, username, email, name, role::text as role, services::text[] as services, created_at
        from public.profiles where id = ${id}::uuid for update`;
      if (!row) throw userNotFound();
      const current = toUser(row);
      const roleChanged = input.role !== undefined && input.role !== current.role;
      const servicesChanged = input.services !== undefined &&
        [...input.services].sort().join(',') !== [...current.services].sort().join(',');
      if (self && (roleChanged || servicesChanged)) {
        throw new ApiError(403, 'You cannot change your own role or services. Ask another administrator.');
      }
      const emailChanged = input.email !== undefined && input.email.toLowerCase() !== current.email.toLowerCase();
      if (emailChanged) {
        const [clash] = await tx`
          select 1 from public.profiles where lower(email) = lower(${input.email!}) and id <> ${id}::uuid limit 1`;
        if (clash) throw new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });
      }
      await tx`
        update public.profiles set
          name = ${input.name ?? current.name},
          role = ${input.role ?? current.role}::public.user_role,
          services = ${pgArray(input.services ?? current.services)}::public.service_code[]
        where id = ${id}::uuid`;
      return { before: current, emailChanged };
    }).catch(fromDatabase);

    if (emailChanged) {
      // The sign-in email lives in Auth; its trigger copies it to the profile. After the commit above,
      // so Auth's update does not wait on this request's row lock.
      try {
        await authAdmin('PUT', `/${id}`, { email: input.email, email_confirm: true });
      } catch (error) {
        if (isAuthError(error) && (error.status === 422 || error.code === 'email_exists')) {
          throw new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });
        }
        if (isAuthError(error) && error.status === 404) throw userNotFound();
        throw isAuthError(error) ? new Error(`Auth admin update failed: ${error.status} ${error.message}`) : error;
      }
    }
    const user = await db.withCaller(caller.db, (tx) => readUser(tx, id));
    return c.json(user ?? before);
  });

  routes.delete('/users/:id', async (c) => {
    const id = userId(c);
    const deleted = await asAdmin(c, async (tx) => {
      const [row] = await tx<{ deleted: boolean }[]>`select private.delete_user(${id}::uuid) as deleted`;
      return row?.deleted === true;
    });
    if (!deleted) throw userNotFound();
    return c.body(null, 204);
  });

  // ------------------------------------------------------------------ leavers

  /**
   * Deactivate (a leaver) or reactivate: private.set_user_active does it all in one transaction (the
   * Auth ban, every session ended, the audit event); the answer is the person as the list shows them.
   */
  async function setActive(c: Context<Env>, active: boolean) {
    const id = userId(c);
    const user = await asAdmin(c, async (tx) => {
      const [row] = await tx<{ done: boolean }[]>`select private.set_user_active(${id}::uuid, ${active}) as done`;
      if (row?.done !== true) throw userNotFound();
      return await readUser(tx, id);
    }).catch((error) => {
      const code = (error as { code?: unknown })?.code;
      if (code === 'P0403') throw new ApiError(403, 'You cannot deactivate your own account. Ask another administrator.');
      throw error;
    });
    if (!user) throw userNotFound();
    return c.json(user);
  }

  routes.post('/users/:id/deactivate', (c) => setActive(c, false));
  routes.post('/users/:id/reactivate', (c) => setActive(c, true));

  // Issue 15: a new temporary password, to be replaced at the next sign-in. The database half first
  // (admin check, must_change_password, the person's sessions ended, audit 'password.reset', in one
  // transaction under the admin's identity), then the password itself through Auth admin (which also
  // ends any session). Should Auth fail after the commit, the person is flagged and signed out but
  // keeps the old password: nothing is opened up, and the admin can try again.
  routes.post('/users/:id/reset-password', async (c) => {
    const caller = requireUser(c);
    const id = userId(c);
    await db.withCaller(caller.db, async (tx) => {
      await tx`select private.reset_password_flag(${id}::uuid)`;
    }).catch((error: unknown) => {
      const code = (error as { code?: unknown })?.code;
      if (code === 'P0409') throw new ApiError(409, 'You cannot reset your own password here. Change it from your profile page.');
      if (code === 'P0002') throw userNotFound();
      fromDatabase(error);
    });
    const temporaryPassword = generateTemporaryPassword();
    try {
      await authAdmin('PUT', `/${id}`, { password: temporaryPassword });
    } catch (error) {
      if (isAuthError(error) && error.status === 404) throw userNotFound();
      throw isAuthError(error) ? new Error(`Auth admin password reset failed: ${error.status} ${error.message}`) : error;
    }
    c.header('cache-control', 'no-store');
    return c.json({ temporaryPassword });
  });

  // ------------------------------------------------------------------ role permissions

  routes.get('/roles', async (c) => {
    const roles = await asAdmin(c, async (tx) => {
      const rows = await tx<{ role: Role; users: number; service: ServiceCode; holders: number }[]>`
        select role::text as role, users::int as users, service::text as service, holders::int as holders
        from private.role_service_matrix()`;
      return ROLES.map((role): RolePermissions => {
        const mine = rows.filter((r) => r.role === role);
        const users = mine[0]?.users ?? 0;
        const services = Object.fromEntries(
          SERVICE_CODES.map((code) => {
            const holders = mine.find((r) => r.service === code)?.holders ?? 0;
            return [code, users > 0 && holders === users ? 'all' : holders > 0 ? 'some' : 'none'];
          }),
        ) as RolePermissions['services'];
        return { role, users, services };
      });
    });
    return c.json(roles);
  });

  routes.put('/roles/:role/services', async (c) => {
    const role = z.enum(ROLES).safeParse(c.req.param('role'));
    if (!role.success) throw new ApiError(404, 'Role not found');
    requireUser(c);
    const input = await jsonBody(c, roleServicesSchema);
    const updated = await asAdmin(c, async (tx) => {
      const [row] = await tx<{ updated: number }[]>`
        select private.set_role_services(${role.data}::public.user_role, ${pgArray(input.services)}::public.service_code[]) as updated`;
      return row.updated;
    });
    return c.json({ role: role.data, services: input.services, updated });
  });

  // ------------------------------------------------------------------ settings

  async function readSettings(tx: Tx, withAdminEmail: boolean): Promise<PublicSettings> {
    const [row] = await tx<Record<string, unknown>[]>`
      select site_name, course_access::text as course_access, certificate_template::text as certificate_template,
             footer_text, enable_analytics, auto_enrollment, updated_at, private.contact_email() as contact_email
      from public.settings where id`;
    if (!row) throw new Error('The settings row is missing');
    if (withAdminEmail) {
      const [email] = await tx<{ adminEmail: string }[]>`select private.admin_email() as admin_email`;
      row.adminEmail = email.adminEmail;
    }
    return toPublicSettings(row);
  }

  routes.get('/settings', async (c) => {
    const caller = c.get('caller');
    const settings = await db.withCaller(caller.db, async (tx) =>
      readSettings(tx, caller.kind === 'user' && (await isAdmin(tx))));
    return c.json(settings);
  });

  routes.put('/settings', async (c) => {
    requireUser(c);
    await asAdmin(c, async () => {});
    const input = await jsonBody(c, settingsSchema);
    const settings = await asAdmin(c, async (tx) => {
      await tx`
        update public.settings set
          site_name = ${input.siteName},
          admin_email = ${input.adminEmail},
          course_access = ${input.courseAccess}::public.course_access,
          certificate_template = ${input.certificateTemplate}::public.certificate_template,
          footer_text = ${input.footerText},
          enable_analytics = ${input.enableAnalytics},
          auto_enrollment = ${input.autoEnrollment}
        where id`;
      return await readSettings(tx, true);
    });
    return c.json(settings);
  });

  // ------------------------------------------------------------------ audit trail

  /** The Activity tab's filters as SQL (every one served by an index of audit_events). */
  function auditWhere(tx: Statements, f: AuditFilters) {
    return tx`
      where true
      ${f.actor ? tx`and actor_id = ${f.actor}::uuid` : tx``}
      ${f.action ? tx`and action = ${f.action}` : tx``}
      ${f.from ? tx`and occurred_at >= (${f.from}::date::timestamp at time zone 'Europe/London')` : tx``}
      ${f.to ? tx`and occurred_at < ((${f.to}::date + 1)::timestamp at time zone 'Europe/London')` : tx``}
      ${f.search
        ? tx`and lower(coalesce(target_label, '') || ' ' || coalesce(actor_name, '') || ' ' || coalesce(actor_username, ''))
               like ${containsPattern(f.search.toLowerCase())}`
        : tx``}`;
  }

  routes.get('/audit', async (c) => {
    const raw = searchQuery(c);
    const query = validate(pageQuerySchema, raw);
    const filters = validate(auditFilterSchema, raw);
    const page = await asAdmin(c, async (tx) => {
      const [{ total }] = await tx<{ total: number }[]>`select count(*)::int as total from public.audit_events ${auditWhere(tx, filters)}`;
      const rows = await tx<Record<string, unknown>[]>`
        select id, occurred_at, actor_id, actor_name, actor_username, action, target_type, target_id,
               target_label, old_data, new_data
        from public.audit_events ${auditWhere(tx, filters)}
        order by occurred_at desc, id desc
        limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`;
      return { items: rows.map(toAuditEvent), total, page: query.page, pageSize: query.pageSize };
    });
    return c.json(page);
  });

  /** The same filters as a CSV (admins only), at most AUDIT_EXPORT_LIMIT events, newest first. */
  routes.get('/audit/export.csv', async (c) => {
    const filters = validate(auditFilterSchema, searchQuery(c));
    const rows = await asAdmin(c, (tx) => tx<Record<string, unknown>[]>`
      select id, occurred_at, actor_id, actor_name, actor_username, action, target_type, target_id,
             target_label, old_data, new_data
      from public.audit_events ${auditWhere(tx, filters)}
      order by occurred_at desc, id desc
      limit ${AUDIT_EXPORT_LIMIT}`);
    const events = rows.map(toAuditEvent);
    const csv = toCsv(AUDIT_CSV_HEADER, events.map((e) => [
      csvDate(e.occurredAt), csvTime(e.occurredAt), e.actor?.name ?? 'System', e.actor?.username ?? '', e.action,
      AUDIT_KINDS[e.action] ?? e.action, e.targetLabel ?? '', auditSentence(e), csvJson(e.oldData), csvJson(e.newData),
    ]));
    return c.body(csv, 200, {
      'content-type': CSV_CONTENT_TYPE,
      'content-disposition': attachmentDisposition(csvFileName('activity')),
      'cache-control': 'no-store',
    });
  });

  return routes;
}
