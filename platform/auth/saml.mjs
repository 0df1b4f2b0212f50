// The local Auth's SAML 2.0 single sign-on, as Supabase Auth (GoTrue) offers it
// (internal/api/sso.go, samlacs.go, samlassertion.go, ssoadmin.go, models/sso.go):
//   GET  /sso/saml/metadata  the service provider's metadata (entity id = this URL, ACS below);
//   POST /sso {domain | provider_id, redirect_to, skip_http_redirect, code_challenge, code_challenge_method}
//        keeps a relay state (and a flow state for PKCE) and answers {url} of the IdP's AuthnRequest;
//   POST /sso/saml/acs  the IdP's Response (HTTP-POST binding): checked, the person signed in, and the
//        browser sent to redirect_to?code=… (PKCE) or with the session in the fragment;
//   /admin/sso/providers[/id]  (service role) providers registered by metadata URL or XML, per email domain.
// The protocol work is libraries': node-saml builds the AuthnRequest and checks the Response (signature
// against the provider's metadata certificate, audience, time conditions, InResponseTo), samlify reads
// the IdP's metadata. This file keeps the state and maps the attributes.
import { randomUUID } from 'node:crypto';
import { SAML, ValidateInResponseTo, generateServiceProviderMetadata } from '@node-saml/node-saml';
import samlify from 'samlify';
import { json, readJson } from '../http.mjs';
import { OAUTH_ERROR_OF_STATUS, createIdentitySignIn, errorRedirect, pkceProblem, redirect } from './identity.mjs';

/** How long an IdP may take to answer a request (GoTrue's relay state validity period: 2 minutes). */
export const RELAY_STATE_TTL_SECONDS = 120;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_ID = {
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  email: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  transient: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  unspecified: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
};
/** The persistent identifier attribute that comes before the NameID (samlassertion.go). */
const SUBJECT_ID_ATTRIBUTE = 'urn:oasis:names:tc:SAML:attribute:subject-id';
/** Where GoTrue looks for an address when the mapping names none (samlassertion.go's Email). */
const EMAIL_ATTRIBUTES = ['urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'http://schemas.xmlsoap.org/claims/EmailAddress', 'mail', 'Mail', 'email'];
/** GoTrue's provider.Claims: mapped keys with these names become top-level identity data, the rest custom_claims. */
const STRING_CLAIMS = ['iss', 'sub', 'aud', 'name', 'family_name', 'given_name', 'middle_name', 'nickname', 'preferred_username',
  'profile', 'picture', 'website', 'gender', 'birthdate', 'zoneinfo', 'locale', 'updated_at', 'email', 'phone',
  'full_name', 'avatar_url', 'slug', 'provider_id', 'user_name'];
const NUMBER_CLAIMS = ['iat', 'exp'];
const BOOLEAN_CLAIMS = ['email_verified', 'phone_verified'];
/** Clock skew allowed on the Response's time conditions (crewjam/saml's, which GoTrue uses: 180 s). */
const CLOCK_SKEW_MS = 180_000;

/**
 * @typedef {object} SamlHelpers what createAuth lends the SAML endpoints
 * @property {(value: unknown) => string} allowedRedirect
 * @property {string} siteUrl
 * @property {(id: string, input: { email: string, userMetadata: object }, appMetadata: object) => Promise<void>} runBeforeUserCreated
 * @property {(id: string) => Promise<any>} findUser
 * @property {(user: any, request: Request, method: string) => Promise<Record<string, any>>} openSession
 * @property {(status: number, code: string, msg: string) => Response} fail
 * @property {(request: Request) => Promise<unknown>} requireAdmin throws an answer unless the service role calls
 */

/** A refusal on the way to an error redirect: GoTrue's HTTP error, as samlacs.go sends it back. */
class SamlRefusal extends Error {
  /** @param {number} status @param {string} code @param {string} description */
  constructor(status, code, description) {
    super(description);
    this.problem = { error: OAUTH_ERROR_OF_STATUS[/** @type {keyof typeof OAUTH_ERROR_OF_STATUS} */ (status)] ?? 'server_error', code, description };
  }
}

/**
 * An IdP's metadata as GoTrue accepts it (ssoadmin.go's parseSAMLMetadata): one EntityDescriptor with
 * an entity id and exactly one IDPSSODescriptor; read by samlify.
 * @param {string} xml
 * @returns {{ entityId: string, certificates: string[], ssoUrl: string, cacheDuration: string, validUntil: string } | { problem: string }}
 */
export function readIdpMetadata(xml) {
  let metadata;
  let descriptors;
  try {
    metadata = samlify.IdPMetadata(xml);
    descriptors = samlify.Extractor.extract(xml, [{ key: 'descriptors', localPath: ['EntityDescriptor', 'IDPSSODescriptor'], attributes: ['protocolSupportEnumeration'] }]).descriptors;
  } catch {
    return { problem: 'SAML Metadata could not be parsed' };
  }
  const entityId = metadata.getEntityID();
  if (typeof entityId !== 'string' || !entityId) return { problem: 'SAML Metadata does not contain an EntityID' };
  const count = Array.isArray(descriptors) ? descriptors.length : descriptors ? 1 : 0;
  if (count < 1) return { problem: 'SAML Metadata does not contain any IDPSSODescriptor' };
  if (count > 1) return { problem: 'SAML Metadata contains multiple IDPSSODescriptors' };
  const signing = metadata.getX509Certificate('signing');
  const certificates = (Array.isArray(signing) ? signing : [signing]).filter((c) => typeof c === 'string' && c.trim() !== '');
  const services = metadata.getSingleSignOnService('redirect');
  const ssoUrl = typeof services === 'string' ? services : '';
  const root = /** @type {any} */ (metadata.meta?.entityDescriptor) ?? {};
  return { entityId, certificates, ssoUrl, cacheDuration: String(root.cacheDuration ?? ''), validUntil: String(root.validUntil ?? '') };
}

/** An ISO 8601 duration (PT5M, P1D, PT1H30M) in milliseconds; 0 when there is none or it does not parse. */
function durationMs(/** @type {string} */ text) {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text);
  if (!m) return 0;
  return (((Number(m[1] ?? 0) * 24 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 60 + Number(m[4] ?? 0)) * 1000;
}

/**
 * The attributes of a verified assertion (node-saml's parse of it), by Name and by FriendlyName.
 * @param {any} assertion @returns {{ name: string, friendlyName: string, values: string[] }[]}
 */
function attributesOf(assertion) {
  const statements = assertion?.Assertion?.AttributeStatement ?? [];
  return statements.flatMap((/** @type {any} */ statement) => (statement.Attribute ?? []).map((/** @type {any} */ attribute) => ({
    name: String(attribute.$?.Name ?? ''),
    friendlyName: String(attribute.$?.FriendlyName ?? ''),
    values: (attribute.AttributeValue ?? []).map((/** @type {any} */ v) => (typeof v === 'string' ? v : typeof v?._ === 'string' ? v._ : '')),
  })));
}

/**
 * GoTrue's SAMLAssertion.Process: each key of the mapping gets the first non-empty value of the first
 * of its attribute names present (Name or FriendlyName), else its default.
 * @param {ReturnType<typeof attributesOf>} attributes @param {any} mapping
 */
export function processAttributes(attributes, mapping) {
  const valuesOf = (/** @type {string} */ name) => attributes.filter((a) => a.name === name || a.friendlyName === name).flatMap((a) => a.values);
  /** @type {Record<string, unknown>} */
  const claims = {};
  for (const [key, mapper] of Object.entries(mapping?.keys ?? {})) {
    // An empty name matches nothing (GoTrue's loop would match any attribute without a FriendlyName).
    const names = [mapper?.name ?? '', ...(Array.isArray(mapper?.names) ? mapper.names : [])].filter((n) => typeof n === 'string' && n !== '');
    const value = names.flatMap(valuesOf).find((v) => v !== '');
    if (value !== undefined) claims[key] = value;
    else if (mapper?.default !== undefined && mapper?.default !== null) claims[key] = mapper.default;
  }
  return claims;
}

/**
 * The identity data GoTrue keeps of a SAML sign-in (samlacs.go): the mapped claims, the standard ones at
 * the top (iss = the IdP's entity id, sub = the persistent user id, the email verified), the others in
 * custom_claims.
 * @param {Record<string, unknown>} claims @param {{ entityId: string, userId: string, email: string }} fixed
 */
export function samlIdentityData(claims, { entityId, userId, email }) {
  /** @type {Record<string, unknown>} */
  const standard = {};
  for (const [key, value] of Object.entries({ ...claims, email })) {
    const isString = STRING_CLAIMS.includes(key);
    const isNumber = NUMBER_CLAIMS.includes(key);
    const isBoolean = BOOLEAN_CLAIMS.includes(key);
    if (!isString && !isNumber && !isBoolean) continue;
    const type = isString ? 'string' : isNumber ? 'number' : 'boolean';
    // GoTrue decodes the mapped claims into its Claims struct: a value of another type fails there.
    if (typeof value !== type) throw new SamlRefusal(500, 'unexpected_failure', 'Mapped claims from provider could not be deserialized from JSON');
    if (value !== '' && value !== 0) standard[key] = value;
  }
  Object.assign(standard, { iss: entityId, sub: userId, email, email_verified: true, phone_verified: standard.phone_verified === true });
  const custom = Object.fromEntries(Object.entries(claims).filter(([key]) => !(key in standard)));
  return { ...standard, custom_claims: custom };
}

/**
 * @param {{ sql: import('postgres').Sql, publicUrl: string, helpers: SamlHelpers, metadataFetch?: typeof fetch }} options
 *   metadataFetch: how an IdP's metadata URL is fetched
 */
export function createSaml({ sql, publicUrl, helpers, metadataFetch = fetch }) {
  const { allowedRedirect, siteUrl, runBeforeUserCreated, findUser, openSession, fail, requireAdmin } = helpers;
  const { signInIdentity, finishSignIn } = createIdentitySignIn({ sql, runBeforeUserCreated, findUser, openSession });
  const base = `${publicUrl.replace(/\/+$/, '')}/auth/v1/sso/saml`;
  const entityId = `${base}/metadata`;
  const acsUrl = `${base}/acs`;

  /**
   * node-saml for one provider; the cache holds the AuthnRequest IDs it may answer (InResponseTo).
   * @param {any} provider a saml_providers row @param {any} cacheProvider @param {ReturnType<typeof readIdpMetadata>} [metadata]
   */
  function serviceProvider(provider, cacheProvider, metadata = readIdpMetadata(provider.metadata_xml)) {
    if ('problem' in metadata) throw new SamlRefusal(500, 'unexpected_failure', 'Error parsing SAML Metadata for SAML provider');
    return new SAML({
      callbackUrl: acsUrl,
      issuer: entityId,
      audience: entityId,
      entryPoint: metadata.ssoUrl,
      idpCert: metadata.certificates.length ? metadata.certificates : ['-'],
      identifierFormat: provider.name_id_format ?? NAME_ID.persistent,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: RELAY_STATE_TTL_SECONDS * 1000,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      disableRequestedAuthnContext: true,
      cacheProvider,
    });
  }

  // ---------------------------------------------------------------- GET /sso/saml/metadata

  /** @param {URL} url */
  function spMetadata(url) {
    const xml = generateServiceProviderMetadata({ issuer: entityId, callbackUrl: acsUrl, identifierFormat: NAME_ID.persistent, wantAssertionsSigned: true });
    /** @type {Record<string, string>} */
    const headers = { 'content-type': 'application/xml', 'cache-control': 'public, max-age=600' };
    if (url.searchParams.get('download') === 'true') headers['content-disposition'] = 'attachment; filename="metadata.xml"';
    return new Response(xml, { status: 200, headers });
  }

  // ---------------------------------------------------------------- POST /sso

  /** @param {Request} request */
  async function singleSignOn(request) {
    const body = await readJson(request);
    if (!body || typeof body !== 'object' || Array.isArray(body)) return fail(400, 'bad_json', 'Could not parse request body as JSON');
    const providerId = typeof body.provider_id === 'string' ? body.provider_id.trim() : '';
    const domain = typeof body.domain === 'string' ? body.domain.trim().toLowerCase() : '';
    if (providerId && domain) return fail(400, 'validation_failed', 'Only one of provider_id or domain supported');
    if (!providerId && !domain) return fail(400, 'validation_failed', 'A provider_id or domain needs to be provided');
    const challenge = typeof body.code_challenge === 'string' ? body.code_challenge : '';
    const method = typeof body.code_challenge_method === 'string' ? body.code_challenge_method.toLowerCase() : '';
    const pkce = pkceProblem(challenge, method);
    if (pkce) return fail(400, 'validation_failed', pkce);

    const [provider] = providerId
      ? (UUID_PATTERN.test(providerId) ? await sql`select * from auth.saml_providers where sso_provider_id = ${providerId}` : [])
      : await sql`select p.* from auth.sso_domains d join auth.saml_providers p on p.sso_provider_id = d.sso_provider_id
          where lower(d.domain) = ${domain}`;
    if (!provider) return fail(404, 'sso_provider_not_found', providerId ? 'No such SSO provider' : 'No SSO provider assigned for this domain');

    const redirectTo = typeof body.redirect_to === 'string' ? body.redirect_to : '';
    const relayStateId = randomUUID();
    let requestId = '';
    let url;
    try {
      const sp = serviceProvider(provider, {
        saveAsync: async (/** @type {string} */ key) => { requestId = key; return null; },
        getAsync: async () => null,
        removeAsync: async () => null,
      });
      url = await sp.getAuthorizeUrlAsync(relayStateId, undefined, {});
    } catch (error) {
      console.error('[auth] SAML AuthnRequest failed:', /** @type {Error} */ (error).message);
      return fail(500, 'unexpected_failure', 'Error creating SAML Authentication Request');
    }
    await sql.begin(async (tx) => {
      // Relay states never answered are cleared as new ones start (GoTrue's clean-up does it too).
      await tx`delete from auth.saml_relay_states where created_at < now() - interval '1 day'`;
      let flowStateId = null;
      if (challenge) {
        flowStateId = randomUUID();
        await tx`insert into auth.flow_state (id, code_challenge_method, code_challenge, provider_type, created_at, updated_at, authentication_method, referrer)
          values (${flowStateId}, ${method}, ${challenge}, 'sso/saml', now(), now(), 'sso/saml', ${redirectTo || null})`;
      }
      await tx`insert into auth.saml_relay_states (id, sso_provider_id, request_id, redirect_to, created_at, updated_at, flow_state_id)
        values (${relayStateId}, ${provider.sso_provider_id}, ${requestId}, ${redirectTo || null}, now(), now(), ${flowStateId})`;
    });
    if (body.skip_http_redirect === true) return json(200, { url });
    return redirect(url, 303);
  }

  // ---------------------------------------------------------------- POST /sso/saml/acs

  /**
   * The provider's metadata, fetched again from its URL when stale (GoTrue's IsSAMLMetadataStale:
   * validUntil passed, cacheDuration since the last update, else a day); kept as it was if that fails.
   * @param {any} provider
   */
  async function freshMetadata(provider) {
    const current = readIdpMetadata(provider.metadata_xml);
    if (!provider.metadata_url || 'problem' in current) return current;
    const now = Date.now();
    const updated = new Date(provider.updated_at ?? 0).getTime();
    const cache = durationMs(current.cacheDuration);
    const stale = (current.validUntil && new Date(current.validUntil).getTime() < now)
      || (cache > 0 && now > updated + cache)
      || (!current.validUntil && !cache && now > updated + 86400_000);
    if (!stale) return current;
    const fetched = await fetchMetadata(provider.metadata_url).catch((error) => ({ problem: String(error?.message ?? error) }));
    const fresh = 'xml' in fetched ? readIdpMetadata(fetched.xml) : fetched;
    if ('problem' in fresh || !('xml' in fetched) || fresh.entityId !== provider.entity_id) {
      console.warn(`[auth] SAML Metadata could not be retrieved, continuing with existing metadata (${provider.entity_id})`);
      return current;
    }
    await sql`update auth.saml_providers set metadata_xml = ${fetched.xml}, updated_at = now() where id = ${provider.id}`;
    return fresh;
  }

  /** @param {Request} request */
  async function assertionConsumer(request) {
    let flow = null;
    try {
      const text = await request.text();
      if (text.length > 1_000_000) throw new SamlRefusal(400, 'validation_failed', 'SAMLResponse is too large');
      const form = new URLSearchParams(text);
      const relayValue = form.get('RelayState') ?? '';
      if (!UUID_PATTERN.test(relayValue)) {
        // GoTrue also takes IdP-initiated sign-ins (RelayState empty or a URL); the local Auth does not.
        const initiatedByIdp = relayValue === '' || URL.canParse(relayValue);
        throw new SamlRefusal(400, 'validation_failed', initiatedByIdp ? 'IdP initiated SAML sign-in is not supported' : 'SAML RelayState is not a valid UUID or URL');
      }
      // One use: the relay state is deleted as it is read, so a replay (or a second post at once) finds nothing.
      const [relay] = await sql`delete from auth.saml_relay_states where id = ${relayValue}
        returning *, created_at < now() - make_interval(secs => ${RELAY_STATE_TTL_SECONDS}) as expired`;
      if (!relay) throw new SamlRefusal(404, 'saml_relay_state_not_found', 'SAML RelayState does not exist, try logging in again?');
      if (relay.flow_state_id) [flow] = await sql`select * from auth.flow_state where id = ${relay.flow_state_id}`;
      if (relay.expired) throw new SamlRefusal(422, 'saml_relay_state_expired', 'SAML RelayState has expired. Try logging in again?');
      const [provider] = await sql`select * from auth.saml_providers where sso_provider_id = ${relay.sso_provider_id}`;
      if (!provider) throw new SamlRefusal(500, 'unexpected_failure', 'Unable to find SSO Provider from SAML RelayState');

      const samlResponse = form.get('SAMLResponse') ?? '';
      if (!samlResponse) throw new SamlRefusal(400, 'validation_failed', 'SAMLResponse is missing');
      const issuedAt = new Date(relay.created_at).toISOString();
      /** @type {any} */
      let profile;
      try {
        const sp = serviceProvider(provider, {
          saveAsync: async () => null,
          // Only this relay state's request may be answered.
          getAsync: async (/** @type {string} */ key) => (key === relay.request_id ? issuedAt : null),
          removeAsync: async () => null,
        }, await freshMetadata(provider));
        ({ profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse, RelayState: relayValue }));
        if (!profile) throw new Error('no assertion');
        // What node-saml leaves to its caller: the verified assertion's issuer and recipient, and the Response's destination.
        if (profile.issuer !== provider.entity_id) throw new Error(`issuer ${profile.issuer} is not ${provider.entity_id}`);
        const confirmations = profile.getAssertion()?.Assertion?.Subject?.[0]?.SubjectConfirmation ?? [];
        const recipients = confirmations.map((/** @type {any} */ c) => c.SubjectConfirmationData?.[0]?.$?.Recipient).filter(Boolean);
        if (recipients.some((/** @type {string} */ r) => r !== acsUrl)) throw new Error(`recipient ${recipients.join(', ')} is not ${acsUrl}`);
        const destination = samlify.Extractor.extract(profile.getSamlResponseXml(), [{ key: 'response', localPath: ['Response'], attributes: ['Destination'] }]).response?.destination;
        if (destination && destination !== acsUrl) throw new Error(`destination ${destination} is not ${acsUrl}`);
      } catch (error) {
        if (error instanceof SamlRefusal) throw error;
        console.error(`[auth] SAML Response refused (${provider.entity_id}): ${/** @type {Error} */ (error).message}`);
        throw new SamlRefusal(400, 'validation_failed', 'SAML Assertion is not valid');
      }

      const attributes = attributesOf(profile.getAssertion());
      const subjectId = attributes.filter((a) => a.name === SUBJECT_ID_ATTRIBUTE || a.friendlyName === SUBJECT_ID_ATTRIBUTE).flatMap((a) => a.values)[0];
      const nameId = typeof profile.nameID === 'string' ? profile.nameID : '';
      const emailNameId = profile.nameIDFormat === NAME_ID.email;
      const userId = subjectId || (profile.nameIDFormat === NAME_ID.transient ? '' : emailNameId ? nameId.trim().toLowerCase() : nameId);
      if (!userId || userId.length > 255) {
        throw new SamlRefusal(400, 'saml_assertion_no_user_id', 'SAML Assertion did not contain a persistent Subject Identifier attribute or Subject NameID uniquely identifying this user');
      }
      const claims = processAttributes(attributes, provider.attribute_mapping);
      let email = typeof claims.email === 'string' ? claims.email : '';
      if (!email) {
        email = EMAIL_ATTRIBUTES.flatMap((name) => attributes.filter((a) => a.name === name || a.friendlyName === name).flatMap((a) => a.values)).find((v) => v !== '')
          ?? (emailNameId ? nameId : '');
      }
      if (!email) throw new SamlRefusal(400, 'saml_assertion_no_email', 'SAML Assertion does not contain an email address');
      if (email.length > 255 || !EMAIL_PATTERN.test(email.trim())) throw new SamlRefusal(400, 'validation_failed', 'SAML Assertion contains an invalid email address');
      const identityData = samlIdentityData(claims, { entityId: provider.entity_id, userId, email });
      if (JSON.stringify(identityData).length > 16_384) throw new SamlRefusal(400, 'validation_failed', 'SAML Assertion has too many attributes');

      const user = await signInIdentity(`sso:${provider.sso_provider_id}`, { sub: userId, email: email.trim().toLowerCase(), identityData }, { sso: true });
      if ('refused' in user) throw Object.assign(new SamlRefusal(400, '', ''), { problem: user.refused });
      return await finishSignIn({ flow, user, back: allowedRedirect(relay.redirect_to), request, method: 'sso/saml' });
    } catch (error) {
      if (!(error instanceof SamlRefusal)) throw error;
      if (flow) await sql`delete from auth.flow_state where id = ${flow.id}`;
      // As GoTrue's SamlAcs: every refusal goes (303) to the site URL, the error in the query.
      return errorRedirect(siteUrl, error.problem, 303, { fragment: false });
    }
  }

  // ---------------------------------------------------------------- /admin/sso/providers

  /**
   * An IdP's metadata from its URL, as GoTrue fetches it (a non-200 answer is refused).
   * @param {string} url @returns {Promise<{ xml: string }>}
   */
  async function fetchMetadata(url) {
    const response = await metadataFetch(url, {
      headers: { accept: 'application/xml;charset=UTF-8', 'accept-charset': 'UTF-8' },
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new SamlAdminError(fail(400, 'saml_metadata_fetch_failed', `HTTP ${response.status} error fetching SAML Metadata from URL '${url}'`));
    }
    const xml = await response.text();
    if (xml.length > 1_000_000) throw new SamlAdminError(fail(400, 'saml_metadata_fetch_failed', `SAML Metadata from URL '${url}' is too large`));
    return { xml };
  }

  /** A provider as GoTrue's JSON has it (models/sso.go). @param {any} row @param {{ withXml?: boolean }} [options] */
  async function providerJson(row, { withXml = true } = {}) {
    const domains = await sql`select domain from auth.sso_domains where sso_provider_id = ${row.sso_provider_id} order by created_at, domain`;
    const [sso] = await sql`select created_at, updated_at from auth.sso_providers where id = ${row.sso_provider_id}`;
    return {
      id: row.sso_provider_id,
      saml: {
        entity_id: row.entity_id,
        ...(withXml ? { metadata_xml: row.metadata_xml } : {}),
        ...(row.metadata_url ? { metadata_url: row.metadata_url } : {}),
        attribute_mapping: row.attribute_mapping ?? {},
        ...(row.name_id_format ? { name_id_format: row.name_id_format } : {}),
      },
      domains: domains.map((d) => ({ domain: d.domain })),
      created_at: new Date(sso.created_at).toISOString(),
      updated_at: new Date(sso.updated_at).toISOString(),
    };
  }

  /**
   * The body of a create or update (ssoadmin.go's CreateSSOProviderParams and its validate).
   * @param {Request} request @param {boolean} forUpdate
   */
  async function providerParams(request, forUpdate) {
    const body = await readJson(request);
    const badJson = () => new SamlAdminError(fail(400, 'bad_json', 'Could not parse request body as JSON'));
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badJson();
    const text = (/** @type {unknown} */ v) => {
      if (v === undefined || v === null) return '';
      if (typeof v !== 'string') throw badJson();
      return v;
    };
    const type = text(body.type);
    const metadataUrl = text(body.metadata_url);
    const metadataXml = text(body.metadata_xml);
    const nameIdFormat = text(body.name_id_format);
    /** @type {string[] | null} */
    let domains = null;
    if (body.domains !== undefined && body.domains !== null) {
      if (!Array.isArray(body.domains) || !body.domains.every((d) => typeof d === 'string')) throw badJson();
      domains = [...new Set(body.domains.map((d) => d.trim().toLowerCase()))];
    }
    const mapping = body.attribute_mapping;
    if (mapping !== undefined && mapping !== null) {
      const keys = mapping.keys;
      const valid = typeof mapping === 'object' && !Array.isArray(mapping) && (keys === undefined || keys === null
        || (typeof keys === 'object' && !Array.isArray(keys) && Object.values(keys).every((m) => m && typeof m === 'object' && !Array.isArray(m)
          && (m.name === undefined || typeof m.name === 'string')
          && (m.names === undefined || m.names === null || (Array.isArray(m.names) && m.names.every((n) => typeof n === 'string'))))));
      if (!valid) throw badJson();
    }
    const invalid = (/** @type {string} */ msg) => new SamlAdminError(fail(400, 'validation_failed', msg));
    if (!forUpdate && type !== 'saml') throw invalid("Only 'saml' supported for SSO provider type");
    if (metadataUrl && metadataXml) throw invalid('Only one of metadata_xml or metadata_url needs to be set');
    if (!forUpdate && !metadataUrl && !metadataXml) throw invalid('Either metadata_xml or metadata_url must be set');
    if (metadataUrl) {
      let parsed;
      try {
        parsed = new URL(metadataUrl);
      } catch {
        throw invalid('metadata_url is not a valid URL');
      }
      // HTTPS as GoTrue asks, except for an IdP on this machine (the local one speaks plain HTTP).
      const loopback = parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
      if (parsed.protocol !== 'https:' && !loopback) throw invalid('metadata_url is not a HTTPS URL');
    }
    if (nameIdFormat && !Object.values(NAME_ID).includes(nameIdFormat)) {
      throw invalid(`name_id_format must be unspecified or one of ${[NAME_ID.persistent, NAME_ID.email, NAME_ID.transient, NAME_ID.unspecified].join(', ')}`);
    }
    if (domains?.some((d) => !d)) throw invalid('SSO domain cannot be empty');
    /** @type {{ xml: string, metadata: Exclude<ReturnType<typeof readIdpMetadata>, { problem: string }> } | null} */
    let metadata = null;
    if (metadataUrl || metadataXml) {
      const xml = metadataXml || (await fetchMetadata(metadataUrl).catch((error) => {
        if (error instanceof SamlAdminError) throw error;
        throw new SamlAdminError(fail(400, 'saml_metadata_fetch_failed', `Error fetching SAML Metadata from URL '${metadataUrl}'`));
      })).xml;
      if (xml.includes('\uFFFD')) throw invalid('SAML Metadata XML contains invalid UTF-8 characters, which are not supported at this time');
      const read = readIdpMetadata(xml);
      if ('problem' in read) throw invalid(read.problem);
      metadata = { xml, metadata: read };
    }
    return { metadataUrl, metadata, domains, mapping: mapping ?? null, nameIdFormat };
  }

  /** A domain another provider has: GoTrue's 400. @param {string[]} domains @param {string | null} own */
  async function takenDomain(domains, own) {
    if (!domains.length) return null;
    const [taken] = await sql`select domain, sso_provider_id from auth.sso_domains
      where lower(domain) in ${sql(domains)} and (${own}::uuid is null or sso_provider_id <> ${own}::uuid) limit 1`;
    return taken ?? null;
  }

  /** @param {Request} request */
  async function createProvider(request) {
    const params = await providerParams(request, false);
    const { xml, metadata } = /** @type {NonNullable<typeof params.metadata>} */ (params.metadata);
    const [existing] = await sql`select id from auth.saml_providers where entity_id = ${metadata.entityId}`;
    if (existing) return fail(422, 'saml_idp_already_exists', `SAML Identity Provider with this EntityID (${metadata.entityId}) already exists`);
    const taken = await takenDomain(params.domains ?? [], null);
    if (taken) return fail(400, 'sso_domain_already_exists', `SSO Domain '${taken.domain}' is already assigned to an SSO identity provider (${taken.sso_provider_id})`);
    const id = randomUUID();
    try {
      await sql.begin(async (tx) => {
        await tx`insert into auth.sso_providers (id, created_at, updated_at) values (${id}, now(), now())`;
        await tx`insert into auth.saml_providers (id, sso_provider_id, entity_id, metadata_xml, metadata_url, attribute_mapping, name_id_format, created_at, updated_at)
          values (${randomUUID()}, ${id}, ${metadata.entityId}, ${xml}, ${params.metadataUrl || null},
            ${params.mapping ? sql.json(params.mapping) : null}::jsonb, ${params.nameIdFormat || null}, now(), now())`;
        for (const domain of params.domains ?? []) {
          await tx`insert into auth.sso_domains (id, sso_provider_id, domain, created_at, updated_at) values (${randomUUID()}, ${id}, ${domain}, now(), now())`;
        }
      });
    } catch (error) {
      if (/** @type {any} */ (error)?.code === '23505') return fail(422, 'conflict', 'Creating SSO provider failed, likely due to a conflict. Try again?');
      throw error;
    }
    const [row] = await sql`select * from auth.saml_providers where sso_provider_id = ${id}`;
    return json(201, await providerJson(row));
  }

  /** @param {Request} request @param {any} row */
  async function updateProvider(request, row) {
    const params = await providerParams(request, true);
    if (params.metadata && params.metadata.metadata.entityId !== row.entity_id) {
      return fail(400, 'saml_entity_id_mismatch', `SAML Metadata can be updated only if the EntityID matches for the provider; expected '${row.entity_id}' but got '${params.metadata.metadata.entityId}'`);
    }
    const taken = await takenDomain(params.domains ?? [], row.sso_provider_id);
    if (taken) return fail(400, 'sso_domain_already_exists', `SSO domain '${taken.domain}' already assigned to another provider (${taken.sso_provider_id})`);
    try {
      await sql.begin(async (tx) => {
        if (params.metadata) {
          await tx`update auth.saml_providers set metadata_xml = ${params.metadata.xml}, metadata_url = coalesce(${params.metadataUrl || null}, metadata_url), updated_at = now()
            where id = ${row.id}`;
        }
        if (params.mapping?.keys) {
          await tx`update auth.saml_providers set attribute_mapping = ${sql.json(params.mapping)}::jsonb, updated_at = now() where id = ${row.id}`;
        }
        // As GoTrue: name_id_format takes what the body says, its absence included.
        await tx`update auth.saml_providers set name_id_format = ${params.nameIdFormat || null} where id = ${row.id}`;
        if (params.domains) {
          await tx`delete from auth.sso_domains where sso_provider_id = ${row.sso_provider_id} and not (lower(domain) in ${sql(params.domains.length ? params.domains : [''])})`;
          for (const domain of params.domains) {
            await tx`insert into auth.sso_domains (id, sso_provider_id, domain, created_at, updated_at)
              select ${randomUUID()}, ${row.sso_provider_id}, ${domain}, now(), now()
              where not exists (select 1 from auth.sso_domains where sso_provider_id = ${row.sso_provider_id} and lower(domain) = ${domain})`;
          }
        }
        await tx`update auth.sso_providers set updated_at = now() where id = ${row.sso_provider_id}`;
      });
    } catch (error) {
      if (/** @type {any} */ (error)?.code) return fail(422, 'conflict', 'Updating SSO provider failed, likely due to a conflict. Try again?');
      throw error;
    }
    const [fresh] = await sql`select * from auth.saml_providers where id = ${row.id}`;
    return json(200, await providerJson(fresh));
  }

  /** @param {Request} request @param {string} path */
  async function admin(request, path) {
    await requireAdmin(request);
    const method = request.method;
    if (path === '/admin/sso/providers') {
      if (method === 'GET') {
        const rows = await sql`select p.* from auth.saml_providers p join auth.sso_providers s on s.id = p.sso_provider_id order by s.created_at, s.id`;
        return json(200, { items: await Promise.all(rows.map((row) => providerJson(row, { withXml: false }))) });
      }
      if (method === 'POST') return createProvider(request);
      return fail(405, 'method_not_allowed', 'Method Not Allowed');
    }
    const id = decodeURIComponent(path.slice('/admin/sso/providers/'.length));
    const [row] = UUID_PATTERN.test(id) ? await sql`select * from auth.saml_providers where sso_provider_id = ${id}` : [];
    if (!row) return fail(404, 'sso_provider_not_found', 'SSO Identity Provider not found');
    if (method === 'GET') return json(200, await providerJson(row));
    if (method === 'PUT') return updateProvider(request, row);
    if (method === 'DELETE') {
      const answer = await providerJson(row);
      await sql`delete from auth.sso_providers where id = ${row.sso_provider_id}`;
      return json(200, answer);
    }
    return fail(405, 'method_not_allowed', 'Method Not Allowed');
  }

  return {
    /**
     * Answers the SAML routes (paths relative to /auth/v1), or null for any other path.
     * @param {Request} request @param {URL} url @param {string} path
     * @returns {Promise<Response | null>}
     */
    async route(request, url, path) {
      const method = request.method;
      try {
        if (path === '/sso/saml/metadata' && method === 'GET') return spMetadata(url);
        if (path === '/sso' && method === 'POST') return await singleSignOn(request);
        if (path === '/sso/saml/acs' && method === 'POST') return await assertionConsumer(request);
        if (path === '/admin/sso/providers' || /^\/admin\/sso\/providers\/[^/]+$/.test(path)) return await admin(request, path);
      } catch (error) {
        if (error instanceof SamlAdminError) return error.response;
        throw error;
      }
      return null;
    },
  };
}

/** An admin request refused with a prepared answer. */
class SamlAdminError extends Error {
  /** @param {Response} response */
  constructor(response) {
    super('refused');
    this.response = response;
  }
}
