// The platform as a separate process tree (node platform/start.mjs with its Deno function and the
// Supabase CLI), for the fault, backup and soak tests: started in its own process group so that
// it can be stopped politely (SIGINT) or killed outright (SIGKILL of the whole group), measured
// (resident memory of the whole tree) and called like a client would call it.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { useSeededData } from './seeded-data.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// Process groups still running; killed if this process exits first (a test runner that dies must
// not leave platforms behind: they are detached, so they would not get its signal).
const live = new Set();
process.once('exit', () => {
  for (const pid of live) killGroup(pid, 'SIGKILL');
});

/**
 * @param {{ dataDir: string, port?: number, dbPort?: number, databaseUrl?: string, web?: boolean,
 *   timeoutMs?: number, quiet?: boolean, env?: Record<string, string> }} options env: more of its environment
 */
export async function startPlatformProcess(options) {
  // A port the OS handed out as free may be taken, before the platform listens on it, by another
  // process's outgoing connection (both come from the ephemeral range): such a start is made again,
  // on newly chosen ports, as a restart on the same data (platform/restart.test.mjs).
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPlatformProcessOnce(options);
    } catch (error) {
      if (attempt === 3 || !/EADDRINUSE/.test(String(error?.message))) throw error;
    }
  }
}

function startPlatformProcessOnce({ dataDir, port = 0, dbPort = 0, databaseUrl = '', web = false, timeoutMs = 180_000, quiet = true, env = {} }) {
  useSeededData(dataDir, { databaseUrl });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['platform/start.mjs', ...(web ? [] : ['--no-web'])], {
      cwd: repoRoot,
      env: { ...process.env, ...env, DATA_DIR: dataDir, PORT: String(port), DB_PORT: String(dbPort), DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: kill(-pid) reaches the Deno function and the CLI too
    });
    live.add(child.pid);
    child.once('exit', () => setTimeout(() => live.delete(child.pid), 1000));
    let output = '';
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL');
      reject(new Error(`the platform was not ready within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk) => {
      output += chunk;
      if (!quiet) process.stderr.write(chunk);
      const line = output.split('\n').find((l) => l.startsWith('PLATFORM_READY '));
      if (line && !resolved) {
        resolved = true;
        clearTimeout(timer);
        const info = JSON.parse(line.slice('PLATFORM_READY '.length));
        resolve(handle(child, info, () => output));
      }
      if (output.length > 200_000) output = output.slice(-100_000);
    };
    let resolved = false;
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      if (!resolved) {
        clearTimeout(timer);
        reject(new Error(`the platform exited (${code ?? signal}) before it was ready:\n${output}`));
      }
    });
  });
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function handle(child, info, output) {
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(undefined);
    else child.once('exit', () => resolve(undefined));
  });
  return {
    ...info,
    pid: child.pid,
    output,
    exited,
    /** `fetch` against the function, as the web app calls it. */
    api(method, apiPath, { token, body, headers = {} } = {}) {
      const h = { apikey: info.anonKey, ...headers };
      if (token) h.authorization = `Bearer ${token}`;
      let payload;
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        h['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
      return fetch(`${info.url}/functions/v1/api${apiPath}`, { method, headers: h, body: payload });
    },
    /** Ctrl-C: the platform stops its parts in order. */
    async stop(timeoutMs = 15_000) {
      killGroup(child.pid, 'SIGINT');
      const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), timeoutMs))]);
      if (!done) killGroup(child.pid, 'SIGKILL');
      await exited;
      killGroup(child.pid, 'SIGKILL'); // anything of the group that outlived its parent
    },
    /** A crash: every process of the platform killed at once, nothing flushed or closed. */
    async kill() {
      killGroup(child.pid, 'SIGKILL');
      await exited;
      await waitForGroupToEnd(child.pid);
    },
    /** Resident memory of the platform's whole process tree, in bytes. */
    rss: () => treeRss(child.pid),
    rssByCommand: () => treeRssByCommand(child.pid),
  };
}

async function waitForGroupToEnd(pgid, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (groupMembers(pgid).length === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The live processes of a process group (the platform's: node, the Deno function, the CLI). */
export function groupMembers(pgid) {
  const members = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return members;
}

/** Sum of VmRSS over pid and all its descendants (Linux /proc). */
export function treeRss(rootPid) {
  return Object.values(treeRssByCommand(rootPid)).reduce((a, b) => a + b, 0);
}

/** VmRSS of pid and its descendants, summed per command name (node, deno, ...). */
export function treeRssByCommand(rootPid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  const byCommand = {};
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const name = /Name:\s+(\S+)/.exec(status)?.[1] ?? 'other';
      byCommand[name] = (byCommand[name] ?? 0) + kb * 1024;
    } catch {
      continue;
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return byCommand;
}

/** The machine's Postgres as a superuser URL (TEST_DATABASE_URL's server when set). */
export function postgresServerUrl() {
  const base = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  base.pathname = '/postgres';
  return base;
}

/** A Postgres URL for database `name` on the same server. */
export function databaseUrl(name) {
  const url = postgresServerUrl();
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs a Postgres client program (createdb, pg_dump, pg_restore, dropdb) against the server. */
export function pgTool(program, args) {
  const server = postgresServerUrl();
  const env = {
    ...process.env,
    PGHOST: server.hostname,
    PGPORT: server.port || '5432',
    PGUSER: decodeURIComponent(server.username || 'postgres'),
    ...(server.password ? { PGPASSWORD: decodeURIComponent(server.password) } : {}),
  };
  return new Promise((resolve, reject) => {
    execFile(program, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${program} ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** Runs `deno test` on the given function test files against a platform; resolves with counts. */
export function denoTest(platform, files, { check = true } = {}) {
  return new Promise((resolve) => {
    const child = spawn(
      path.join(repoRoot, 'node_modules', '.bin', 'deno'),
      ['test', '--allow-all', ...(check ? [] : ['--no-check']), '--config', 'supabase/functions/api/deno.json', ...files],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          DENO_DIR: path.join(repoRoot, '.cache', 'deno'),
          NO_COLOR: '1',
          DENO_NO_UPDATE_CHECK: '1',
          SUPABASE_URL: platform.url,
          SUPABASE_ANON_KEY: platform.anonKey,
          SUPABASE_SERVICE_ROLE_KEY: platform.serviceRoleKey,
          SUPABASE_DB_URL: platform.dbUrl,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('close', (code) => {
      const match = output.match(/(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/);
      resolve({ code, passed: Number(match?.[1] ?? 0), failed: Number(match?.[2] ?? (code === 0 ? 0 : 1)), output });
    });
  });
}
