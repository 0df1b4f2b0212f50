// A local SAML 2.0 identity provider standing in for an organisation's Microsoft Entra ID
// enterprise application: samlify (a SAML library) as the IdP of one tenant, Southshire Ambulance
// Service NHS Trust, whose demo people are in southshire-ambulance.json. Its attributes are named
// as Entra ID sends them (the ws/2005/05 claim URIs, displayname, and the custom claims department,
// manager and employeeid), with a persistent NameID per person.
//   entity id  <origin>/<tenant-id>/          (Entra's is https://sts.windows.net/<tenant-id>/)
//   metadata   <origin>/<tenant-id>/metadata  (signing certificate, SSO endpoints)
//   SSO        <origin>/<tenant-id>/saml2     (AuthnRequests by HTTP-Redirect or HTTP-POST)
// Only the service providers it is given (entity id and ACS URL) are served; the Response is signed
// (assertion and message, RSA-SHA256) with a key made at start, and posted to the ACS by the browser.
import http from 'node:http';
import fs from 'node:fs';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import forge from 'node-forge';
import samlify from 'samlify';
import * as xmllint from '@authenio/samlify-xmllint-wasm';
import { freePort } from '../ports.mjs';
import { credentialFields, escapeHtml, page, readForm, sameSecret, send } from './pages.mjs';

/** The Southshire Ambulance Service tenant: its id, email domain, demo people and their password. */
export const SOUTHSHIRE = JSON.parse(readFileSync(new URL('./southshire-ambulance.json', import.meta.url), 'utf8'));
export const DEFAULT_SAML_IDP_PORT = 54331;

const BINDING = samlify.Constants.namespace.binding;
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
/** Entra ID's attribute names (its default claims of an enterprise application, and custom ones). */
export const ENTRA_CLAIMS = {
  emailaddress: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  displayname: 'http://schemas.microsoft.com/identity/claims/displayname',
  givenname: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  surname: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
  department: 'department',
  manager: 'manager',
  employeeid: 'employeeid',
};
/** How long the sign-in page stays usable, and how long a Response may be presented (Entra: 5 minutes' NotOnOrAfter). */
const LOGIN_TTL_MS = 10 * 60_000;
const RESPONSE_TTL_MS = 5 * 60_000;

// Every AuthnRequest is checked against the SAML schemas (xmllint compiled to WebAssembly, in a worker).
samlify.setSchemaValidator(xmllint);

/**
 * The demo people with their email and SAML attributes (values as Entra ID sends them).
 * @param {typeof SOUTHSHIRE} [directory]
 */
export function samlPeople(directory = SOUTHSHIRE) {
  const emailOf = (/** @type {string} */ username) => `${username}@${directory.emailDomain}`;
  return directory.people.map((/** @type {any} */ person) => {
    /** @type {Record<string, string>} */
    const attributes = {
      [ENTRA_CLAIMS.emailaddress]: emailOf(person.username),
      [ENTRA_CLAIMS.displayname]: person.displayname,
      [ENTRA_CLAIMS.givenname]: person.givenname,
      [ENTRA_CLAIMS.surname]: person.surname,
      [ENTRA_CLAIMS.department]: person.department,
      [ENTRA_CLAIMS.employeeid]: person.employeeid,
    };
    if (person.manager) attributes[ENTRA_CLAIMS.manager] = emailOf(person.manager);
    return { ...person, email: emailOf(person.username), attributes };
  });
}

/**
 * An RSA key and a self-signed certificate for it (as Entra ID's own SAML signing certificate),
 * kept in keyFile when one is given, so that a restarted IdP signs as before (as a real one does).
 * @param {string} commonName @param {string} [keyFile]
 */
function signingKey(commonName, keyFile) {
  if (keyFile && fs.existsSync(keyFile)) return JSON.parse(fs.readFileSync(keyFile, 'utf8'));
  const made = newSigningKey(commonName);
  if (keyFile) fs.writeFileSync(keyFile, JSON.stringify(made), { mode: 0o600 });
  return made;
}

function newSigningKey(/** @type {string} */ commonName) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 3 * 365 * 86400_000);
  const subject = [{ name: 'commonName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(/** @type {any} */ (forge.pki.privateKeyFromPem(privatePem)), forge.md.sha256.create());
  return { privateKey: privatePem, certificate: forge.pki.certificateToPem(cert) };
}

/** The Response: samlify's template with an AuthnStatement and the person's AttributeStatement. */
const RESPONSE_TEMPLATE = samlify.SamlLib.defaultLoginResponseTemplate.context.replace(
  '{AuthnStatement}',
  '<saml:AuthnStatement AuthnInstant="{IssueInstant}" SessionIndex="{AssertionID}"><saml:AuthnContext>'
    + '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>'
    + '</saml:AuthnContext></saml:AuthnStatement>',
);

/**
 * @typedef {object} SamlServiceProvider an application registered with the IdP
 * @property {string} entityId its entity id (the local Auth's: <publicUrl>/auth/v1/sso/saml/metadata)
 * @property {string} acsUrl its Assertion Consumer Service (the local Auth's: <publicUrl>/auth/v1/sso/saml/acs)
 */

/**
 * Starts the SAML identity provider.
 * @param {{ host?: string, port?: number, serviceProviders?: SamlServiceProvider[], entityId?: string,
 *   directory?: typeof SOUTHSHIRE, keyFile?: string, log?: (msg: string) => void }} [options]
 *   entityId: another entity id than its own (the tests' impostor IdP, with a key of its own)
 *   keyFile: where its signing key and certificate are kept across restarts (none: a new one each start)
 */
export async function startSamlIdp(options = {}) {
  const { host = '127.0.0.1', directory = SOUTHSHIRE, serviceProviders = [], log = () => {} } = options;
  const port = options.port === 0 ? await freePort(0, host) : (options.port ?? DEFAULT_SAML_IDP_PORT);
  const origin = `http://${host}:${port}`;
  const tenant = `/${directory.tenantId}`;
  const base = `${origin}${tenant}`;
  const entityId = options.entityId ?? `${base}/`;
  const people = samlPeople(directory);
  const { privateKey, certificate } = signingKey(directory.name, options.keyFile);

  const idp = samlify.IdentityProvider({
    entityID: entityId,
    privateKey,
    signingCert: certificate,
    nameIDFormat: [PERSISTENT],
    wantAuthnRequestsSigned: false,
    singleSignOnService: [
      { Binding: BINDING.redirect, Location: `${base}/saml2` },
      { Binding: BINDING.post, Location: `${base}/saml2` },
    ],
    // The applications here offer no sign-out through the IdP; the endpoint only says so (metadata names one).
    singleLogoutService: [{ Binding: BINDING.redirect, Location: `${base}/logout` }],
  });
  // Entra ID's metadata tells relying parties to fetch it again; five minutes keeps a restarted IdP's
  // new certificate from being refused for long (Supabase Auth refreshes stale metadata at sign-in).
  const metadata = idp.getMetadata().replace(/^(\s*<(?:\w+:)?EntityDescriptor\b)/, '$1 cacheDuration="PT5M"');

  /** The applications it signs in to, by entity id (each wants signed assertions and messages). */
  const applications = new Map(serviceProviders.map((sp) => [sp.entityId, {
    ...sp,
    entity: samlify.ServiceProvider({
      entityID: sp.entityId,
      assertionConsumerService: [{ Binding: BINDING.post, Location: sp.acsUrl }],
      wantAssertionsSigned: true,
      wantMessageSigned: true,
    }),
  }]));
  /** Sign-ins waiting for the person's password, by a random id carried in the form. @type {Map<string, any>} */
  const pending = new Map();

  /**
   * A signed Response for a person and an application, base64 as the HTTP-POST binding carries it.
   * @param {{ entityId: string, acsUrl: string, entity: any }} app
   * @param {ReturnType<typeof samlPeople>[number]} person
   * @param {string} inResponseTo the AuthnRequest's ID
   */
  async function signedResponse(app, person, inResponseTo) {
    const now = new Date();
    const later = new Date(now.getTime() + RESPONSE_TTL_MS).toISOString();
    const attributes = Object.keys(person.attributes).map((name, i) => ({
      name, valueTag: `v${i}`, nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri', valueXsiType: 'xs:string',
    }));
    const statement = samlify.SamlLib.attributeStatementBuilder(attributes);
    // attributeStatementBuilder names each value's tag "attr" + its camel-cased valueTag: filled in order.
    const tags = [...statement.matchAll(/\{(attr[^}]*)\}/g)].map((m) => m[1]);
    /** @type {Record<string, string>} */
    const values = {
      ID: `_${randomUUID()}`,
      AssertionID: `_${randomUUID()}`,
      Destination: app.acsUrl,
      Audience: app.entityId,
      SubjectRecipient: app.acsUrl,
      Issuer: entityId,
      IssueInstant: now.toISOString(),
      StatusCode: samlify.Constants.StatusCode.Success,
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later,
      SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: PERSISTENT,
      NameID: person.nameId,
      InResponseTo: inResponseTo,
    };
    Object.values(person.attributes).forEach((value, i) => { values[tags[i]] = value; });
    const { context } = await idp.createLoginResponse(app.entity, { extract: { request: { id: inResponseTo } } }, 'post', {}, {
      customTagReplacement: () => ({
        id: values.ID,
        context: samlify.SamlLib.replaceTagsByValue(RESPONSE_TEMPLATE.replace('{AttributeStatement}', statement), values),
      }),
    });
    return context;
  }

  /** @param {import('node:http').ServerResponse} res @param {string} loginId @param {string} [problem] @param {string} [username] */
  function loginPage(res, loginId, problem = '', username = '') {
    const login = pending.get(loginId);
    send(res, problem ? 401 : 200, page(directory.name, `Sign in to ${directory.name}`, `
      <p>${escapeHtml(login?.app.entityId ?? 'An application')} asks you to sign in with your ${escapeHtml(directory.name)} account.</p>
      ${problem ? `<p class="problem" role="alert" id="problem">${escapeHtml(problem)}</p>` : ''}
      <form method="post" action="${tenant}/login" autocomplete="on">
        <input type="hidden" name="login" value="${escapeHtml(loginId)}">
        ${credentialFields(username, problem)}
      </form>
      <p class="note">Local SAML identity provider standing in for Microsoft Entra ID. Demo accounts only.</p>`));
  }

  /** An AuthnRequest (either binding): checked, its application found, and the sign-in page shown. */
  async function singleSignOn(/** @type {import('node:http').IncomingMessage} */ req, /** @type {import('node:http').ServerResponse} */ res) {
    const url = new URL(req.url ?? '/', origin);
    const post = req.method === 'POST';
    const fields = post ? await readForm(req, 65_536) : url.searchParams;
    const samlRequest = fields.get('SAMLRequest');
    if (!samlRequest) throw Object.assign(new Error('No SAMLRequest'), { statusCode: 400 });
    const anyApp = applications.values().next().value;
    if (!anyApp) throw Object.assign(new Error('No application registered'), { statusCode: 403 });
    // The request is unsigned (as Entra ID accepts): any registered entity parses it; the issuer picks the application.
    const parsed = await idp.parseLoginRequest(anyApp.entity, post ? 'post' : 'redirect', post
      ? { body: Object.fromEntries(fields) }
      : { query: Object.fromEntries(fields), octetString: '' });
    const extract = parsed.extract ?? {};
    const app = applications.get(String(extract.issuer ?? ''));
    const acs = extract.request?.assertionConsumerServiceUrl;
    if (!app || (acs && acs !== app.acsUrl)) {
      log(`[saml-idp] refused an AuthnRequest from an unregistered application: ${String(extract.issuer ?? '(none)')}`);
      return send(res, 403, page(directory.name, 'Application not registered', `
        <p role="alert">This application is not registered with ${escapeHtml(directory.name)}, so you cannot sign in to it here.</p>`));
    }
    const requestId = String(extract.request?.id ?? '');
    if (!/^[A-Za-z_][\w.-]{0,255}$/.test(requestId)) throw Object.assign(new Error('Bad request ID'), { statusCode: 400 });
    for (const [id, login] of pending) if (login.expires < Date.now()) pending.delete(id);
    const loginId = randomBytes(24).toString('base64url');
    pending.set(loginId, { app, requestId, relayState: fields.get('RelayState') ?? '', expires: Date.now() + LOGIN_TTL_MS });
    loginPage(res, loginId);
  }

  /** The form: the password checked, then the signed Response posted to the application by the browser. */
  async function login(/** @type {import('node:http').IncomingMessage} */ req, /** @type {import('node:http').ServerResponse} */ res) {
    const form = await readForm(req, 65_536);
    const loginId = form.get('login') ?? '';
    const waiting = pending.get(loginId);
    if (!waiting || waiting.expires < Date.now()) {
      pending.delete(loginId);
      return send(res, 400, page(directory.name, 'Sign-in problem', '<p role="alert">This sign-in has expired. Go back to the application and start again.</p>'));
    }
    const username = (form.get('username') ?? '').trim().toLowerCase();
    const person = people.find((p) => p.username === username || p.email === username);
    // The password is checked even for an unknown name, so both answers take the same time.
    const passwordOk = sameSecret(form.get('password') ?? '', directory.password);
    if (!person || !passwordOk) return loginPage(res, loginId, 'The email or username and password do not match an account.', username);
    pending.delete(loginId);
    log(`[saml-idp] ${person.email} signed in to ${waiting.app.entityId}`);
    const samlResponse = await signedResponse(waiting.app, person, waiting.requestId);
    const nonce = randomBytes(16).toString('base64');
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; form-action ${new URL(waiting.app.acsUrl).origin}; frame-ancestors 'none'`,
    });
    res.end(page(directory.name, 'Signing you in', `
      <p>Signing you in to the application…</p>
      <form method="post" action="${escapeHtml(waiting.app.acsUrl)}" id="saml-response">
        <input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">
        <input type="hidden" name="RelayState" value="${escapeHtml(waiting.relayState)}">
        <noscript><button type="submit">Continue</button></noscript>
      </form>
      <script nonce="${nonce}">document.getElementById('saml-response').submit();</script>`));
  }

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handled = (async () => {
      if (path === `${tenant}/metadata` && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(metadata);
      }
      if (path === `${tenant}/saml2` && (req.method === 'GET' || req.method === 'POST')) return singleSignOn(req, res);
      if (path === `${tenant}/login` && req.method === 'POST') return login(req, res);
      if (path === `${tenant}/logout`) return send(res, 200, page(directory.name, 'Signed out', '<p>You can close this page.</p>'));
      send(res, 404, page(directory.name, 'Not found', '<p>There is nothing here.</p>'));
    })();
    handled.catch((error) => {
      const status = Number.isInteger(error?.statusCode) ? error.statusCode : 400;
      // samlify's refusals (a malformed or schema-invalid request) are the sender's fault.
      if (!Number.isInteger(error?.statusCode) && !/^ERR_|invalid|xml/i.test(String(error?.message ?? error))) console.error('[saml-idp]', error);
      if (!res.headersSent) send(res, status, page(directory.name, 'Sign-in problem', '<p role="alert">This sign-in request is not valid. Go back to the application and start again.</p>'));
      else res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });

  return {
    /** The tenant's base URL. */
    url: base,
    metadataUrl: `${base}/metadata`,
    ssoUrl: `${base}/saml2`,
    entityId,
    certificate,
    /**
     * A signed Response as the IdP makes them, for a registered application (the tests' way to a
     * Response outside a browser sign-in).
     * @param {{ spEntityId: string, username: string, inResponseTo: string }} input
     */
    async responseFor({ spEntityId, username, inResponseTo }) {
      const app = applications.get(spEntityId);
      const person = people.find((p) => p.username === username);
      if (!app || !person) throw new Error('unknown application or person');
      return signedResponse(app, person, inResponseTo);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
