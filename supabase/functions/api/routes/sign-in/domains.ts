// /api/organisations/:id/domains: an organisation's email domains, given and taken away by national
// administrators once they have confirmed the organisation owns them; its SAML provider's domains
// at Auth follow them.
import { type Context, Hono } from 'hono';
import { domainSchema } from '../../../_shared/sign-in.ts';
import type { Config } from '../../lib/config.ts';
import type { Db, Tx } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody, validate } from '../../lib/body.ts';
import { ApiError, pgError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { forbidden } from '../../lib/admin.ts';
import { administeredOrganisation, NO_ORGANISATION, readSettingsRow, readSignIn, syncSamlDomains } from '../../lib/sign-in.ts';

export function organisationDomainRoutes(config: Config, db: Db) {
  const app = new Hono<Env>();

  /** Domains are the national administrators'; the SAML provider's follow them. */
  async function changeDomains(c: Context<Env>, change: (tx: Tx, id: string) => Promise<void>) {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NO_ORGANISATION);
    const { providerId, domains } = await db.withCaller(caller.db, async (tx) => {
      const { national } = await administeredOrganisation(tx, id);
      if (!national) throw forbidden('Only national administrators give and take email domains, once they have confirmed the organisation owns them');
      await change(tx, id);
      const rows = await tx<{ domain: string }[]>`select domain from public.organisation_domains where organisation_id = ${id} order by domain`;
      const settings = await readSettingsRow(tx, id);
      return { providerId: settings?.samlProviderId ?? null, domains: rows.map((r) => r.domain) };
    });
    await syncSamlDomains(config, providerId, domains);
    return c.json(await db.withCaller(caller.db, (tx) => readSignIn(tx, config, id)));
  }

  app.post('/', async (c) => {
    const input = await jsonBody(c, domainSchema);
    return changeDomains(c, async (tx, id) => {
      const [owner] = await tx<{ organisationId: string }[]>`select organisation_id from public.organisation_domains where domain = ${input.domain}`;
      if (owner?.organisationId === id) throw new ApiError(409, 'The organisation already has this domain');
      try {
        await tx`insert into public.organisation_domains (domain, organisation_id) values (${input.domain}, ${id})`;
      } catch (error) {
        // (the primary key: another organisation has it, or took it a moment ago)
        if (pgError(error)?.code === '23505') throw new ApiError(409, 'Another organisation has this domain');
        throw error;
      }
    });
  });

  app.delete('/:domain', (c) => {
    const domain = validate(domainSchema, { domain: c.req.param('domain') }).domain;
    return changeDomains(c, async (tx, id) => {
      const gone = await tx`delete from public.organisation_domains where domain = ${domain} and organisation_id = ${id} returning 1`;
      if (gone.length === 0) throw new ApiError(404, 'The organisation has no such domain');
    });
  });

  return app;
}
