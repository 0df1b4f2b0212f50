// Edge Functions on the local platform: the real Deno runtime serving supabase/functions/api with
// the environment hosted Supabase gives a function.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, waitForPort } from './ports.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const denoBin = path.join(repoRoot, 'node_modules', '.bin', 'deno');

/**
 * @param {{ supabaseUrl: string, anonKey: string, serviceRoleKey: string, dbUrl: string, tmpDir?: string, port?: number,
 *   preparedStatements?: boolean, env?: Record<string, string | undefined>, log?: (line: string) => void }} options
 *   tmpDir: the function's temporary directory (its TMPDIR, the only place it may write), emptied at start;
 *   absent: a new one, removed at stop
 *   preparedStatements: only for a real Postgres (the embedded PGlite keeps every connection in one session)
 *   env: more of the function's environment (the SMTP settings and SITE_URL the platform gives it);
 *   an undefined value leaves the variable out
 * @returns {Promise<{ url: string, tmpDir: string, stop: () => Promise<void> }>}
 */
export async function startFunctions({
  supabaseUrl, anonKey, serviceRoleKey, dbUrl, tmpDir: givenTmpDir, port = 0, preparedStatements = false, env = {}, log = (line) => process.stderr.write(line),
}) {
  const listenPort = port || (await freePort());
  const functionDir = path.join(repoRoot, 'supabase', 'functions', 'api');
  // Writes only to its own temporary directory, as a hosted function may write only under /tmp
  // (the SCORM upload spools the zip there: docs/ARCHITECTURE.md).
  const tmpDir = givenTmpDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'esl-fn-'));
  // Emptied at start, as a new hosted instance's /tmp is: what a killed upload left goes.
  fs.rmSync(tmpDir, { recursive: true, force: true });
  fs.mkdirSync(tmpDir, { recursive: true });
  // A directory made here goes when the function stops; a given one is the caller's.
  const removeTmp = () => {
    if (givenTmpDir === undefined) fs.rmSync(tmpDir, { recursive: true, force: true });
  };
  const child = spawn(
    denoBin,
    ['run', '--allow-net', '--allow-env', '--allow-read', `--allow-write=${tmpDir}`, '--config', path.join(functionDir, 'deno.json'), path.join(functionDir, 'index.ts')],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DENO_DIR: process.env.DENO_DIR ?? path.join(repoRoot, '.cache', 'deno'),
        DENO_NO_UPDATE_CHECK: '1',
        NO_COLOR: '1',
        DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${listenPort}`,
        TMPDIR: tmpDir,
        SUPABASE_URL: supabaseUrl,
        SUPABASE_ANON_KEY: anonKey,
        SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
        SUPABASE_DB_URL: dbUrl,
        DB_PREPARED_STATEMENTS: preparedStatements ? 'on' : 'off',
        ...env,
      },
    },
  );
  let exited = false;
  child.on('exit', () => (exited = true));
  const forward = (chunk) => {
    const text = chunk.toString();
    if (!/^Listening on /.test(text)) log(`[api] ${text}`);
  };
  child.stdout.on('data', forward);
  child.stderr.on('data', forward);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  try {
    await waitForPort(listenPort, { isAlive: () => !exited, timeoutMs: 180_000 });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `http://127.0.0.1:${listenPort}`,
    tmpDir,
    stop: () =>
      new Promise((resolve) => {
        process.removeListener('exit', killOnExit);
        const done = () => {
          removeTmp();
          resolve();
        };
        if (exited) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
