// npm run db:diff -- <name>
//
// Turns a change to supabase/schemas/ into a migration: builds one scratch database from
// supabase/migrations and one from supabase/schemas, asks the Supabase CLI's pg-delta engine for
// the difference and writes it as supabase/migrations/<timestamp>_<name>.sql. When the two agree it
// says "no changes" and writes nothing. The scratch databases live on TEST_DATABASE_URL's or
// DATABASE_URL's server, else on the local Postgres at 127.0.0.1:5432, else on embedded PGlite;
// they are dropped afterwards (`--pglite` uses PGlite whatever server there is). Review the migration before committing it with the schema change.
import fs from 'node:fs';
import path from 'node:path';
import { findServer, migrationFiles, migrationsDir, pgDelta, withScratchDatabases } from './schema-databases.mjs';

const args = process.argv.slice(2);
const usePglite = args.includes('--pglite');
const name = args.find((a) => !a.startsWith('--'));
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('Usage: npm run db:diff -- <name>   (lower-case letters, digits and underscores, e.g. add_course_tags)');
  process.exit(2);
}

/** UTC now as YYYYMMDDHHMMSS, and always after the newest migration so that it applies last. */
function nextVersion() {
  const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const newest = migrationFiles().at(-1)?.slice(0, 14) ?? '0';
  return now > newest ? now : (BigInt(newest) + 1n).toString();
}

const serverUrl = usePglite ? null : await findServer();
console.log(`Building scratch databases from the migrations and from the schema files (${serverUrl ? new URL(serverUrl).host : 'PGlite'})...`);
const diff = await withScratchDatabases(({ migrations, schemas }) => pgDelta(migrations, schemas), { serverUrl, name: 'db_diff' });

if (!diff) {
  console.log('No changes: supabase/schemas and supabase/migrations describe the same schema.');
} else {
  const file = path.join(migrationsDir, `${nextVersion()}_${name}.sql`);
  const header = `-- ${name}: written by \`npm run db:diff\` from the change to supabase/schemas/ (reviewed by hand).\n\n`;
  fs.writeFileSync(file, header + diff + '\n');
  console.log(`Wrote ${path.relative(process.cwd(), file)}:\n\n${diff}\n`);
}
