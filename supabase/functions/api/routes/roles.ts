// /api/roles, admins only: how many people hold each role and which services they hold (all, some
// or none: private.role_service_matrix), and giving every holder of a role a set of services
// (private.set_role_services).
import { Hono } from 'hono';
import { z } from 'zod';
import { type RolePermissions, roleServicesSchema } from '../../_shared/admin.ts';
import { ROLES, type Role } from '../../_shared/domain.ts';
import { SERVICE_CODES, type ServiceCode } from '../../_shared/services.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { asAdmin, pgArray } from '../lib/admin.ts';

/** Each role with its number of holders and, per service, whether all, some or none of them hold it. */
async function roleServiceMatrix(tx: Tx): Promise<RolePermissions[]> {
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
}

export function roleRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const roles = await asAdmin(db, c, (tx) => roleServiceMatrix(tx));
    return c.json(roles);
  });

  routes.put('/:role/services', async (c) => {
    const role = z.enum(ROLES).safeParse(c.req.param('role'));
    if (!role.success) throw new ApiError(404, 'Role not found');
    requireUser(c);
    const input = await jsonBody(c, roleServicesSchema);
    const updated = await asAdmin(db, c, async (tx) => {
      const [row] = await tx<{ updated: number }[]>`
        select private.set_role_services(${role.data}::public.user_role, ${pgArray(input.services)}::public.service_code[]) as updated`;
      return row.updated;
    });
    return c.json({ role: role.data, services: input.services, updated });
  });

  return routes;
}
