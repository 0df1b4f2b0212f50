// Supabase's own database advisors (security and performance lints) on bootstrap + migrations:
// nothing at WARN or ERROR, and at INFO only unused indexes (a fresh database has used none). And
// proof the check can fail: a public table without row-level security makes it fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPGlite } from '../../platform/pglite.mjs';
import { cliDatabaseUrl } from '../../platform/db.mjs';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import postgres from 'postgres';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { bootstrapSql, migrationsSql } from './helpers/database';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Lint {
  name: string;
  level: 'INFO' | 'WARN' | 'ERROR';
  detail: string;
}
interface Advice {
  code: number;
  results: Lint[];
  raw: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Runs `supabase db advisors` asynchronously (PGlite answers in this same process). */
function advisors(url: string): Promise<Advice> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['supabase', 'db', 'advisors', `--db-url=${cliDatabaseUrl(url)}`, '--level', 'info', '--fail-on', 'warn', '--output-format', 'json'],
      { cwd: root, encoding: 'utf8', timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const text = stdout.trim();
        let results: Lint[] = [];
        try {
          results = (JSON.parse(text.slice(text.indexOf('{'))) as { results?: Lint[] }).results ?? [];
        } catch {
          results = [];
        }
        resolve({ code, results, raw: `${stdout}\n${stderr}` });
      },
    );
  });
}

interface Scratch {
  url: string;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

async function pgliteScratch(): Promise<Scratch> {
  const db = await createPGlite();
  await db.exec(bootstrapSql());
  for (const m of migrationsSql()) await db.exec(m);
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 10 });
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    exec: async (sql) => {
      await db.exec(sql);
    },
    close: async () => {
      await server.stop();
      await db.close();
    },
  };
}

async function postgresScratch(): Promise<Scratch> {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `esl_adv_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await sql.unsafe(bootstrapSql());
  for (const m of migrationsSql()) await sql.unsafe(m);
  return {
    url: url.toString(),
    exec: async (text) => {
      await sql.unsafe(text);
    },
    close: async () => {
      await sql.end();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const targets = [
  { name: 'pglite', create: pgliteScratch },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'postgres', create: postgresScratch }] : []),
];

describe.each(targets)('supabase db advisors on $name', ({ create }) => {
  let scratch: Scratch;
  beforeAll(async () => {
    scratch = await create();
  });
  afterAll(async () => {
    await scratch?.close();
  });

  it('finds nothing at WARN or ERROR, and only unused indexes at INFO', { timeout: 180_000 }, async () => {
    const advice = await advisors(scratch.url);
    expect(advice.raw).toContain('"results"');
    expect(advice.results.filter((l) => l.level !== 'INFO')).toEqual([]);
    expect([...new Set(advice.results.map((l) => l.name))].filter((n) => n !== 'unused_index')).toEqual([]);
    expect(advice.code).toBe(0);
  });

  it('fails when a public table has no row-level security', { timeout: 180_000 }, async () => {
    await scratch.exec('create table public.unprotected_notes (id integer primary key, body text)');
    const advice = await advisors(scratch.url);
    expect(advice.code).not.toBe(0);
    expect(advice.results.some((l) => l.name === 'rls_disabled_in_public' && l.level === 'ERROR' && l.detail.includes('unprotected_notes'))).toBe(true);
  });
});
