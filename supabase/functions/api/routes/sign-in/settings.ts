// /api/organisations/:id/sign-in: an organisation's sign-in through its identity provider, for its
// administrators (and national ones): the settings (GET, PUT, DELETE) and switching it on
// (POST /switch). A SAML provider is registered with Auth by the function (lib/sign-in.ts); the
// database decides the rest (supabase/schemas/24_organisation_sign_in.sql).
import { Hono } from 'hono';
import { type AttributeMapping, signInSettingsSchema, signInSwitchSchema } from '../../../_shared/sign-in.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { ApiError, fromSqlFunction, pgError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { pgArray } from '../../lib/admin.ts';
import {
  administeredOrganisation, authAdmin, NO_ORGANISATION, readSettingsRow, readSignIn, registerSamlProvider,
} from '../../lib/sign-in.ts';

const UNTESTED = 'Run a test sign-in that passes before switching it on';

/** A settings write the database refused, as field messages. */
function settingsRefusal(error: unknown): never {
  const pg = pgError(error);
  if (pg?.code === '23514' && pg.hint === 'services') {
    throw new ApiError(400, 'Validation failed', { newPersonServices: "New people can be given only the organisation's own service" });
  }
  if (pg?.code === '23514' && /enabled/.test(pg.constraint_name ?? '')) throw new ApiError(409, UNTESTED);
  if (pg?.code === '23514' && pg.constraint_name === 'organisation_sign_in_password_off') {
    throw new ApiError(400, 'Validation failed', { passwordSignIn: 'Password sign-in can be switched off only while sign-in through the provider is on' });
  }
  fromSqlFunction(error);
}

export function organisationSignInRoutes(config: Config, db: Db) {
  const app = new Hono<Env>();

  app.get('/', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const answer = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      return readSignIn(tx, config, id);
    });
    return c.json(answer);
  });

  app.put('/', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const input = await jsonBody(c, signInSettingsSchema);
    const mapping = Object.fromEntries(Object.entries(input.attributeMapping).filter(([, v]) => v)) as AttributeMapping;
    // The settings, as the caller: the policy and the trigger decide (a new provider is untested).
    const { before, domains } = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      const previous = await readSettingsRow(tx, id);
      try {
        await tx`
          insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, attribute_mapping, new_person_role, new_person_services)
          values (${id}, ${input.protocol}, ${input.protocol === 'oidc' ? input.tenantId ?? null : null}, ${tx.json(mapping)},
            ${input.newPersonRole}, ${pgArray(input.newPersonServices)}::public.service_code[])
          on conflict (organisation_id) do update set protocol = excluded.protocol, oidc_tenant_id = excluded.oidc_tenant_id,
            attribute_mapping = excluded.attribute_mapping, new_person_role = excluded.new_person_role,
            new_person_services = excluded.new_person_services`;
      } catch (error) {
        settingsRefusal(error);
      }
      const rows = await tx<{ domain: string }[]>`select domain from public.organisation_domains where organisation_id = ${id} order by domain`;
      return { before: previous, domains: rows.map((r) => r.domain) };
    });
    if (input.protocol === 'saml') {
      const providerId = await registerSamlProvider(config, before?.samlProviderId ?? null, input, domains);
      await db.withServiceRole((tx) =>
        tx`select private.record_saml_provider(${id}::uuid, ${providerId}::uuid, ${input.samlMetadataXml ? null : input.samlMetadataUrl ?? null})`);
    } else if (before?.samlProviderId) {
      // Moving to OpenID Connect: Auth forgets the SAML provider, so that it signs nobody in.
      await authAdmin(config, 'DELETE', `/${before.samlProviderId}`);
    }
    return c.json(await db.withCaller(caller.db, (tx) => readSignIn(tx, config, id)));
  });

  app.post('/switch', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const input = await jsonBody(c, signInSwitchSchema);
    const answer = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      try {
        const changed = await tx`update public.organisation_sign_in
          set enabled = ${input.enabled}, password_sign_in = ${input.enabled ? input.passwordSignIn : true}
          where organisation_id = ${id} returning 1`;
        if (changed.length === 0) throw new ApiError(409, 'Set up the sign-in first');
      } catch (error) {
        if (error instanceof ApiError) throw error;
        settingsRefusal(error);
      }
      return readSignIn(tx, config, id);
    });
    return c.json(answer);
  });

  app.delete('/', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const removed = await db.withCaller(caller.db, async (tx) => {
      await administeredOrganisation(tx, id);
      const [row] = await tx<{ samlProviderId: string | null }[]>`
        delete from public.organisation_sign_in where organisation_id = ${id} returning saml_provider_id`;
      return row;
    });
    if (!removed) throw new ApiError(404, 'This organisation has no sign-in set up');
    if (removed.samlProviderId) await authAdmin(config, 'DELETE', `/${removed.samlProviderId}`);
    return c.body(null, 204);
  });

  return app;
}

