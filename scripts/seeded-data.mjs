// The seeded database of a test run's platforms: what a first `npm start` makes on PGlite (the
// bootstrap, every migration and seed.sql, applied by the Supabase CLI), built once per run and
// copied into each new platform's scratch DATA_DIR, so that a platform starts without migrating
// and seeding again. The first start itself is proven by platform/db.test.mjs, which never copies.
import fs from 'node:fs';
import path from 'node:path';
import { startDatabase } from '../platform/db.mjs';
import { freePort } from '../platform/ports.mjs';

/** Where scripts/test.mjs tells its children the run's seeded data directory is. */
export const SEEDED_DATA_ENV = 'TEST_SEEDED_DATA_DIR';

/** Migrates and seeds a new PGlite database in dir, as a first `npm start` does, and closes it. */
export async function buildSeededData(dir) {
  const database = await startDatabase({ dataDir: dir, port: await freePort() });
  await database.stop();
  return dir;
}

/**
 * Gives a new embedded-database platform's dataDir a copy of the run's seeded database, when the
 * run has one and dataDir holds no database yet; a platform on DATABASE_URL is left alone.
 */
export function useSeededData(dataDir, { databaseUrl = '', from = process.env[SEEDED_DATA_ENV] } = {}) {
  const target = path.join(dataDir, 'pgdata');
  if (!from || databaseUrl || fs.existsSync(target)) return false;
  fs.cpSync(path.join(from, 'pgdata'), target, { recursive: true });
  return true;
}
