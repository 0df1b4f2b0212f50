// Benchmark: how long `npm start` takes to be ready on a new data directory (database created,
// migrated and seeded, web app built) and on a restart, and that Ctrl-C leaves no process behind.
// Budgets: first start under 60 s after installation, restart under 15 s.
//   node scripts/bench-start.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esl-bench-'));

function startOnce() {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DB_PORT: '0', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('PLATFORM_READY ')) resolve({ child, seconds: (performance.now() - started) / 1000 });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
}

async function stop(child) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
}

/** Processes of this run still alive: the platform, its Deno function, PGlite. */
function orphans() {
  return execSync('ps -eo pid=,args=')
    .toString()
    .split('\n')
    .filter((line) => line.includes(dataDir) || line.includes('supabase/functions/api/index.ts'))
    .filter((line) => !line.includes('ps -eo'));
}

const first = await startOnce();
await stop(first.child);
const second = await startOnce();
await stop(second.child);
await new Promise((r) => setTimeout(r, 500));
const left = orphans();
if (left.length) console.log(left.join('\n'));
console.log(`first start (new database, seed, web build): ${first.seconds.toFixed(1)} s  (budget 60 s)`);
console.log(`restart:                                     ${second.seconds.toFixed(1)} s  (budget 15 s)`);
console.log(`processes left after Ctrl-C:                 ${left.length}`);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(first.seconds < 60 && second.seconds < 15 && left.length === 0 ? 0 : 1);
