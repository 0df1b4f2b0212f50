// Scratch databases for comparing the two forms of the schema: one built from supabase/migrations
// (as a deployment builds it) and one from supabase/schemas (where a person reads and changes it),
// each on top of platform/bootstrap.sql. The Supabase CLI's pg-delta engine then says what differs.
// Used by `npm run db:diff` (scripts/db-diff.mjs) and the drift test (supabase/tests/schema-drift.test.ts).
//
// Where the databases live: on a Postgres server (two uniquely named databases, dropped afterwards),
// or, with no server, on two embedded PGlite instances served over the wire protocol on free ports
// (the same PGlite the local platform runs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { cliDatabaseUrl, startEmbedded } from '../platform/db.mjs';
import { freePort } from '../platform/ports.mjs';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const migrationsDir = path.join(repoRoot, 'supabase/migrations');
export const schemasDir = path.join(repoRoot, 'supabase/schemas');

const read = (file) => fs.readFileSync(file, 'utf8');

/** The migration files in the order Supabase applies them. */
export function migrationFiles() {
  return fs
    .readdirSync(migrationsDir)
    .filter((f) => /^\d{14}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
}

/** The schema files in the order config.toml's schema_paths glob gives them. */
export function schemaFiles() {
  return fs
    .readdirSync(schemasDir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

export const bootstrapSql = () => read(path.join(repoRoot, 'platform/bootstrap.sql'));
export const migrationScripts = () => migrationFiles().map((f) => read(path.join(migrationsDir, f)));
export const schemaScripts = () => schemaFiles().map((f) => read(path.join(schemasDir, f)));

/**
 * Builds the two scratch databases.
 * @param {{ serverUrl?: string | null, name?: string }} [options] serverUrl: a Postgres server to
 *   create the databases on (any database of it); none: embedded PGlite.
 * @returns {Promise<{ migrations: string, schemas: string, close: () => Promise<void> }>}
 */
export async function createScratchDatabases({ serverUrl = null, name = 'schema_diff' } = {}) {
  const plan = { migrations: [bootstrapSql(), ...migrationScripts()], schemas: [bootstrapSql(), ...schemaScripts()] };
  const made = serverUrl ? await onServer(serverUrl, name) : await onPglite();
  try {
    for (const kind of ['migrations', 'schemas']) {
      made.urls[kind] = await made.create(kind);
      await apply(made.urls[kind], plan[kind]);
    }
  } catch (error) {
    await made.close();
    throw error;
  }
  return { ...made.urls, close: made.close };
}

/**
 * Builds the two scratch databases, runs fn with their URLs and removes them again.
 * @template T
 * @param {(urls: { migrations: string, schemas: string }) => Promise<T>} fn
 * @param {{ serverUrl?: string | null, name?: string }} [options]
 * @returns {Promise<T>}
 */
export async function withScratchDatabases(fn, options) {
  const dbs = await createScratchDatabases(options);
  try {
    return await fn(dbs);
  } finally {
    await dbs.close();
  }
}

async function apply(url, scripts) {
  const sql = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
  try {
    for (const script of scripts) await sql.unsafe(script);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function onServer(serverUrl, name) {
  const suffix = `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const names = [];
  return {
    urls: {},
    async create(kind) {
      const db = `${name}_${kind}_${suffix}`;
      await admin.unsafe(`create database ${db}`);
      names.push(db);
      const url = new URL(serverUrl);
      url.pathname = `/${db}`;
      return url.toString();
    },
    async close() {
      for (const db of names) await admin.unsafe(`drop database if exists ${db} with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

async function onPglite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-diff-'));
  const servers = [];
  return {
    urls: {},
    async create(kind) {
      const server = await startEmbedded({ dataDir: path.join(dir, kind), port: await freePort(), host: '127.0.0.1' });
      servers.push(server);
      return server.url;
    },
    async close() {
      for (const server of servers) await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The SQL that turns the database at `from` into the one at `to`, by the Supabase CLI's pg-delta
 * engine; '' when they do not differ. Asynchronous on purpose: an embedded PGlite answers the CLI
 * from this very process.
 */
export async function pgDelta(from, to) {
  const bin = path.join(repoRoot, 'node_modules', '.bin', 'supabase');
  const args = ['db', 'diff', '--use-pg-delta', '--from', cliDatabaseUrl(from), '--to', cliDatabaseUrl(to)];
  const { code, stdout, stderr } = await new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
  });
  if (code !== 0) throw new Error(`supabase db diff failed (exit ${code}):\n${stderr}${stdout}`);
  return [withoutStatisticsNotice(stdout).trim(), await statisticsDiff(from, to)].filter(Boolean).join('\n\n');
}

/**
 * pg-delta leaves extended statistics out and says so in a boxed notice on stdout (lines starting
 * with │, ▲ or ●), which is not SQL: the notice goes when statistics are the only kind it names
 * (any other kind keeps it, so that the drift check fails rather than miss it).
 */
function withoutStatisticsNotice(output) {
  if (!/pg-delta does not manage these PostgreSQL object kinds: statistics object\./.test(output)) return output;
  return output.split('\n').filter((line) => !/^[│▲●]/.test(line)).join('\n');
}

/** The extended statistics that differ from `from` to `to`, as the SQL that makes `from` like `to`. */
async function statisticsDiff(from, to) {
  const definitions = async (url) => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      // An empty search path (one connection): the definitions name their tables with the schema.
      await sql`set search_path = ''`;
      const rows = await sql`
        select n.nspname || '.' || s.stxname as name, pg_get_statisticsobjdef(s.oid) as definition
        from pg_statistic_ext s join pg_namespace n on n.oid = s.stxnamespace
        where n.nspname in ('public', 'private') order by 1`;
      return new Map(rows.map((row) => [row.name, row.definition]));
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
  const [before, after] = await Promise.all([definitions(from), definitions(to)]);
  const changes = [];
  for (const [name, definition] of before) if (after.get(name) !== definition) changes.push(`DROP STATISTICS ${name};`);
  for (const [name, definition] of after) if (before.get(name) !== definition) changes.push(`${definition};`);
  return changes.join('\n');
}

/** A Postgres server to use: TEST_DATABASE_URL's or DATABASE_URL's, else the local one if it answers; null for none. */
export async function findServer(env = process.env) {
  const given = env.TEST_DATABASE_URL || env.DATABASE_URL;
  if (given) return given;
  const local = 'postgresql://postgres@127.0.0.1:5432/postgres';
  const sql = postgres(local, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return local;
  } catch {
    return null;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}
