// `npm run seed:scale`: a national-size data set for the benchmark and the query-plan proofs:
// 40 organisations with 2,000 units and 100,000 people, each with a line manager.
//
//   npm run seed:scale                         full preset into database esl_scale on the machine's
//                                              Postgres (postgres://postgres@127.0.0.1:5432), recreated
//   DATABASE_URL=<url> npm run seed:scale      into that database (migrated first; must not hold a
//                                              generated set yet)
//   npm run seed:scale -- --preset small       6 organisations, 240 units, 2,000 users, 200 courses,
//                                              20,000 enrolments
//   npm run seed:scale -- --preset small --pglite <dir>
//                                              into the embedded PGlite of a platform data directory
//                                              (then `DATA_DIR=<dir> node platform/start.mjs` serves it)
//
// The schema is the project's own: platform/db.mjs's bootstrap and `supabase db push` with the seed
// (admin, instructor and student, password123). Every generated account's password is password123.
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { startDatabase } from '../platform/db.mjs';
import { freePort } from '../platform/ports.mjs';
import { COUNTED_TABLES, generate, PASSWORD, PRESETS, scaleId } from './seed-scale/generate.mjs';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432';
const DEFAULT_DATABASE = 'esl_scale';

function parseArgs(argv) {
  const options = { preset: 'full', pglite: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--preset') options.preset = argv[++i];
    else if (arg.startsWith('--preset=')) options.preset = arg.slice('--preset='.length);
    else if (arg === '--pglite') options.pglite = argv[++i];
    else if (arg.startsWith('--pglite=')) options.pglite = arg.slice('--pglite='.length);
    else if (arg === '--help' || arg === '-h') options.help = true;
    else throw new Error(`Unknown argument ${arg}`);
  }
  if (!(options.preset in PRESETS)) throw new Error(`Unknown preset ${options.preset} (full or small)`);
  if (options.pglite === '') throw new Error('--pglite needs a directory');
  return options;
}

const redact = (url) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

async function recreateDefaultDatabase() {
  const admin = postgres(`${DEFAULT_SERVER}/postgres`, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${DEFAULT_DATABASE} with (force)`);
    await admin.unsafe(`create database ${DEFAULT_DATABASE}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  return `${DEFAULT_SERVER}/${DEFAULT_DATABASE}`;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).join('\n'));
    return;
  }
  const preset = PRESETS[options.preset];
  const started = performance.now();
  let target;
  let database;
  const migrateStarted = performance.now();
  if (options.pglite) {
    const dataDir = path.resolve(options.pglite);
    console.log(`Database: embedded PGlite in ${dataDir}/pgdata`);
    database = await startDatabase({ dataDir, port: await freePort(0, '127.0.0.1'), log: (m) => console.log(`  ${m}`) });
    target = database.url;
  } else if (process.env.DATABASE_URL) {
    target = process.env.DATABASE_URL;
    console.log(`Database: ${redact(target)} (DATABASE_URL)`);
  } else {
    target = await recreateDefaultDatabase();
    console.log(`Database: ${target} (recreated; set DATABASE_URL to use another)`);
  }
  console.log(`Preset ${options.preset}: ${Object.entries(preset).map(([k, v]) => `${v.toLocaleString('en-GB')} ${k}`).join(', ')}`);

  if (!database) database = await startDatabase({ databaseUrl: target, log: (m) => console.log(`  ${m}`) });
  const migrateSeconds = (performance.now() - migrateStarted) / 1000;
  console.log(`  schema and demo seed: ${migrateSeconds.toFixed(1)} s`);

  const sql = postgres(target, { max: 1, prepare: false, onnotice: () => {}, idle_timeout: 0 });
  try {
    const result = await generate({
      transaction: (fn) => sql.begin((tx) => fn((text) => tx.unsafe(text), (text, params) => tx.unsafe(text, params))),
      query: (text) => sql.unsafe(text),
      // The session's CPU time is readable from /proc when the server runs on this machine.
      measureCpu: !options.pglite && ['127.0.0.1', 'localhost', '[::1]', ''].includes(new URL(target).hostname),
    }, preset, (m) => console.log(m));
    const total = (performance.now() - started) / 1000;
    console.log('\nRows:');
    for (const table of COUNTED_TABLES) console.log(`  ${table.padEnd(28)} ${result.counts[table].toLocaleString('en-GB').padStart(11)}`);
    const [sample] = await sql`
      select
        (select p.username || ' (' || o.code || ')' from public.profiles p join public.organisations o on o.id = p.organisation_id
          where p.role = 'ADMIN' and p.id::text like '%-5ca1-4000-8000-000000000001' order by p.id limit 1) as "organisation admin",
        (select m.username from public.profiles m
          where m.id = (select r.manager_id from public.profiles r where r.manager_id::text like '%-5ca1-4000-8000-000000000001'
                        group by r.manager_id order by abs(count(*) - 20), r.manager_id limit 1)) as manager,
        (select p.username from public.profiles p
          join public.courses c on c.author_id = p.id
          join public.enrollments e on e.course_id = c.id
          where p.role = 'INSTRUCTOR' and p.id::text like '%-5ca1-4000-8000-000000000001'
            and c.id in (${scaleId(21, 2)}::uuid, ${scaleId(22, 2)}::uuid, ${scaleId(23, 2)}::uuid)
          group by p.username order by count(*) desc limit 1) as instructor,
        (select p.username from public.profiles p
          where p.id in (${scaleId(105, 1)}::uuid, ${scaleId(106, 1)}::uuid, ${scaleId(107, 1)}::uuid, ${scaleId(108, 1)}::uuid)
          order by (select count(*) from public.enrollments e where e.user_id = p.id) desc limit 1) as learner`;
    console.log(`\nSign in (password ${PASSWORD} for every account): demo admin (national) / instructor / student, or generated`);
    console.log(`  ${Object.entries(sample).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    console.log(`\nDone in ${total.toFixed(1)} s (${result.phases.map((p) => `${p.name} ${p.seconds.toFixed(1)} s`).join(', ')}).`);
    console.log(`SEED_SCALE_DONE ${JSON.stringify({ database: redact(target), preset: options.preset, seconds: Number(total.toFixed(1)), migrateSeconds: Number(migrateSeconds.toFixed(1)), phases: result.phases.map((p) => ({ ...p, seconds: Number(p.seconds.toFixed(1)), ...(p.cpuSeconds === undefined ? {} : { cpuSeconds: Number(p.cpuSeconds.toFixed(1)) }) })), counts: result.counts, password: PASSWORD, accounts: sample })}`);
  } finally {
    await sql.end({ timeout: 5 });
    await database.stop();
  }
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
