// /api/scim/v2: SCIM 2.0 provisioning (RFC 7643/7644) of an organisation's people and units, for
// its identity system (Microsoft Entra ID and the like), with a bearer token of the organisation
// (docs/decisions/scim-provisioning.md). The bearer is a SCIM token, not a user's JWT: the caller
// middleware passes these paths by (app.ts) and every SQL function checks the token itself.
// Answers and errors are application/scim+json, errors in SCIM's own format.
import { Hono } from 'hono';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { ENTERPRISE, LIST_SCHEMA, MAX_PAGE, SCIMMY, scimErrorAnswer, ScimError, scimJson } from './protocol.ts';
import { registerUserRoutes } from './users.ts';
import { registerGroupRoutes } from './groups.ts';

/** The mount of this router under /api, for the caller middleware to pass it by. */
export const SCIM_PATH = /^\/api\/scim\/v2(\/|$)/;

/** Where an organisation's identity system sends its requests (the "tenant URL"). */
export const scimBaseUrl = (config: Config) => `${config.supabaseUrl}/functions/v1/api/scim/v2`;

const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';

export function scimRoutes(config: Config, db: Db) {
  const scim = new Hono();
  const baseUrl = scimBaseUrl(config);
  scim.onError((error, c) => scimErrorAnswer(c, error));

  registerUserRoutes(scim, db, baseUrl);
  registerGroupRoutes(scim, db, baseUrl);

  // Discovery (RFC 7644 section 4) describes the platform's SCIM, nothing of any organisation: no token needed.
  scim.get('/ServiceProviderConfig', (c) => scimJson(c, {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: 'https://datatracker.ietf.org/doc/html/rfc7644',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{
      type: 'oauthbearertoken',
      name: 'Bearer token',
      description: "A token of the organisation, made by its administrator in Admin, Organisation tab, 'Automatic provisioning (SCIM)'",
      primary: true,
    }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  }));

  const schemas = () => [SCIMMY.Schemas.User, SCIMMY.Schemas.EnterpriseUser, SCIMMY.Schemas.Group]
    .map((schema) => schema.definition.describe(`${baseUrl}/Schemas`));
  scim.get('/Schemas', (c) => {
    const list = schemas();
    return scimJson(c, { schemas: [LIST_SCHEMA], totalResults: list.length, startIndex: 1, itemsPerPage: list.length, Resources: list });
  });
  const resourceTypes = () => [
    { id: 'User', endpoint: '/Users', description: 'A person of the organisation', schema: SCIMMY.Schemas.User.definition.id,
      schemaExtensions: [{ schema: ENTERPRISE, required: false }] },
    { id: 'Group', endpoint: '/Groups', description: 'A unit of the organisation', schema: SCIMMY.Schemas.Group.definition.id,
      schemaExtensions: [] },
  ].map((type) => ({
    schemas: [RESOURCE_TYPE_SCHEMA], name: type.id, ...type,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${type.id}` },
  }));
  scim.get('/ResourceTypes', (c) => {
    const list = resourceTypes();
    return scimJson(c, { schemas: [LIST_SCHEMA], totalResults: list.length, startIndex: 1, itemsPerPage: list.length, Resources: list });
  });
  // Anything else under the SCIM base answers in SCIM's format too.
  scim.all('*', () => {
    throw new ScimError(404, null, 'Not found');
  });
  return scim;
}
