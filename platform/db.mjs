// The database of the local platform: embedded PGlite served over the Postgres wire protocol
// (or the Postgres given by databaseUrl), brought up to date with the official Supabase CLI.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const bootstrapSql = fs.readFileSync(new URL('./bootstrap.sql', import.meta.url), 'utf8');

/**
 * @param {{ dataDir: string, port?: number, host?: string, databaseUrl?: string, log?: (msg: string) => void }} options
 * @returns {Promise<{ url: string, fresh: boolean, stop: () => Promise<void> }>}
 */
export async function startDatabase({ dataDir, port = 54322, host = '127.0.0.1', databaseUrl, log = () => {} }) {
  let url = databaseUrl;
  let closeEmbedded = async () => {};
  if (!url) {
    const embedded = await startEmbedded({ dataDir, port, host });
    url = embedded.url;
    closeEmbedded = embedded.stop;
  }
  try {
    const { fresh, applied } = await prepare(url);
    // A database that holds exactly the migrations of supabase/migrations (a copy of the run's
    // seeded one, a restart) needs no `supabase db push`, which costs seconds of CPU to say so.
    if (fresh || !sameVersions(applied, localMigrationVersions())) await pushMigrations(url, { seed: fresh, log });
    if (fresh && process.env.DEMO_ORGANISATIONS === '1') await seedOrganisations(url, log);
    return { url, fresh, stop: closeEmbedded };
  } catch (error) {
    await closeEmbedded();
    throw error;
  }
}

export async function startEmbedded({ dataDir, port, host }) {
  // Imported here so that a run on a real Postgres never loads the WebAssembly build.
  const { createPGlite } = await import('./pglite.mjs');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const pgdata = path.join(dataDir, 'pgdata');
  fs.mkdirSync(pgdata, { recursive: true });
  const db = await createPGlite(pgdata);
  const server = new PGLiteSocketServer({ db, host, port, maxConnections: 100 });
  serialiseBySession(server.queryQueue, db);
  await server.start();
  return {
    url: `postgresql://postgres:postgres@${host}:${port}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/**
 * Applies the bootstrap (idempotent); tells whether no migration has run yet, and the versions of
 * those that have.
 * @returns {Promise<{ fresh: boolean, applied: string[] }>}
 */
async function prepare(url) {
  const sql = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
  try {
    const [{ migrated }] = await sql`
      select to_regclass('supabase_migrations.schema_migrations') is not null as migrated`;
    const applied = migrated ? (await sql`select version from supabase_migrations.schema_migrations`).map((row) => String(row.version)) : [];
    await sql.unsafe(bootstrapSql);
    return { fresh: !migrated, applied };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The versions (the timestamp before the first '_') of the files in supabase/migrations. */
function localMigrationVersions() {
  return fs.readdirSync(path.join(repoRoot, 'supabase', 'migrations'))
    .filter((name) => /^\d+_.+\.sql$/.test(name))
    .map((name) => name.slice(0, name.indexOf('_')));
}

/** @param {string[]} a @param {string[]} b */
function sameVersions(a, b) {
  const set = new Set(a);
  return a.length === b.length && set.size === b.length && b.every((version) => set.has(version));
}

/**
 * `supabase db push`: applies only new migrations; the seed only on a fresh database.
 * --include-all also applies a migration dated before the newest applied one (work merged from
 * a branch), instead of refusing to start.
 */
export async function pushMigrations(url, { seed = false, log = () => {} } = {}) {
  const args = ['db', 'push', '--db-url', cliDatabaseUrl(url), '--yes', '--include-all'];
  if (seed) args.push('--include-seed');
  const bin = path.join(repoRoot, 'node_modules', '.bin', 'supabase');
  const output = await run(bin, args, { cwd: repoRoot });
  for (const line of output.split('\n')) {
    if (/^(Applying|Seeding)/.test(line.trim())) log(line.trim());
  }
}

/**
 * The demo organisations (supabase/seed-organisations.sql) on a fresh database, after seed.sql:
 * for `npm start` (scripts/start.mjs sets DEMO_ORGANISATIONS=1), not for the test runs, whose
 * function and browser tests count the people of seed.sql's single-organisation world.
 */
export async function seedOrganisations(url, log = () => {}) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(fs.readFileSync(path.join(repoRoot, 'supabase', 'seed-organisations.sql'), 'utf8'));
    log('Seeding the demo organisations (supabase/seed-organisations.sql)');
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * The Supabase CLI insists on TLS unless the URL says otherwise; PGlite and a local Postgres
 * speak plain TCP on the loopback, so a local URL without an sslmode gets sslmode=disable.
 */
export function cliDatabaseUrl(url) {
  const parsed = new URL(url);
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (local && !parsed.searchParams.has('sslmode')) parsed.searchParams.set('sslmode', 'disable');
  return parsed.toString();
}

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${path.basename(command)} ${args.slice(0, 2).join(' ')} failed (exit ${code}):\n${output}`));
    });
  });
}

/**
 * pglite-socket multiplexes every connection onto PGlite's single session, one protocol message
 * at a time. Messages of two connections must not interleave inside an extended-query batch
 * (Parse..Sync share the unnamed statement and portal) or inside a transaction (set local role
 * and request.jwt.claims would leak into the other connection). So a connection that starts a
 * batch owns the session until the backend is idle again after its Sync or simple Query.
 */
function serialiseBySession(queue, db) {
  const SYNC = 0x53; // 'S'
  const QUERY = 0x51; // 'Q'
  const TERMINATE = 0x58; // 'X'
  let owner = null;

  queue.processQueue = async function processQueue() {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const index = owner === null ? 0 : this.queue.findIndex((q) => q.handlerId === owner);
        if (index === -1) break; // the owner's next message has not arrived yet
        const [query] = this.queue.splice(index, 1);
        owner = query.handlerId;
        try {
          await db.runExclusive(() =>
            db.execProtocolRawStream(query.message, { onRawData: (data) => query.onData(data) }),
          );
        } catch (error) {
          owner = null;
          query.reject(error);
          continue;
        }
        const type = query.message[0];
        // A startup packet has no type byte (its first byte is the high byte of its length: 0).
        const batchEnds = type === SYNC || type === QUERY || type === TERMINATE || type === 0;
        if (batchEnds && !db.isInTransaction()) owner = null;
        query.resolve(0);
      }
    } finally {
      this.processing = false;
    }
  };

  queue.clearTransactionIfNeeded = async function clearTransactionIfNeeded(handlerId) {
    if (owner !== handlerId) return;
    if (db.isInTransaction()) await db.exec('rollback');
    owner = null;
    await this.processQueue();
  };
}
