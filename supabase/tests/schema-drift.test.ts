// supabase/schemas (where the schema is read and changed) and supabase/migrations (what a deployment
// applies) must describe the same database: a change made in one place only fails here. Each is
// applied to its own scratch database on top of platform/bootstrap.sql, and the Supabase CLI's
// pg-delta engine (the one `npm run db:diff` uses to write migrations) must find no difference,
// either way round; pg-delta compares definitions, not rows, so the rows the schema itself inserts
// (the settings row, the storage buckets) are compared here too. On PGlite always (served over the wire protocol, as the platform runs it),
// and on TEST_DATABASE_URL's Postgres when set. Extended statistics, which pg-delta leaves out, are
// compared by scripts/schema-databases.mjs itself. Then proof the check can fail: one column added
// to, and one statistics object dropped from, the schema-files database alone are found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { createScratchDatabases, pgDelta } from '../../scripts/schema-databases.mjs';

type Scratch = Awaited<ReturnType<typeof createScratchDatabases>>;

const servers: { name: string; serverUrl: string | null }[] = [
  { name: 'pglite', serverUrl: null },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'postgres', serverUrl: process.env.TEST_DATABASE_URL }] : []),
];

describe.each(servers)('schema drift on $name', ({ serverUrl }) => {
  let dbs: Scratch;

  beforeAll(async () => {
    dbs = await createScratchDatabases({ serverUrl, name: 'esl_drift' });
  });

  afterAll(async () => {
    await dbs?.close();
  });

  it('finds no difference from the migrations to the schema files', async () => {
    expect(await pgDelta(dbs.migrations, dbs.schemas)).toBe('');
  });

  it('finds no difference from the schema files to the migrations', async () => {
    expect(await pgDelta(dbs.schemas, dbs.migrations)).toBe('');
  });

  it('inserts the same rows: the settings and the storage buckets', async () => {
    const rows = async (url: string) => {
      const sql = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
      try {
        const settings = await sql.unsafe(
          `select id, site_name, admin_email, course_access::text, certificate_template::text, footer_text,
             enable_analytics, auto_enrollment from public.settings`,
        );
        const buckets = await sql.unsafe(
          `select id, name, public, file_size_limit::text, allowed_mime_types from storage.buckets order by id`,
        );
        return { settings: [...settings], buckets: [...buckets] };
      } finally {
        await sql.end({ timeout: 5 });
      }
    };
    const fromMigrations = await rows(dbs.migrations);
    expect(fromMigrations.settings).toHaveLength(1);
    expect(fromMigrations.buckets.map((b) => b.id)).toEqual(['assessment-evidence', 'course-covers', 'module-images', 'scorm-content']);
    expect(await rows(dbs.schemas)).toEqual(fromMigrations);
  });

  it('fails when the schema files and the migrations disagree', async () => {
    const sql = postgres(dbs.schemas, { prepare: false, max: 1, onnotice: () => {} });
    try {
      await sql.unsafe('alter table public.courses add column drift_probe text');
      // Extended statistics, which pg-delta leaves out, are compared too.
      await sql.unsafe('drop statistics public.classroom_sessions_module_org_stats');
    } finally {
      await sql.end({ timeout: 5 });
    }
    const diff = await pgDelta(dbs.migrations, dbs.schemas);
    expect(diff).toMatch(/ALTER TABLE "public"\."courses"\s+ADD COLUMN "drift_probe" text/);
    expect(diff).toContain('DROP STATISTICS public.classroom_sessions_module_org_stats;');
    expect(diff).not.toMatch(/^[│▲●]/m);
  });
});
