// The SCORM run-time's saves under load (the budget: the run-time's saves cost no more than a
// module completion in the bench): PUT /api/scorm/sessions/:id through the gateway, as the player sends it
// on Commit and every 30 seconds, at 8 connections by default. Each connection is one learner's own
// open session, so its seq rises in order (two connections on one session would refuse each other
// with 409); the values are what a Storyline-like package commits (location, 1 KB of suspend data,
// status, score, session time). Measured like scripts/bench.mjs: answers a second, p50/p95/p99.
//
//   import { benchScormSaves } from './bench-scorm-saves.mjs';
//   const level = await benchScormSaves({ url, anonKey, serviceRoleKey, dbUrl });
//   SUPABASE_URL=… SUPABASE_ANON_KEY=… SUPABASE_SERVICE_ROLE_KEY=… SUPABASE_DB_URL=… node scripts/bench-scorm-saves.mjs
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { cpuMsPerAnswer, cpuSummary, cpuTicks } from './bench-cpu.mjs';

const PASSWORD = 'Bench-scorm-Saves-1!';

/**
 * @param {{ url: string, anonKey: string, serviceRoleKey: string, dbUrl: string, connections?: number,
 *   seconds?: number, warmup?: number, log?: (msg: string) => void }} platform url: the gateway's address
 * @returns {Promise<{ connections: number, rps: number, p50: number|null, p95: number|null, p99: number|null,
 *   requests: number, ok: number, statuses: Record<string, number>, errors: number,
 *   cpuMsPerAnswer: Record<string, number|null> }>}
 */
export async function benchScormSaves({ url, anonKey, serviceRoleKey, dbUrl, connections = 8, seconds = 5, warmup = 1, log = () => {} }) {
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const admin = { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' };
  const learnerIds = [];
  let courseId = null;
  try {
    const [instructor] = await sql`select id from public.profiles where role = 'INSTRUCTOR' order by created_at limit 1`;
    [{ id: courseId }] = await sql`
      insert into public.courses (title, description, service, author_id, status)
      values (${`Bench SCORM ${stamp}`}, 'A SCORM course for the run-time bench, removed afterwards.', 'MISC', ${instructor.id}, 'ACTIVE')
      returning id::text`;
    const [module] = await sql`
      insert into public.course_modules (course_id, title, order_index, kind) values (${courseId}::uuid, 'Bench package', 1, 'scorm')
      returning id::text`;
    await sql`
      insert into public.scorm_packages (module_id, course_id, version, title, scos, storage_prefix, file_count, unpacked_bytes)
      values (${module.id}::uuid, ${courseId}::uuid, '1.2', 'Bench package',
              ${sql.json([{ id: 'sco-1', title: 'Bench SCO', href: 'index.html' }])}, ${module.id + '/1/'}, 1, 1)`;

    // Learners with one open session each, three per connection. autocannon starts each request
    // with a fresh context, so the sessions are taken in turn: a session comes round again only
    // after two dozen other requests, when its last save has long been answered. (With one session
    // per connection two requests now and then overlapped on one session, and the product rightly
    // refused the later with 409.)
    const sessions = [];
    for (let n = 0; n < connections * 3; n += 1) {
      const email = `bench.scorm.${stamp}.${n}@bench.invalid`;
      const created = await fetch(`${url}/auth/v1/admin/users`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { username: `benchscorm${stamp}${n}`, name: `Bench Scorm ${n}` } }),
      }).then((r) => r.json());
      if (!created.id) throw new Error(`could not create a bench learner: ${JSON.stringify(created)}`);
      learnerIds.push(created.id);
      await sql`insert into public.enrollments (user_id, course_id, status) values (${created.id}::uuid, ${courseId}::uuid, 'ACTIVE')`;
      const signedIn = await fetch(`${url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      }).then((r) => r.json());
      const token = signedIn.access_token;
      const opened = await fetch(`${url}/functions/v1/api/modules/${module.id}/scorm/scos/sco-1/sessions`, {
        method: 'POST',
        headers: { apikey: anonKey, authorization: `Bearer ${token}` },
      });
      const body = await opened.json();
      if (opened.status !== 201) throw new Error(`could not open a session: ${opened.status} ${JSON.stringify(body)}`);
      sessions.push({ id: body.sessionId, token, seq: 0 });
    }

    const suspend = 'x'.repeat(1024);
    let next = 0;
    const run = (duration) => {
      const latencies = [];
      const statuses = {};
      const instance = autocannon({
        url,
        connections,
        duration,
        timeout: 10,
        requests: [{
          // Each session's seq rises in order.
          setupRequest: (req, context) => {
            context.session ??= sessions[next++ % sessions.length];
            const s = context.session;
            s.seq += 1;
            return Object.assign(req, {
              method: 'PUT',
              path: `/functions/v1/api/scorm/sessions/${s.id}`,
              headers: { apikey: anonKey, authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({
                seq: s.seq,
                values: {
                  'cmi.core.lesson_location': `slide-${s.seq}`,
                  'cmi.core.lesson_status': 'incomplete',
                  'cmi.core.score.raw': String(s.seq % 100),
                  'cmi.suspend_data': suspend,
                  'cmi.core.session_time': '0000:00:30',
                },
              }),
            });
          },
        }],
      });
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        latencies.push(responseTime);
        statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      });
      return instance.then((result) => ({ latencies, statuses, result }));
    };
    if (warmup > 0) await run(warmup);
    const cpuBefore = cpuTicks();
    const { latencies, statuses, result } = await run(seconds);
    const cpu = cpuMsPerAnswer(cpuBefore, cpuTicks(), latencies.length);
    latencies.sort((a, b) => a - b);
    const pct = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] : null);
    const level = {
      connections,
      rps: Math.round(latencies.length / seconds),
      p50: pct(50),
      p95: pct(95),
      p99: pct(99),
      requests: latencies.length,
      ok: statuses[200] ?? 0,
      statuses,
      errors: result.errors + result.timeouts,
      cpuMsPerAnswer: cpu,
    };
    log(`  SCORM saves c=${connections}  ${level.rps} req/s  p50 ${level.p50} ms  p95 ${level.p95} ms  p99 ${level.p99} ms  ` +
      `cpu ms client/node/deno/postgres ${cpuSummary(cpu)}  ${JSON.stringify(statuses)}`);
    return level;
  } finally {
    // Saves autocannon left in flight at the end are still being answered: let them finish before
    // the course and learners go (deleting under them deadlocks).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    if (courseId) await sql`select private.erase_course(id) from public.courses where id = ${courseId}::uuid`;
    for (const id of learnerIds) {
      await fetch(`${url}/auth/v1/admin/users/${id}`, { method: 'DELETE', headers: admin }).catch(() => {});
    }
    await sql.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = (name) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set (see /work/wt/platform-env.sh or npm start's output)`);
    return value;
  };
  const level = await benchScormSaves({
    url: env('SUPABASE_URL'),
    anonKey: env('SUPABASE_ANON_KEY'),
    serviceRoleKey: env('SUPABASE_SERVICE_ROLE_KEY'),
    dbUrl: env('SUPABASE_DB_URL'),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 8),
    seconds: Number(process.env.BENCH_SECONDS ?? 5),
    log: console.log,
  });
  console.log(JSON.stringify(level));
}
