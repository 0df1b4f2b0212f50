// `npm test`: every suite, then one total line `N passed, N failed[, N skipped]`.
//   0. Side by side: the checks, ESLint (`npm run lint`, the whole repository: the recommended
//      rules, the hooks rules, no import cycle, the import boundaries) and the TypeScript check
//      (`npm run typecheck`), each one test in the totals; and the run's seeded database, which
//      every platform the suites start copies (scripts/seeded-data.mjs).
//   1. Vitest: db (policies on PGlite, and on TEST_DATABASE_URL when set) and web, and beside them
//      the platform files in a Vitest of their own. From the start of the run the web app the
//      browser tests' platforms serve is built beside 0 and 1, at a low CPU priority (nice 10): it
//      takes what they leave (and is stopped if not done by 2).
//   2. Side by side, each on platforms of their own started exactly as `npm start` does on scratch
//      data directories: the function's Deno tests, and the browser tests (Vitest project e2e) in
//      two workers. When TEST_DATABASE_URL names a Postgres, the function's route-wide and engine
//      files (POSTGRES_FUNCTION_FILES) run a second time beside the first, on a platform on a new
//      database of that server (as `DATABASE_URL=... npm start` runs), where the function keeps
//      prepared statements (DB_PREPARED_STATEMENTS=on) and Postgres may reuse generic plans.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import postgres from 'postgres';
import { ensureDependencies } from './ensure-deps.mjs';
import { SEEDED_DATA_ENV, buildSeededData, useSeededData } from './seeded-data.mjs';
import { renderDirOf } from '../web/prerender.mjs';

ensureDependencies();
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => path.join(repoRoot, 'node_modules', '.bin', name);
const resultsDir = path.join(repoRoot, 'test-results');
fs.mkdirSync(resultsDir, { recursive: true });

// Every platform the suites start (and those the platform tests start as processes) hashes the
// passwords it is given at bcrypt cost 4, as Supabase Auth's own tests do: about 2 ms of CPU a hash
// or a new person's sign-in instead of about 80 (platform/auth.mjs, passwordHashCostFromEnv).
// `npm start` keeps Supabase Auth's 10, which platform/services.test.mjs proves.
process.env.AUTH_PASSWORD_HASH_COST ??= '4';

const totals = { passed: 0, failed: 0, skipped: 0 };
const summary = [];
const failures = []; // names of failed tests, printed above the totals so a CI log's tail shows them
const retried = []; // browser tests that failed once and passed on their retry (vitest.config.ts)
const failedPages = []; // what a failed browser test's pages showed (e2e/failure-report.ts), retries included
// `npm test -- web db` runs just those suites; `npm test -- e2e/learner.test.ts supabase/tests/admin.test.ts`
// just those files (each in the suite that holds it).
const args = process.argv.slice(2);
const files = args.filter((a) => /\.(ts|tsx|mjs)$/.test(a));
const suiteOfFile = (file) =>
  file.startsWith('e2e/') ? 'e2e'
    : file.startsWith('supabase/functions/tests/') ? 'function'
      : file.startsWith('supabase/tests/') ? 'db'
        : file.startsWith('platform/') ? 'platform' : 'web';
const only = [...new Set([...args.filter((a) => !files.includes(a)), ...files.map(suiteOfFile)])];
const filesOf = (...suites) => files.filter((f) => suites.includes(suiteOfFile(f)));

function wanted(name) {
  return only.length === 0 || only.includes(name);
}

// Each summary line says how long its suite took: by default the time since the previous line, so
// a platform's start counts with the suite that first uses it.
const startedAt = Date.now();
let lastRecordAt = startedAt;
const duration = (ms) => {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
};

function record(name, counts, since = lastRecordAt) {
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  const took = duration(Date.now() - since);
  lastRecordAt = Date.now();
  summary.push(`${name}: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''} (${took})`);
}

function run(command, args, { env = {}, capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'] });
    let output = '';
    if (capture) {
      child.stdout.on('data', (c) => { output += c; process.stdout.write(c); });
      child.stderr.on('data', (c) => { output += c; process.stderr.write(c); });
    }
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function vitest(name, projects, env = {}, since = lastRecordAt) {
  const outputFile = path.join(resultsDir, `vitest-${name.replace(/\W+/g, '-').replace(/-$/, '')}.json`);
  fs.rmSync(outputFile, { force: true });
  const args = ['run', ...projects.flatMap((p) => ['--project', p]), ...filesOf(...projects), '--reporter=default', '--reporter=json', `--outputFile=${outputFile}`];
  const { code, output } = await run(bin('vitest'), args, { env, capture: true });
  if (!fs.existsSync(outputFile)) return record(name, { passed: 0, failed: 1, skipped: 0 });
  const report = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
  const counts = {
    passed: report.numPassedTests,
    failed: report.numFailedTests + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? report.numFailedTestSuites : 0),
    skipped: report.numPendingTests + report.numTodoTests,
  };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  for (const file of report.testResults ?? []) {
    const relative = path.relative(repoRoot, file.name);
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      failures.push(`${name}: ${relative} > ${test.fullName ?? test.title}`);
      const why = (test.failureMessages?.[0] ?? '').split('\n').filter((line) => line.trim() && !/^\s+at /.test(line)).slice(0, 3).join(' / ');
      if (why) failures.push(`    ${why.slice(0, 300)}`);
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failures.push(`${name}: ${relative} (${(file.message ?? 'failed to run').split('\n')[0]})`);
    }
  }
  for (const line of output.split('\n')) {
    const plain = stripVTControlCharacters(line);
    if (plain.includes('[e2e failure]')) failedPages.push(`  ${plain.slice(plain.indexOf('[e2e failure]')).slice(0, 500)}`);
    if (/\(retry x\d+\)/.test(plain) && /✓/.test(plain)) retried.push(`  ${name}: ${plain.replace(/^\s*✓\s*/, '').trim()}`);
  }
  record(name, counts, since);
}

// The function's files run again on Postgres (with prepared statements, where Postgres may reuse
// generic plans): every route as every persona and with bad input, and the files about the pool and
// the engine itself. The rest prove rules that do not depend on the engine, once, on PGlite.
const POSTGRES_FUNCTION_FILES = ['access_matrix', 'robustness', 'db_read', 'faults', 'concurrency_writes', 'paging']
  .map((name) => `supabase/functions/tests/${name}_test.ts`);

// `typeCheck: false` for a run beside one that type-checks the same files (or more) already.
async function denoTests(env, name = 'function', since = lastRecordAt, defaultFiles = ['supabase/functions/tests'], { typeCheck = true } = {}) {
  const { code, output } = await run(
    bin('deno'),
    ['test', '--allow-all', ...(typeCheck ? [] : ['--no-check']), '--config', 'supabase/functions/api/deno.json', ...(filesOf('function').length ? filesOf('function') : defaultFiles)],
    { env: { ...env, DENO_DIR: path.join(repoRoot, '.cache', 'deno'), NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }, capture: true },
  );
  const match = output.match(/(?:ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed(?: \((\d+) steps?\))?(?: \| (\d+) ignored)?/);
  if (!match) return record(name, { passed: 0, failed: 1, skipped: 0 }, since);
  const counts = { passed: Number(match[1]), failed: Number(match[3]), skipped: Number(match[5] ?? 0) };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  // Deno's closing "ERRORS" section names each failed test as `<name> => ./file.ts:line:col`.
  for (const line of output.split('\n')) {
    if (/ => \.\/.+:\d+:\d+$/.test(line)) failures.push(`${name}: ${line.trim()}`);
  }
  record(name, counts, since);
}

/** A check that passes or fails as a whole: one test in the totals; a failure names its files. */
async function check(name, command, args, problemFiles) {
  const since = Date.now();
  const { code, output } = await run(command, args, { capture: true });
  if (code === 0) return record(name, { passed: 1, failed: 0, skipped: 0 }, since);
  const files = [...new Set(problemFiles(output))];
  if (files.length === 0) failures.push(`${name}: exited with ${code}`);
  for (const file of files.slice(0, 20)) failures.push(`${name}: ${file}`);
  if (files.length > 20) failures.push(`${name}: and ${files.length - 20} more files`);
  record(name, { passed: 0, failed: 1, skipped: 0 }, since);
}

/** Starts `platform/start.mjs` (what `npm start` runs) as a child on free ports and a scratch data dir. */
function startPlatformChild(dataDir, databaseUrl = '', web = !databaseUrl) {
  useSeededData(dataDir, { databaseUrl });
  return new Promise((resolve, reject) => {
    // The web app only where the browser tests run, and with it the local identity providers
    // (platform/idp/, on free ports: about half a second of the start) for the organisation sign-in
    // journeys (e2e/organisation-sign-in.test.ts).
    const args = web ? ['platform/start.mjs'] : ['platform/start.mjs', '--no-web'];
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DB_PORT: '0', DATABASE_URL: databaseUrl, OIDC_IDP: web ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((l) => l.startsWith('PLATFORM_READY '));
      if (line) resolve({ child, ...JSON.parse(line.slice('PLATFORM_READY '.length)) });
    });
    child.on('exit', (code) => reject(new Error(`platform exited with ${code} before it was ready:\n${buffer}`)));
  });
}

/** SCORM_OFFLINE_SIGNING_KEY and SCORM_OFFLINE_PUBLIC_KEY from a platform's keys.json (platform/keys.mjs). */
function offlineKeysEnv(dataDir) {
  const file = dataDir ? path.join(dataDir, 'keys.json') : '';
  if (!file || !fs.existsSync(file)) return {};
  const { scormOffline } = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!scormOffline) return {};
  return { SCORM_OFFLINE_SIGNING_KEY: JSON.stringify(scormOffline.privateJwk), SCORM_OFFLINE_PUBLIC_KEY: JSON.stringify(scormOffline.publicJwk) };
}

/** Stops a platform child: Ctrl-C as a person would, then SIGKILL if it has not exited in 10 s. */
async function stopPlatformChild(platform) {
  const exited = new Promise((r) => platform.child.once('exit', r));
  platform.child.kill('SIGINT');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  platform.child.kill('SIGKILL');
}

const started = [];
const scratch = [];
const newDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'esl-test-'));
  scratch.push(dir);
  return dir;
};

/**
 * Builds the web app and its course-page renderer into dataDir for the keys there, as the first
 * start of a platform on dataDir would (platform/web.mjs; the start then finds them built), in a
 * process group of its own at nice 10: the build waits on nothing, so it takes only the CPU the
 * suites before the browser tests leave, and the browser tests' platforms start without it.
 */
function buildWebAtLowPriority(dataDir) {
  const code = `const { loadKeys } = await import(${JSON.stringify(new URL('../platform/keys.mjs', import.meta.url).href)});
const { buildWeb } = await import(${JSON.stringify(new URL('../platform/web.mjs', import.meta.url).href)});
await buildWeb({ dataDir: process.argv[1], anonKey: (await loadKeys(process.argv[1])).anonKey });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code, dataDir], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  try {
    os.setPriority(child.pid, 10); // before it starts Vite, which inherits it
  } catch {
    // Where priorities cannot be changed the build runs as everything else does.
  }
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (status) => (status === 0 ? resolve() : reject(new Error(`web build exited with ${status ?? 'a signal'}`))));
  });
  done.catch(() => {}); // a build that fails or is stopped is made again by the platform's start
  const kill = () => {
    try {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL'); // the group: Vite and esbuild with it
    } catch {
      // Already gone.
    }
  };
  process.on('exit', kill);
  /** Stops the build if it still runs (on a machine too busy to have left it the CPU). */
  const stop = async () => {
    kill();
    await done.catch(() => {});
  };
  return { done, stop };
}
const browserDataDir = wanted('e2e') ? newDataDir() : null;
const webBuild = browserDataDir ? buildWebAtLowPriority(browserDataDir) : null;

// The run's seeded database for the platforms the suites start (scripts/seeded-data.mjs), built
// beside the same commands as `npm run lint` and `npm run typecheck` (each uses one core).
const seededDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esl-seeded-'));
process.on('exit', () => fs.rmSync(seededDataDir, { recursive: true, force: true }));
const needsPlatforms = ['platform', 'function', 'e2e'].some(wanted);
await Promise.all([
  // Should it fail, the run says so and each platform migrates and seeds its own database instead.
  needsPlatforms && buildSeededData(seededDataDir).then(
    () => { process.env[SEEDED_DATA_ENV] = seededDataDir; },
    (error) => {
      console.error(error);
      failures.push('seeded database: could not be built (the platforms migrate their own)');
      record('seeded database', { passed: 0, failed: 1, skipped: 0 });
    },
  ),
  // ESLint's report names each file with problems on a line of its own (an absolute path).
  wanted('lint') && check('lint', bin('eslint'), ['.', '--max-warnings', '0'], (output) =>
    output.split('\n').filter((line) => line.startsWith(repoRoot)).map((line) => path.relative(repoRoot, line.trim()))),
  // tsc reports `file(line,col): error TS...`.
  // The service worker (web/sw) is a program of its own: its globals are a worker's, not a page's.
  wanted('typecheck') && check('typecheck', 'sh', ['-c', `"${bin('tsc')}" -p tsconfig.json --noEmit && "${bin('tsc')}" -p web/sw/tsconfig.json --noEmit`], (output) =>
    [...output.matchAll(/^(.+?)\(\d+,\d+\): error TS\d+/gm)].map((m) => m[1])),
]);
lastRecordAt = Date.now();

try {
  // The platform files (one at a time: they start platforms as processes, and mostly wait on them)
  // in a Vitest of their own beside the db and web files, whose workers leave the CPU idle part of
  // the time; in one Vitest, a project of one worker runs only after the others.
  const since = Date.now();
  await Promise.all([
    (wanted('db') || wanted('web')) && vitest('vitest', ['db', 'web'].filter(wanted), {}, since),
    wanted('platform') && vitest('vitest (platform)', ['platform'], {}, since),
  ]);
  // Then the suites that wait much of the time (on pages, timers and the network) side by side.
  if (wanted('function') || wanted('e2e')) await platformSuites();
} finally {
  await webBuild?.stop(); // nothing left building into a directory about to go
  await Promise.all(started.map(stopPlatformChild));
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
}

// The function's Deno tests and the browser tests, each on platforms of their own, started exactly
// as `npm start` does on scratch data directories: the function tests on one (and, with
// TEST_DATABASE_URL, beside it on one on a new database of that server), and the browser files on
// E2E_WORKERS more (two by default), one worker each (e2e/platform-of-worker.ts). Neither suite sees
// the settings, mail or data the other changes; a browser file still sees what the files before it
// on its platform did.
async function platformSuites() {
  const platformEnv = (platform) => ({
    SUPABASE_URL: platform.url,
    SUPABASE_ANON_KEY: platform.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: platform.serviceRoleKey,
    SUPABASE_DB_URL: platform.dbUrl,
    PLATFORM_URL: platform.url,
    MAIL_URL: platform.mailUrl,
    // The local identity providers' URLs, where the platform runs them (else empty).
    IDP_URL: platform.idpUrl ?? '',
    SAML_IDP_URL: platform.samlIdpUrl ?? '',
    // The web build it serves (e2e/offline.test.ts publishes a new service worker there).
    WEB_DIR: platform.dataDir ? path.join(platform.dataDir, 'web') : '',
    // The pair that signs offline SCORM manifests, as the platform keeps it: the function's tests
    // build the app with the private key and verify with the public one.
    ...offlineKeysEnv(platform.dataDir),
  });
  const start = async (dataDir, { databaseUrl = '', web = true } = {}) => {
    const platform = await startPlatformChild(dataDir, databaseUrl, web);
    platform.dataDir = dataDir;
    started.push(platform);
    return platform;
  };
  /** A suite run with its own platforms; a platform that does not start fails the suite. */
  const suite = async (name, body) => {
    const since = Date.now(); // each suite's time includes its platforms' start
    try {
      await body(since);
    } catch (error) {
      console.error(error);
      record(`${name}: platform start`, { passed: 0, failed: 1, skipped: 0 }, since);
    }
  };

  const functionSuites = () => Promise.all([
    suite('function', async (since) => {
      const platform = await start(newDataDir(), { web: false });
      await denoTests(platformEnv(platform), 'function', since);
    }),
    process.env.TEST_DATABASE_URL && functionSuiteOnPostgres(),
  ]);
  // Again on Postgres, where the function keeps prepared statements and Postgres may reuse generic plans.
  const functionSuiteOnPostgres = async () => {
    const server = postgres(process.env.TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
    const name = `esl_fn_${Date.now().toString(36)}_${process.pid}`;
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    let platform;
    try {
      await suite('function (Postgres, prepared statements)', async (since) => {
        await server.unsafe(`create database ${name}`);
        platform = await start(newDataDir(), { databaseUrl: url.toString(), web: false });
        // Its files are among those the run on PGlite type-checks beside it.
        await denoTests({ ...platformEnv(platform), DB_PREPARED_STATEMENTS: 'on' }, 'function (Postgres, prepared statements)', since, POSTGRES_FUNCTION_FILES, { typeCheck: false });
      });
    } finally {
      // Stopped before its database is dropped.
      if (platform) {
        started.splice(started.indexOf(platform), 1);
        await stopPlatformChild(platform);
      }
      await server.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await server.end();
    }
  };

  const browserSuite = () => suite('e2e', async (since) => {
    const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
    // A build still running at nice 10 now would hold back the suite that ends the run: stopped,
    // the platform's start builds at full priority (its directory has no build stamp yet).
    await webBuild?.stop();
    const first = browserDataDir;
    const platforms = [await start(first)];
    // The others reuse the first one's keys and its web build (which carries its anon key) with the
    // course-page renderer built beside it (platform/web.mjs builds again when either is missing),
    // so they start without building the app again.
    platforms.push(...await Promise.all(Array.from({ length: workers - 1 }, () => {
      const dir = newDataDir();
      for (const item of ['keys.json', 'web', renderDirOf('web'), 'web.stamp']) fs.cpSync(path.join(first, item), path.join(dir, item), { recursive: true });
      return start(dir);
    })));
    await vitest('e2e', ['e2e'], { ...platformEnv(platforms[0]), E2E_PLATFORMS: JSON.stringify(platforms.map(platformEnv)) }, since);
  });

  await Promise.all([wanted('function') && functionSuites(), wanted('e2e') && browserSuite()]);
}

if (failedPages.length) console.log('\nPages at a failed browser test attempt:\n' + failedPages.join('\n'));
if (retried.length) console.log('\nPassed on retry (failed once):\n' + retried.join('\n'));
if (failures.length) console.log('\nFailed:\n' + [...new Set(failures)].map((f) => `  ${f}`).join('\n'));
console.log('\n' + summary.join('\n'));
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped} (${duration(Date.now() - startedAt)})`);
process.exit(totals.failed > 0 ? 1 : 0);
