// The notification decision at scale (at 100,000 people one run decides every due notice
// in under 10 seconds). measureDecide runs private.decide_notifications once inside a transaction
// that is rolled back, so the database is left as it was, and answers how long it took and how many
// notices it wrote. On a database where the scheduler has not run yet that is the first run, which
// writes every notice due (the worst case); `repeat` also times a second run in the same
// transaction (everything already written: it decides all and writes nothing).
//
//   node scripts/bench-notifications.mjs            DATABASE_URL, default the scaled esl_scale
//   BENCH_DECIDE_AT=2026-11-30T08:00:00Z node ...   another time (a Monday from 07:00 London adds
//                                                   the managers' weekly digests)
//   BENCH_DECIDE_BEFORE='delete from ...' node ...  SQL run first in the same (rolled back) transaction
import fs from 'node:fs';
import postgres from 'postgres';
import { fileURLToPath } from 'node:url';

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/esl_scale';

class RollBack extends Error {}

/** CPU seconds a local process has used (user + system), or null when /proc cannot tell: on a
 * machine shared with other work the wall time says more about the neighbours than the query. */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * One decision run, rolled back.
 * @param {string} sqlUrl a Postgres URL (a role that may run private.decide_notifications)
 * @param {{ at?: Date | string, repeat?: boolean, before?: string }} [options] the time decided at
 *   (default now), whether to time a second run after the first, and SQL to run first in the same
 *   transaction (to measure a variant of the data; rolled back with the rest)
 * @returns {Promise<{ seconds: number, written: number, cpuSeconds: number | null, repeatSeconds?: number,
 *   repeatWritten?: number, repeatCpuSeconds?: number | null }>} cpuSeconds: the database backend's
 *   CPU time, when the database runs on this machine
 */
export async function measureDecide(sqlUrl = process.env.DATABASE_URL || DEFAULT_URL, options = {}) {
  const at = new Date(options.at ?? Date.now()).toISOString();
  const sql = postgres(sqlUrl, { max: 1, onnotice: () => {}, connection: { application_name: 'bench-notifications' } });
  let result;
  try {
    // A rolled-back run leaves its notices dead in the table and its nine indexes, which a committed
    // first run never meets (about 8 s became 10 to 11 s after a few runs): vacuumed away first, as
    // autovacuum does after any such run.
    await sql`vacuum public.notifications`;
    await sql.begin(async (tx) => {
      if (options.before) await tx.unsafe(options.before);
      const [{ pid }] = await tx`select pg_backend_pid() as pid`;
      const cpu = cpuSeconds(pid);
      const started = performance.now();
      const [first] = await tx`select private.decide_notifications(${at}::timestamptz) as n`;
      const cpuAfter = cpuSeconds(pid);
      result = { seconds: (performance.now() - started) / 1000, written: first.n, cpuSeconds: cpu === null ? null : cpuAfter - cpu };
      if (options.repeat) {
        const again = performance.now();
        const [second] = await tx`select private.decide_notifications(${at}::timestamptz) as n`;
        result.repeatSeconds = (performance.now() - again) / 1000;
        result.repeatWritten = second.n;
        result.repeatCpuSeconds = cpuAfter === null ? null : cpuSeconds(pid) - cpuAfter;
      }
      throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
  } finally {
    await sql.end();
  }
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL || DEFAULT_URL;
  const at = process.env.BENCH_DECIDE_AT || undefined;
  const r = await measureDecide(url, { at, repeat: true, before: process.env.BENCH_DECIDE_BEFORE || undefined });
  const db = new URL(url).pathname.slice(1);
  const cpu = (s) => (s === null ? '' : ` (${s.toFixed(2)} s of CPU)`);
  console.log(`decide_notifications on ${db}${at ? ` at ${at}` : ''}: first run ${r.seconds.toFixed(2)} s${cpu(r.cpuSeconds)}, ` +
    `${r.written} notices written; second run ${r.repeatSeconds.toFixed(2)} s${cpu(r.repeatCpuSeconds)}, ${r.repeatWritten} written ` +
    '(rolled back: the database is unchanged)');
  console.log(`BENCH_DECIDE ${JSON.stringify({ database: db, at: at ?? null, ...r })}`);
}
