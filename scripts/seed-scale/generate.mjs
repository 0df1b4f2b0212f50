// The national-size data set, generated inside the database in a few big statements
// (generate_series, INSERT ... SELECT): the SQL is in the numbered files next to this one. Used by
// `npm run seed:scale` (scripts/seed-scale.mjs) and by the query-plan test on its own database.
//
// Each phase runs in one transaction with session_replication_role = replica (SET LOCAL, so nothing
// stays disabled when it commits): the per-row triggers (profile creation from auth.users, the audit
// trail, auto-enrolment and mandatory-training enrolment, enrolment preparation, updated_at, has_quiz)
// and the foundation keys' checks do not fire, and the generator writes what they would have written.
// Every constraint other than the foreign keys (unique, check, not null) is still enforced.
import fs from 'node:fs';

// Organisations and units: every organisation needs at least 40 units for its three levels (so that
// every manager has 3 to 40 reports), so the small preset keeps six organisations, one of each
// service, with 40 units each, rather than 1/50 of the full preset's.
export const PRESETS = {
  full: { organisations: 40, units: 2_000, users: 100_000, courses: 10_000, modules: 100_000, quizzes: 5_000, enrollments: 1_000_000 },
  small: { organisations: 6, units: 240, users: 2_000, courses: 200, modules: 2_000, quizzes: 100, enrollments: 20_000 },
};

/** The organisations' list in 01-users.sql has this many. */
export const MAX_ORGANISATIONS = 40;

/** Every generated account signs in with this password (one shared bcrypt hash, cost 10). */
export const PASSWORD = 'password123';
export const PASSWORD_HASH = '$2b$10$17x8tI.qAWobptrDdke6yuU.ug2G9dAp05cYJGWQRRCQ7D2iDNMHW';

/** Generated ids: `<n as 8 hex>-5ca1-4000-8000-00000000000<kind>` (users 1, courses 2, ...). */
export const scaleId = (n, kind) => `${n.toString(16).padStart(8, '0')}-5ca1-4000-8000-00000000000${kind}`;

// Per phase: its SQL, and the big tables whose plain (non-constraint) indexes are dropped before the
// phase's inserts and rebuilt after them from their own definitions (pg_indexes.indexdef), in the same
// transaction: building an index once from sorted rows is far quicker than millions of inserts into
// it, and if the phase fails nothing has changed.
const PHASES = [
  ['organisations, units and users', '01-users.sql', ['profiles']],
  ['courses, modules and quizzes', '02-courses.sql', []],
  ['enrolments', '03-enrollments.sql', ['enrollments']],
  ['progress, attempts and certificates', '04-progress.sql', ['user_module_progress', 'quiz_attempts', 'certificates']],
  ['classroom sessions and bookings', '05-sessions.sql', []],
];

const PLAIN_INDEXES = `
  select i.indexname, i.indexdef from pg_catalog.pg_indexes i
  where i.schemaname = 'public' and i.tablename = any ($1)
    and not exists (select 1 from pg_catalog.pg_constraint c where c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)
  order by i.indexname`;

export const COUNTED_TABLES = [
  'public.organisations', 'public.units', 'auth.users', 'auth.identities', 'public.profiles', 'public.courses', 'public.course_modules', 'public.quizzes',
  'public.quiz_questions', 'public.enrollments', 'public.user_module_progress', 'public.quiz_attempts',
  'public.certificates', 'private.profile_search_words', 'public.required_training', 'public.classroom_sessions',
  'public.session_trainers', 'public.session_bookings',
];

const quoteIdent = (name) => `"${String(name).replace(/"/g, '""')}"`;

function phaseSql(file, preset) {
  const text = fs.readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
  // Courses drawn per account: 0 .. span - 1, about 1.5 times the mean needed (duplicates, and draws of
  // another organisation's course, are dropped).
  const perUserSpan = Math.ceil((3.0 * preset.enrollments) / preset.users) + 1;
  const values = { ...preset, per_user_span: perUserSpan, password_hash: PASSWORD_HASH };
  return text.replace(/\{\{(\w+)\}\}/g, (_, name) => {
    if (!(name in values)) throw new Error(`${file}: unknown placeholder ${name}`);
    return String(values[name]);
  });
}

/**
 * @param {(fn: (exec: (sql: string) => Promise<unknown>, rows: (sql: string, params: unknown[]) => Promise<Record<string, any>[]>) => Promise<void>) => Promise<void>} transaction
 *   runs fn in one transaction; exec runs a script of several statements (simple query protocol),
 *   rows one statement with parameters
 * @param {(sql: string) => Promise<Record<string, unknown>[]>} query one statement, rows back
 * @param {{ organisations: number, units: number, users: number, courses: number, modules: number, quizzes: number, enrollments: number }} preset
 * @param {(msg: string) => void} [log]
 * @returns {Promise<{ phases: { name: string, seconds: number }[], counts: Record<string, number> }>}
 */
export async function generate({ transaction, query, measureCpu = false }, preset, log = () => {}) {
  if (preset.modules % preset.quizzes !== 0) throw new Error('modules must be a multiple of quizzes');
  if (preset.organisations < 1 || preset.organisations > MAX_ORGANISATIONS) throw new Error(`organisations must be 1 to ${MAX_ORGANISATIONS}`);
  if (preset.units < 40 * preset.organisations) throw new Error('units must be at least 40 per organisation');
  const [{ done }] = await query(`select exists (select 1 from public.profiles where id = '${scaleId(1, 1)}') as done`);
  if (done) throw new Error('This database already holds a generated data set: use a fresh database.');
  const phases = [];
  // On a shared machine the wall clock says as much about the neighbours as about the work: with a
  // local server, the CPU time of the database session doing it is reported as well.
  let backendPid = null;
  if (measureCpu) [{ pid: backendPid }] = await query('select pg_backend_pid() as pid');
  const cpuSeconds = () => {
    try {
      const fields = fs.readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
    } catch {
      return null;
    }
  };
  const time = async (name, fn) => {
    const started = performance.now();
    const cpuBefore = backendPid ? cpuSeconds() : null;
    await fn();
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = backendPid ? cpuSeconds() : null;
    const cpu = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
    phases.push(cpu === null ? { name, seconds } : { name, seconds, cpuSeconds: cpu });
    log(`  ${name}: ${seconds.toFixed(1)} s${cpu === null ? '' : ` (database CPU ${cpu.toFixed(1)} s)`}`);
  };
  await query('drop schema if exists scale_gen cascade');
  await query('create schema scale_gen');
  try {
    for (const [name, file, rebuiltTables] of PHASES) {
      const rebuilt = process.env.SEED_SCALE_KEEP_INDEXES ? [] : rebuiltTables;
      const sql = phaseSql(file, preset);
      await time(name, () =>
        transaction(async (exec, rows) => {
          await exec('set local session_replication_role = replica; set local synchronous_commit = off; set local work_mem = \'256MB\'; set local maintenance_work_mem = \'512MB\'; set local jit = off');
          const indexes = rebuilt.length > 0 ? await rows(PLAIN_INDEXES, [rebuilt]) : [];
          for (const index of indexes) await exec(`drop index public.${quoteIdent(index.indexname)}`);
          await exec(sql);
          for (const index of indexes) await exec(index.indexdef);
        }));
    }
  } finally {
    await query('drop schema if exists scale_gen cascade');
  }
  // Vacuum as well as analyze: the visibility map lets counts use index-only scans, and autovacuum
  // has nothing left to do in the middle of a benchmark.
  await time('vacuum and analyze', () => query(`vacuum (analyze) ${COUNTED_TABLES.join(', ')}`));
  const counts = {};
  for (const table of COUNTED_TABLES) {
    const [row] = await query(`select count(*)::bigint as n from ${table}`);
    counts[table] = Number(row.n);
  }
  return { phases, counts };
}
