// The Docker-free stand-in for the Supabase platform: database, Auth, Storage, the api function
// and the web app behind one port, as `supabase start` would serve them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startDatabase } from './db.mjs';
import { loadKeys } from './keys.mjs';
import { createAuth, authSettingsFromConfig } from './auth.mjs';
import { createMailbox, startMailServer, startSmtpCatcher } from './mail.mjs';
import { DEFAULT_FROM, createMailer, smtpFromEnv } from './mailer.mjs';
import { createStorage } from './storage.mjs';
import { startContentServer, startGateway } from './gateway.mjs';
import { startFunctions } from './functions.mjs';
import { buildWeb } from './web.mjs';
import { createPageRenderer } from './page-render.mjs';
import { freePort } from './ports.mjs';
import { DEFAULT_IDP_PORT, NORTHSHIRE, startIdp } from './idp/oidc.mjs';
import { switchOnDemoSamlSignIn } from './demo-sign-in.mjs';
import { DEFAULT_SAML_IDP_PORT, startSamlIdp } from './idp/saml.mjs';
import { deliverThrough, schedulerSeconds, startNotificationScheduler } from './scheduler.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The SCORM player's launcher page and its scripts, its offline page and the offline SW's template
 * (served built, with the key baked in), as `_player/<name>` on the content origin.
 */
export const SCORM_PLAYER_FILES = {
  'launcher.html': path.join(repoRoot, 'web', 'scorm-player', 'launcher.html'),
  'launcher.js': path.join(repoRoot, 'web', 'scorm-player', 'launcher.js'),
  'offline.html': path.join(repoRoot, 'web', 'scorm-player', 'offline.html'),
  'offline.js': path.join(repoRoot, 'web', 'scorm-player', 'offline.js'),
  'offline-sw.js': path.join(repoRoot, 'web', 'scorm-player', 'offline-sw.js'),
  'scorm12.min.js': path.join(repoRoot, 'node_modules', 'scorm-again', 'dist', 'scorm12.min.js'),
  'scorm2004.min.js': path.join(repoRoot, 'node_modules', 'scorm-again', 'dist', 'scorm2004.min.js'),
};

/**
 * @param {{ dataDir?: string, host?: string, port?: number, dbPort?: number, contentPort?: number, mailPort?: number, smtpPort?: number,
 *   databaseUrl?: string, web?: boolean, notificationsEverySeconds?: number, env?: Record<string, string | undefined>,
 *   idp?: boolean, idpPort?: number, samlIdpPort?: number, log?: (msg: string) => void }} [options]
 * notificationsEverySeconds: run private.decide_notifications(now()) this often (0 or absent: never).
 * idp: also run the local identity provider (Northshire Police, platform/idp/) for `[auth.external.azure]`,
 *   on idpPort (54330 beside the default ports, else a free one); without it that sign-in is switched off.
 *   It also runs the local SAML identity provider (Southshire Ambulance Service, platform/idp/saml.mjs) on
 *   samlIdpPort (54331, else a free one), which knows the local Auth as its application; an administrator
 *   registers it with Auth (POST /auth/v1/admin/sso/providers, its metadata URL) when wanted.
 * env: where SMTP_HOST/SMTP_PORT (another SMTP server instead of the catcher), SMTP_FROM, SMTP_USER,
 *   SMTP_PASS, SMTP_SECURE and SITE_URL are read (default process.env).
 */
export async function startPlatform(options = {}) {
  const {
    dataDir = path.join(repoRoot, '.data'),
    host = '127.0.0.1',
    databaseUrl = undefined,
    web = true,
    env = process.env,
    log = (msg) => console.log(msg),
  } = options;
  fs.mkdirSync(dataDir, { recursive: true });
  const port = options.port === 0 ? await freePort(0, host) : (options.port ?? 54321);
  const dbPort = options.dbPort === 0 ? await freePort(0, host) : (options.dbPort ?? 54322);
  // SCORM content gets its own origin (a second port): untrusted, it must not share the app's.
  // 54329 beside the default ports; a free one when the gateway's port was chosen (tests, restarts).
  const contentPort = options.contentPort !== undefined && options.contentPort !== 0
    ? options.contentPort
    : port === 54321 && options.contentPort === undefined ? 54329 : await freePort(0, host);
  const publicUrl = `http://${host}:${port}`;
  const contentOrigin = `http://${host}:${contentPort}`;
  const contentUrl = `${contentOrigin}/storage/v1/object/public/scorm-content`;
  // Where links in emails lead (GoTrue's site_url): the web app, served by the gateway unless SITE_URL says otherwise.
  const siteUrl = env.SITE_URL || publicUrl;
  const stops = [];
  const stop = async () => {
    for (const fn of stops.splice(0).reverse()) {
      try {
        await fn();
      } catch (error) {
        log(`stop: ${error.message}`);
      }
    }
  };

  try {
    const database = await startDatabase({ dataDir, port: dbPort, host, databaseUrl, log });
    stops.push(database.stop);
    const sql = postgres(database.url, { prepare: false, max: 10, onnotice: () => {} });
    stops.push(() => sql.end({ timeout: 5 }));

    const keys = await loadKeys(dataDir);

    // The mail catcher, as `supabase start` runs Mailpit (SMTP 54325, page and API 54324). Auth and
    // the function send over SMTP to it, or to the server SMTP_HOST/SMTP_PORT name.
    const free = options.port === 0;
    const mailbox = createMailbox();
    // It takes mail from anyone who connects, so it listens on loopback only, whatever host is.
    const catcher = await startSmtpCatcher({ mailbox, host: '127.0.0.1', port: free ? 0 : (options.smtpPort ?? 54325), log });
    stops.push(catcher.stop);
    const mail = await startMailServer({ mailbox, host, port: free ? 0 : (options.mailPort ?? 54324), smtp: `${catcher.host}:${catcher.port}` });
    stops.push(mail.stop);
    const smtp = smtpFromEnv(env) ?? { host: catcher.host, port: catcher.port, from: env.SMTP_FROM || DEFAULT_FROM, secure: false, user: undefined, pass: undefined };
    const mailer = createMailer(smtp);
    stops.push(() => mailer.close());

    const [functions, webBuild] = await Promise.all([
      startFunctions({
        supabaseUrl: publicUrl,
        anonKey: keys.anonKey,
        serviceRoleKey: keys.serviceRoleKey,
        dbUrl: database.url,
        tmpDir: path.join(dataDir, 'function-tmp'),
        preparedStatements: Boolean(databaseUrl),
        // A contract with the function's email delivery (docs/ARCHITECTURE.md). SMTP_USER, SMTP_PASS
        // and SMTP_SECURE only for a hosted server (undefined leaves them out of the child's environment).
        env: {
          SMTP_HOST: smtp.host,
          SMTP_PORT: String(smtp.port),
          SMTP_FROM: smtp.from,
          SMTP_USER: smtp.user,
          SMTP_PASS: smtp.pass,
          SMTP_SECURE: smtp.secure ? 'true' : undefined,
          SITE_URL: siteUrl,
          // Where the SCORM player loads packages from (hosted: the content host's URL of the bucket).
          SCORM_CONTENT_URL: contentUrl,
          // Signs the manifests of SCORM packages kept offline (the content origin holds the public key).
          SCORM_OFFLINE_SIGNING_KEY: JSON.stringify(keys.scormOffline.privateJwk),
        },
      }),
      web ? buildWeb({ dataDir, anonKey: keys.anonKey, log }) : Promise.resolve(null),
    ]);
    stops.push(functions.stop);

    // The azure secret is `env(...)` in config.toml, as the CLI wants; locally it is the local provider's.
    const authSettings = authSettingsFromConfig(fs.readFileSync(path.join(repoRoot, 'supabase', 'config.toml'), 'utf8'), {
      ...env,
      SUPABASE_AUTH_EXTERNAL_AZURE_SECRET: env.SUPABASE_AUTH_EXTERNAL_AZURE_SECRET || NORTHSHIRE.client.client_secret,
    });
    const azure = authSettings.external.azure;
    const azureIsLocal = /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(azure.url);
    let idp = null;
    let samlIdp = null;
    if (options.idp) {
      const idpPort = options.idpPort !== undefined && options.idpPort !== 0
        ? options.idpPort
        : port === 54321 && options.idpPort === undefined ? DEFAULT_IDP_PORT : await freePort(0, '127.0.0.1');
      // Loopback only: it signs anyone in with the demo password.
      idp = await startIdp({ host: '127.0.0.1', port: idpPort, redirectUris: [`${publicUrl}/auth/v1/callback`], log });
      stops.push(idp.stop);
      if (azureIsLocal) authSettings.external.azure = { ...azure, url: idp.url };
      const samlIdpPort = options.samlIdpPort !== undefined && options.samlIdpPort !== 0
        ? options.samlIdpPort
        : port === 54321 && options.samlIdpPort === undefined ? DEFAULT_SAML_IDP_PORT : await freePort(0, '127.0.0.1');
      samlIdp = await startSamlIdp({
        host: '127.0.0.1',
        port: samlIdpPort,
        // Its signing certificate outlives a restart, as a real IdP's does (Auth keeps the metadata).
        keyFile: path.join(dataDir, 'saml-idp-key.json'),
        serviceProviders: [{ entityId: `${publicUrl}/auth/v1/sso/saml/metadata`, acsUrl: `${publicUrl}/auth/v1/sso/saml/acs` }],
        log,
      });
      stops.push(samlIdp.stop);
    } else if (azureIsLocal) {
      // No local identity provider to send anyone to: its sign-in is switched off (settings say so).
      authSettings.external.azure = { ...azure, enabled: false };
    }
    const storage = createStorage({ sql, keys, dataDir, publicUrl });
    const content = await startContentServer({ host, port: contentPort, storage, appOrigin: new URL(siteUrl).origin, playerFiles: SCORM_PLAYER_FILES, offlinePublicKey: keys.scormOffline?.publicJwk });
    stops.push(content.stop);
    const gateway = await startGateway({
      host,
      port,
      auth: createAuth({ sql, keys, publicUrl, siteUrl, mailer, ...authSettings }),
      storage,
      contentOrigin,
      functionsUrl: functions.url,
      webDir: webBuild?.dir ?? null,
      // A course page answered with its content (platform/page-render.mjs).
      pageRenderer: webBuild ? await createPageRenderer({ webDir: webBuild.dir, functionsUrl: functions.url, anonKey: keys.anonKey }) : null,
      // Auth and Storage refuse a request without one of the project's keys, as hosted Supabase does.
      apiKeys: [keys.anonKey, keys.serviceRoleKey],
    });
    stops.push(gateway.stop);
    if (database.fresh && samlIdp && process.env.DEMO_ORGANISATIONS === '1') {
      await switchOnDemoSamlSignIn({ publicUrl, anonKey: keys.anonKey, metadataUrl: `${samlIdp.url}/metadata`, sql, log });
    }

    // Notifications: the schedule pg_cron runs on hosted Supabase.
    const deliverUrl = `${publicUrl}/functions/v1/api/notifications/deliver`;
    const notifications = startNotificationScheduler({
      sql,
      everySeconds: options.notificationsEverySeconds ?? 0,
      log,
      deliver: () => deliverThrough({ url: deliverUrl, serviceRoleKey: keys.serviceRoleKey }),
    });
    stops.push(notifications.stop);

    return {
      url: publicUrl,
      dbUrl: database.url,
      fresh: database.fresh,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      mailUrl: mail.url,
      contentUrl,
      smtpPort: catcher.port,
      smtpUrl: catcher.url,
      // The local identity provider's issuer (null when not started).
      idpUrl: idp?.issuer ?? null,
      // The local SAML identity provider's base URL (its metadata at <samlIdpUrl>/metadata; null when not started).
      samlIdpUrl: samlIdp?.url ?? null,
      decideNotifications: notifications.runOnce,
      // Sends the queued emails now, as the schedule does after each decision.
      deliverNotifications: notifications.deliverOnce,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export const demoAccounts = [
  { username: 'admin', password: 'password123', role: 'ADMIN' },
  { username: 'instructor', password: 'password123', role: 'INSTRUCTOR' },
  { username: 'student', password: 'password123', role: 'STUDENT' },
];

/** Runs the platform until Ctrl-C; used by `npm start`, `npm run dev` and the tests. */
export async function main(argv = process.argv.slice(2)) {
  const started = Date.now();
  const platform = await startPlatform({
    dataDir: process.env.DATA_DIR ? path.resolve(process.env.DATA_DIR) : undefined,
    port: process.env.PORT !== undefined ? Number(process.env.PORT) : undefined,
    dbPort: process.env.DB_PORT !== undefined ? Number(process.env.DB_PORT) : undefined,
    contentPort: process.env.CONTENT_PORT !== undefined ? Number(process.env.CONTENT_PORT) : undefined,
    databaseUrl: process.env.DATABASE_URL || undefined,
    web: !argv.includes('--no-web'),
    notificationsEverySeconds: schedulerSeconds(process.env),
    // The identity provider runs with `npm start` and `npm run dev` (the default ports); a platform
    // on another port (the tests') starts it only when OIDC_IDP=1 asks.
    idp: process.env.OIDC_IDP !== undefined ? process.env.OIDC_IDP === '1' : (process.env.PORT ?? '54321') === '54321',
    idpPort: process.env.OIDC_IDP_PORT !== undefined ? Number(process.env.OIDC_IDP_PORT) : undefined,
    samlIdpPort: process.env.SAML_IDP_PORT !== undefined ? Number(process.env.SAML_IDP_PORT) : undefined,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    [
      '',
      `Emergency Services Learning is running (ready in ${seconds} s${platform.fresh ? ', new database seeded' : ''}).`,
      '',
      `  App:             ${platform.url}`,
      `  API:             ${platform.url}/functions/v1/api`,
      `  Database:        ${platform.dbUrl}`,
      `  Mail catcher:    ${platform.mailUrl} (SMTP ${platform.smtpUrl})`,
      `  SCORM content:   ${platform.contentUrl}`,
      ...(platform.idpUrl ? [`  Identity provider: ${platform.idpUrl} (Northshire Police; demo people: docs/ARCHITECTURE.md)`] : []),
      ...(platform.samlIdpUrl ? [`  SAML identity provider: ${platform.samlIdpUrl} (Southshire Ambulance Service; metadata ${platform.samlIdpUrl}/metadata)`] : []),
      `  Anon key:        ${platform.anonKey}`,
      `  Service role key: ${platform.serviceRoleKey}`,
      '',
      '  Demo accounts (password password123): admin, instructor, student',
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  // A machine-readable line for scripts that start the platform as a child process.
  console.log(`PLATFORM_READY ${JSON.stringify({ url: platform.url, dbUrl: platform.dbUrl, anonKey: platform.anonKey, serviceRoleKey: platform.serviceRoleKey, mailUrl: platform.mailUrl, contentUrl: platform.contentUrl, idpUrl: platform.idpUrl, samlIdpUrl: platform.samlIdpUrl, smtpPort: platform.smtpPort, smtpUrl: platform.smtpUrl })}`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping...');
    await platform.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  return platform;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
