// /api/users: the admin's list of people (search, filters, pages), creating, changing and deleting
// an account, leavers (deactivate, reactivate) and a new temporary password; and any user's
// enrolments (GET /api/users/:userId/enrollments: the learner, or staff who may see them). Every
// query runs under the caller's RLS; the service role is used only for Auth admin calls (create a
// user, change a sign-in email or password), after the database has said the caller may make them.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { generateTemporaryPassword, userCreateSchema, userListQuerySchema, type UserList, userUpdateSchema } from '../../../_shared/admin.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody, validate } from '../../lib/body.ts';
import { ApiError, authFieldError, pgError } from '../../lib/errors.ts';
import { firstQueryValues, pagingQuery, pathId } from '../../lib/params.ts';
import { readUser, toUser } from '../../lib/users.ts';
import {
  asAdmin, asPeopleAdmin, forbidden, fromDatabase, ORGANISATION_SERVICES_ONLY, peopleAdmin, peopleAdminCheck, pgArray, toPeopleAdmin,
} from '../../lib/admin.ts';
import {
  authAdmin, emailUsedByAnother, filterUsers, isAuthError, lockProfile, organisationServices, placementProblems, searchUsers, toUserListItem,
  updatePlacement, updateProfile,
} from './queries.ts';
import { accessRoutes } from './access.ts';
import { userEnrollmentRoutes } from './enrollments.ts';
import { USER_NOT_FOUND, userNotFound } from './queries.ts';

export function userRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();
  // A leaver's access and a new temporary password; a learner's enrolments.
  routes.route('/', accessRoutes(config, db));
  routes.route('/', userEnrollmentRoutes(db));

  routes.get('/', async (c) => {
    const query = validate(userListQuerySchema, firstQueryValues(c));
    const caller = requireUser(c);
    // One round trip, whoever asks: the admin check and the list of the people the caller
    // administers (filterUsers: row-level security's rule, private.people_i_administer).
    const term = query.search ? query.search.toLowerCase() : null;
    const placed = Boolean(query.organisationId || query.unitId || query.managerId);
    if (term && !query.status && !placed) {
      // A search: a national administrator's is private.user_search_page (queries.ts searchUsers;
      // the plans are kept for the connection, since planning each call cost more than the search),
      // which answers nobody else; an organisation's administrator's is filterUsers' within their people.
      const [[me], found, [{ total }], their] = await db.read(caller.db, (tx) => {
        const [count, page] = filterUsers(tx, term, query, { national: false });
        return [peopleAdminCheck(tx), searchUsers(tx, term, query), count, page];
      }, { genericPlans: true }).catch(fromDatabase);
      const admin = toPeopleAdmin(me);
      if (!admin) throw forbidden();
      const list: UserList = admin.national
        ? {
          items: found.filter((row) => row.id != null).map(toUserListItem),
          total: Number(found[0]?.total ?? 0),
          page: query.page,
          pageSize: query.pageSize,
          moreMatches: found[0]?.more === true,
        }
        : { items: their.map(toUserListItem), total, page: query.page, pageSize: query.pageSize, moreMatches: false };
      return c.json(list);
    }
    // No search (or a search with a status or placement filter): the whole list or a filter.
    const [[me], [{ total }], rows] = await db.read(caller.db, (tx) => {
      const [count, page] = filterUsers(tx, term, query);
      return [peopleAdminCheck(tx), count, page];
    }).catch(fromDatabase);
    if (!toPeopleAdmin(me)) throw forbidden();
    const list: UserList = { items: rows.map(toUserListItem), total, page: query.page, pageSize: query.pageSize, moreMatches: false };
    return c.json(list);
  });

  routes.post('/', async (c) => {
    const caller = requireUser(c);
    await asAdmin(db, c, async () => {});
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
      created = await authAdmin(config, 'POST', '', {
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
        // Auth answers any failure of the profile trigger as 500 "Database error": a concurrent
        // sign-up that took the username is one cause, a row the profile refuses another. Only the
        // database knows which, so ask it again; anything else stays a server error.
        if (error.status >= 500 && /database error/i.test(error.message)) {
          const now = await db.withServiceRole(async (tx) => {
            const [row] = await tx<{ usernameTaken: boolean; emailTaken: boolean }[]>`
              select private.username_taken(${input.username}) as username_taken,
                     private.email_taken(${input.email}) as email_taken`;
            return row;
          });
          if (now.usernameTaken) throw new ApiError(409, 'Username is already taken', { username: 'Username is already taken' });
          if (now.emailTaken) throw new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });
        }
        // The before-user-created hook's refusal (the same rules as userCreateSchema's).
        if (error.status === 400) throw new ApiError(400, error.message, authFieldError(error.message));
        throw new Error(`Auth admin create failed: ${error.status} ${error.message}`);
      }
      throw error;
    }
    const id = String(created.id);
    try {
      const user = await asAdmin(db, c, async (tx) => {
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
      await authAdmin(config, 'DELETE', `/${id}`).catch(() => {});
      throw error;
    }
  });

  routes.put('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', USER_NOT_FOUND);
    const input = await jsonBody(c, userUpdateSchema);
    if (Object.values(input).every((value) => value === undefined)) throw new ApiError(400, 'Nothing to update', { _: 'Nothing to update' });
    const { before, emailChanged } = await db.withCaller(caller.db, async (tx) => {
      const admin = await peopleAdmin(tx);
      const self = id === caller.userId;
      if (!admin && !self) throw forbidden();
      const locked = await lockProfile(tx, id);
      // Only the people the caller administers (anyone else is not found), or themselves.
      if (!locked || (!self && !locked.administered)) throw userNotFound();
      const current = locked.user;
      // An organisation's administrator never moves a person to another organisation (nor out of
      // every one: a national administrator).
      const orgAdmin = admin && !admin.national ? admin.organisationId : null;
      if (orgAdmin && input.organisationId !== undefined && input.organisationId !== (current.organisationId ?? null)) {
        throw new ApiError(403, 'Only a national administrator may move a person to another organisation', {
          organisationId: 'Only a national administrator may move a person to another organisation',
        });
      }
      const roleChanged = input.role !== undefined && input.role !== current.role;
      const servicesChanged = input.services !== undefined &&
        [...input.services].sort().join(',') !== [...current.services].sort().join(',');
      if (self && (roleChanged || servicesChanged)) {
        throw new ApiError(403, 'You cannot change your own role or services. Ask another administrator.');
      }
      // An organisation's administrator gives only their organisation's service (the database's
      // guard refuses any other too).
      if (orgAdmin && servicesChanged) {
        const allowed = await organisationServices(tx, orgAdmin);
        if (input.services!.some((service) => !allowed.includes(service))) {
          throw new ApiError(403, ORGANISATION_SERVICES_ONLY, { services: ORGANISATION_SERVICES_ONLY });
        }
      }
      const emailChanged = input.email !== undefined && input.email.toLowerCase() !== current.email.toLowerCase();
      if (emailChanged) {
        if (await emailUsedByAnother(tx, input.email!, id)) throw new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });
      }
      // Organisation, unit and manager: an administrator's, never one's own.
      const placing = input.organisationId !== undefined || input.unitId !== undefined || input.managerId !== undefined;
      if (placing && self) {
        throw new ApiError(403, 'You cannot change your own organisation, unit or manager. Ask another administrator.');
      }
      let placement = null;
      if (placing) {
        const organisationId = input.organisationId !== undefined ? input.organisationId : current.organisationId ?? null;
        // A move to another organisation leaves the old unit and manager unless new ones are given.
        const moved = organisationId !== (current.organisationId ?? null);
        placement = {
          organisationId,
          unitId: input.unitId !== undefined ? input.unitId : moved ? null : current.unitId ?? null,
          managerId: input.managerId !== undefined ? input.managerId : moved ? null : current.managerId ?? null,
        };
        const problems = await placementProblems(tx, id, placement);
        if (Object.keys(problems).length > 0) throw new ApiError(400, 'Validation failed', problems);
      }
      await updateProfile(tx, id, input.name ?? current.name, input.role ?? current.role, input.services ?? current.services);
      if (placement) {
        await updatePlacement(tx, id, placement).catch((error) => {
          if (pgError(error)?.code === '23514' && pgError(error)?.hint === 'manager_cycle') {
            throw new ApiError(409, 'A person cannot be managed by one of their own reports', { managerId: 'A person cannot be managed by one of their own reports' });
          }
          throw error;
        });
      }
      return { before: current, emailChanged };
    }).catch(fromDatabase);

    if (emailChanged) {
      // The sign-in email lives in Auth; its trigger copies it to the profile. After the commit above,
      // so Auth's update does not wait on this request's row lock.
      try {
        await authAdmin(config, 'PUT', `/${id}`, { email: input.email, email_confirm: true });
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

  routes.delete('/:id', async (c) => {
    const id = pathId(c, 'id', USER_NOT_FOUND);
    // private.delete_user keeps an organisation's administrator to their people (false for anyone else).
    const deleted = await asPeopleAdmin(db, c, async (tx) => {
      const [row] = await tx<{ deleted: boolean }[]>`select private.delete_user(${id}::uuid) as deleted`;
      return row?.deleted === true;
    });
    if (!deleted) throw userNotFound();
    return c.body(null, 204);
  });

  return routes;
}
