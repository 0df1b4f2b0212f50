// Soak: the platform under a mixed learner workload for a long time, watching for errors, memory
// growth and connection leaks.
//
//   node scripts/soak.mjs [--seconds 600] [--connections 16] [--database-url postgres://...]
//
// Starts its own platform (PGlite in a scratch DATA_DIR, or the Postgres database given) as a
// separate process tree, has an admin create one learner per connection, then runs `connections`
// virtual learners at once, each looping over: browse the catalogue (a page, sometimes a search or
// a service), open a course and its outline, enrol, read each module, take its quiz (a retry with
// the quiz's answer key, read once by the admin, when the first try fails), look at My Courses; a learner who has
// finished every course leaves one and starts it again, so writes go on all the time.
// Every second it samples the resident memory of the platform's whole process tree and the
// database connections (pg_stat_activity on Postgres; on PGlite the TCP connections to its socket,
// since PGlite is one backend). Budgets: zero errors; memory after warm-up grows at most 10 %;
// connections stay steady after warm-up (95 % of samples at most 2 above the warm-up figure, and at
// most 1 above it at the end): pools fill once, a leak grows with the requests served. Prints the figures and exits non-zero when a budget fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { startPlatformProcess } from './platform-process.mjs';

const MEMORY_BUDGET = 0.10;

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function median(values) {
  return percentile([...values].sort((a, b) => a - b), 50);
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

/** Established TCP connections whose local port is `port` (the server side), from /proc/net/tcp{,6}. */
function serverConnections(port) {
  let count = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4) continue;
      const localPort = parseInt(cols[1].split(':')[1], 16);
      if (localPort === port && cols[3] === '01') count += 1; // 01 = ESTABLISHED
    }
  }
  return count;
}

/**
 * @param {{ seconds?: number, connections?: number, warmupSeconds?: number, databaseUrl?: string,
 *   platform?: any, log?: (line: string) => void }} [options] platform: one already started by
 *   scripts/platform-process.mjs (left running); otherwise one is started on databaseUrl (PGlite when empty)
 */
export async function runSoak({ seconds = 600, connections = 16, warmupSeconds, databaseUrl = '', platform: given, log = console.log } = {}) {
  const warmup = warmupSeconds ?? Math.min(60, Math.max(5, Math.round(seconds * 0.2)));
  const dataDir = given ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'esl-soak-'));
  const platform = given ?? (await startPlatformProcess({ dataDir, databaseUrl }));
  const monitor = postgres(platform.dbUrl, { max: 1, prepare: false, onnotice: () => {}, connection: { application_name: 'soak-monitor' } });
  // PGlite is one backend behind a socket: its connections are counted on that socket.
  const [{ backends }] = await monitor`select count(*)::int as backends from pg_stat_activity where backend_type = 'client backend'`;
  const pglite = backends <= 1 && !given?.databaseUrl && !databaseUrl;
  const dbPort = Number(new URL(platform.dbUrl).port || 5432);
  try {
    return await soak({ platform, monitor, pglite, dbPort, seconds, connections, warmup, log });
  } finally {
    await monitor.end({ timeout: 5 });
    if (!given) {
      await platform.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

async function soak({ platform, monitor, pglite, dbPort, seconds, connections, warmup, log }) {
  const stats = { requests: 0, errors: 0, errorSamples: [], latencies: new Map(), byRoute: new Map() };

  async function call(route, method, apiPath, options = {}, expected = [200, 201]) {
    const started = performance.now();
    let status = 0;
    let body;
    try {
      const response = await platform.api(method, apiPath, options);
      status = response.status;
      const text = await response.text();
      body = text ? JSON.parse(text) : undefined;
    } catch (error) {
      body = { error: String(error) };
    }
    const ms = performance.now() - started;
    if (measuring) {
      stats.requests += 1;
      if (!stats.latencies.has(route)) stats.latencies.set(route, []);
      stats.latencies.get(route).push(ms);
    }
    if (!expected.includes(status)) {
      stats.errors += 1;
      if (stats.errorSamples.length < 10) stats.errorSamples.push(`${method} ${apiPath} -> ${status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    return { status, body };
  }

  // Learners: created by an admin (as the Users tab does), one per connection.
  let measuring = false;
  const adminLogin = await call('login', 'POST', '/login', { body: { username: 'admin', password: 'password123' } });
  const adminToken = adminLogin.body.session.access_token;
  const learners = await Promise.all(Array.from({ length: connections }, async (_, i) => {
    const id = `${Date.now().toString(36)}${i}`;
    const created = await call('create user', 'POST', '/users', {
      token: adminToken,
      body: { username: `soak_${id}`, email: `soak_${id}@example.test`, name: `Soak Learner ${i + 1}`, role: 'STUDENT' },
    });
    if (created.status !== 201) throw new Error(`soak: could not create a learner: ${created.status} ${JSON.stringify(created.body)}`);
    const login = await call('login', 'POST', '/login', { body: { username: `soak_${id}`, password: created.body.temporaryPassword } });
    if (login.status !== 200) throw new Error(`soak: the learner could not sign in: ${login.status} ${JSON.stringify(login.body)}`);
    // A temporary password must be replaced before anything else, as the learner would at first sign-in.
    const chosen = `Soak-learner-${id}-pass`;
    const changed = await call('choose password', 'PUT', '/profile/password', {
      token: login.body.session.access_token,
      body: { currentPassword: created.body.temporaryPassword, newPassword: chosen, confirmPassword: chosen },
    }, [204]);
    if (changed.status !== 204) throw new Error(`soak: the learner could not choose a password: ${changed.status} ${JSON.stringify(changed.body)}`);
    return { id: created.body.user.id, token: login.body.session.access_token, offset: i };
  }));
  const catalogue = await call('catalogue', 'GET', '/courses?pageSize=100');
  const courseIds = catalogue.body.items.filter((c) => c.status === 'ACTIVE').map((c) => c.id);
  const services = [...new Set(catalogue.body.items.map((c) => c.service))];
  const searches = ['safety', 'radio', 'incident', 'care', 'fire'];

  const answerKeys = new Map();
  async function answerKey(moduleId) {
    if (!answerKeys.has(moduleId)) {
      const quiz = await call('answer key', 'GET', `/modules/${moduleId}/quiz/authoring`, { token: adminToken });
      answerKeys.set(moduleId, Object.fromEntries((quiz.body?.questions ?? []).map((q) => [q.id, q.correctAnswers])));
    }
    return answerKeys.get(moduleId);
  }

  async function learnerLoop(learner, until) {
    const token = learner.token;
    for (let n = 0; Date.now() < until; n += 1) {
      // Browse.
      const browse = n % 3 === 0 ? `/courses?search=${searches[n % searches.length]}`
        : n % 3 === 1 ? `/courses?service=${services[n % services.length]}` : `/courses?page=1&pageSize=12`;
      await call('catalogue', 'GET', browse, { token });
      const courseId = courseIds[(n * 7 + learner.offset) % courseIds.length];
      await call('course', 'GET', `/courses/${courseId}`, { token });
      const outline = await call('outline', 'GET', `/courses/${courseId}/modules`, { token });
      // Enrol (or, when already through the course, leave it and start again).
      const mine = await call('my courses', 'GET', `/users/${learner.id}/enrollments`, { token });
      const existing = Array.isArray(mine.body) ? mine.body.find((e) => e.courseId === courseId) : undefined;
      if (existing?.completed) {
        await call('leave', 'DELETE', `/enrollments/${existing.id}`, { token }, [200, 204]);
      }
      if (!existing || existing.completed) {
        await call('enrol', 'POST', `/courses/${courseId}/enroll`, { token }, [201]);
      }
      // Read each module in order; pass its quiz.
      for (const module of Array.isArray(outline.body) ? outline.body : []) {
        if (Date.now() >= until) return;
        await call('module', 'GET', `/modules/${module.id}`, { token });
        await call('complete', 'POST', `/modules/${module.id}/complete`, { token });
        if (!module.hasQuiz) continue;
        const quiz = await call('quiz', 'GET', `/modules/${module.id}/quiz`, { token });
        if (quiz.status !== 200) continue;
        const guess = Object.fromEntries(quiz.body.questions.map((q) => [q.id, [0]]));
        const first = await call('attempt', 'POST', `/quizzes/${quiz.body.id}/attempts`, { token, body: { answers: guess } }, [201]);
        if (first.status === 201 && !first.body.passed) {
          // A failed attempt shows no answers by default, so the learner "studies": the
          // answer key comes once per quiz from the admin's authoring view.
          const right = await answerKey(module.id);
          await call('quiz', 'GET', `/modules/${module.id}/quiz`, { token });
          await call('attempt', 'POST', `/quizzes/${quiz.body.id}/attempts`, { token, body: { answers: right } }, [201]);
        }
      }
      await call('my courses', 'GET', `/users/${learner.id}/enrollments`, { token });
    }
  }

  const samples = [];
  const started = Date.now();
  const until = started + seconds * 1000;
  const sampler = setInterval(async () => {
    const t = (Date.now() - started) / 1000;
    const byCommand = platform.rssByCommand?.() ?? {};
    const rss = Object.values(byCommand).reduce((a, b) => a + b, 0) || platform.rss();
    let db = 0;
    try {
      if (pglite) db = serverConnections(dbPort);
      else {
        const [row] = await monitor`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
        db = row.n;
      }
    } catch {
      db = -1;
    }
    samples.push({ t, rss, byCommand, db, requests: stats.requests });
  }, 1000);

  measuring = true;
  await Promise.all(learners.map((l) => learnerLoop(l, until)));
  clearInterval(sampler);
  const elapsed = (Date.now() - started) / 1000;

  // Figures.
  const after = samples.filter((s) => s.t >= warmup);
  // Windows of a tenth of the run (at least 5 s) on each side: Deno's garbage collector swings the
  // function's RSS by tens of MB within a minute, so a single sample says little.
  const window = Math.max(5, seconds * 0.1);
  const baselineWindow = after.filter((s) => s.t < warmup + window);
  const endWindow = after.filter((s) => s.t >= seconds - window);
  const rssBaseline = median(baselineWindow.map((s) => s.rss));
  const rssEnd = median(endWindow.map((s) => s.rss));
  const rssPeak = Math.max(...samples.map((s) => s.rss));
  const growth = rssBaseline > 0 ? rssEnd / rssBaseline - 1 : 0;
  const dbAfter = after.map((s) => s.db);
  const dbWarm = median(baselineWindow.map((s) => s.db));
  const dbEnd = median(endWindow.map((s) => s.db));
  const dbMax = Math.max(...dbAfter);
  const dbMin = Math.min(...dbAfter);
  const dbP95 = percentile([...dbAfter].sort((a, b) => a - b), 95);
  const all = [...stats.latencies.values()].flat().sort((a, b) => a - b);
  const routes = [...stats.latencies.entries()].map(([route, values]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { route, count: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
  });

  const result = {
    database: pglite ? 'PGlite' : 'Postgres',
    seconds: Math.round(elapsed),
    connections,
    warmupSeconds: warmup,
    requests: stats.requests,
    requestsPerSecond: Math.round(stats.requests / elapsed),
    errors: stats.errors,
    errorSamples: stats.errorSamples,
    latencyMs: { p50: percentile(all, 50), p95: percentile(all, 95), p99: percentile(all, 99) },
    routes,
    rss: { baseline: rssBaseline, end: rssEnd, peak: rssPeak, growth },
    dbConnections: { warm: dbWarm, end: dbEnd, min: dbMin, max: dbMax, p95: dbP95 },
    samples,
  };
  result.passed = {
    errors: result.errors === 0,
    memory: growth <= MEMORY_BUDGET,
    // Steady: the pools fill during warm-up (the function's, the platform's own for Auth and Storage,
    // this monitor) and stay that size; a leak grows with the requests served.
    // A one-second blip while a pool replaces an idle connection is not a leak; a leak does not go back.
    connections: dbMin >= 0 && dbP95 <= Math.max(dbWarm, 1) + 2 && dbEnd <= Math.max(dbWarm, 1) + 1,
  };
  result.ok = Object.values(result.passed).every(Boolean);

  log(`soak on ${result.database}: ${result.seconds} s, ${connections} connections, warm-up ${warmup} s`);
  log(`  requests: ${result.requests} (${result.requestsPerSecond}/s), errors: ${result.errors}` +
    `${result.errorSamples.length ? `\n    ${result.errorSamples.join('\n    ')}` : ''}`);
  log(`  latency: p50 ${result.latencyMs.p50.toFixed(1)} ms, p95 ${result.latencyMs.p95.toFixed(1)} ms, p99 ${result.latencyMs.p99.toFixed(1)} ms`);
  for (const r of routes) {
    log(`    ${r.route.padEnd(12)} ${String(r.count).padStart(7)}  p50 ${r.p50.toFixed(1).padStart(6)}  p95 ${r.p95.toFixed(1).padStart(6)}  p99 ${r.p99.toFixed(1).padStart(6)} ms`);
  }
  log(`  platform RSS (whole tree): ${mb(rssBaseline)} MB after warm-up, ${mb(rssEnd)} MB at the end, peak ${mb(rssPeak)} MB: ` +
    `growth ${(growth * 100).toFixed(1)} % (budget ${MEMORY_BUDGET * 100} %) ${result.passed.memory ? 'ok' : 'FAILED'}`);
  const commands = [...new Set(samples.flatMap((s) => Object.keys(s.byCommand ?? {})))];
  for (const command of commands) {
    const at = (window) => median(window.map((s) => s.byCommand?.[command] ?? 0));
    log(`    ${command.padEnd(12)} ${mb(at(baselineWindow))} MB after warm-up, ${mb(at(endWindow))} MB at the end`);
  }
  log(`  database connections (${pglite ? 'TCP to the PGlite socket' : 'pg_stat_activity'}): ${dbWarm} after warm-up, ${dbEnd} at the end, ` +
    `range ${dbMin}-${dbMax} after warm-up (95th percentile ${dbP95}) ${result.passed.connections ? 'ok' : 'FAILED'}`);
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const arg = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const result = await runSoak({
    seconds: Number(arg('seconds', '600')),
    connections: Number(arg('connections', '16')),
    databaseUrl: arg('database-url', ''),
  });
  const out = arg('out', '');
  if (out) {
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(result, null, 2));
  }
  console.log(result.ok ? 'soak: every budget held' : 'soak: FAILED');
  process.exit(result.ok ? 0 : 1);
}
