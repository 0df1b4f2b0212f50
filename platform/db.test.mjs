// The local database: migrated by the Supabase CLI, seeded once, kept across restarts, and safe
// under concurrent connections multiplexed onto PGlite's single session.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { startDatabase } from './db.mjs';
import { freePort } from './ports.mjs';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esl-db-test-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function withDatabase(fn) {
  const db = await startDatabase({ dataDir, port: await freePort() });
  const sql = postgres(db.url, { prepare: false, max: 10, onnotice: () => {} });
  try {
    return await fn(sql, db);
  } finally {
    await sql.end({ timeout: 5 });
    await db.stop();
  }
}

describe('local database', () => {
  it('creates, migrates and seeds a new database', async () => {
    await withDatabase(async (sql, db) => {
      expect(db.fresh).toBe(true);
      const migrations = await sql`select version from supabase_migrations.schema_migrations`;
      const files = fs.readdirSync('supabase/migrations').filter((f) => f.endsWith('.sql'));
      expect(migrations.length).toBe(files.length);
      const [{ count }] = await sql`select count(*)::int as count from auth.users where email like '%@example.uk'`;
      expect(count).toBeGreaterThanOrEqual(3);
      await sql`update public.settings set footer_text = 'kept across restarts'`;
    });
  });

  it('keeps data across a restart, applies no migration twice and never re-seeds', async () => {
    await withDatabase(async (sql, db) => {
      expect(db.fresh).toBe(false);
      const [{ footer }] = await sql`select footer_text as footer from public.settings`;
      expect(footer).toBe('kept across restarts');
      const [{ users }] = await sql`select count(*)::int as users from auth.users where email like '%@example.uk'`;
      const [{ profiles }] = await sql`select count(*)::int as profiles from public.profiles`;
      expect(profiles).toBe(users);
    });
  });

  it('keeps each transaction on its own connection under concurrency', async () => {
    await withDatabase(async (sql) => {
      const ids = Array.from({ length: 60 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
      const seen = await Promise.all(
        ids.map((id) =>
          sql.begin(async (tx) => {
            await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: id, role: 'authenticated' })}, true)`;
            await tx`set local role authenticated`;
            await tx`select pg_sleep(0.001)`;
            const [{ uid, role }] = await tx`select auth.uid()::text as uid, current_user as role`;
            return `${uid}/${role}`;
          }),
        ),
      );
      expect(seen).toEqual(ids.map((id) => `${id}/authenticated`));
      const [{ role }] = await sql`select current_user as role`;
      expect(role).toBe('postgres');
    });
  });
});
