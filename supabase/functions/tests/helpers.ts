// Shared set-up for the api function's tests: the app built against the REAL running platform
// whose URLs and keys are in the environment (the test runner starts one and sets them).
import nodeAssert from 'node:assert/strict';
import { createApp } from '../api/app.ts';
import type { Config } from '../api/lib/config.ts';
import { createDb } from '../api/lib/db.ts';

function env(name: string): string {
  const value = Deno.env.get(name);
  if (!value) {
    throw new Error(`${name} is not set: start the platform (node platform/start.mjs --no-web) and export its URLs and keys`);
  }
  return value;
}

export const config: Config = {
  supabaseUrl: env('SUPABASE_URL').replace(/\/+$/, ''),
  anonKey: env('SUPABASE_ANON_KEY'),
  serviceRoleKey: env('SUPABASE_SERVICE_ROLE_KEY'),
  dbUrl: env('SUPABASE_DB_URL'),
  // The platform's key (scripts/test.mjs passes it from keys.json): offline answers carry signed manifests.
  scormOfflineSigningKey: Deno.env.get('SCORM_OFFLINE_SIGNING_KEY') || undefined,
};

export const db = createDb(config.dbUrl);
export const app = createApp(config, db);

/** Deno.test without the op/resource sanitizers: the connection pool outlives single tests. */
export function test(name: string, fn: () => Promise<void>) {
  Deno.test({ name, fn, sanitizeOps: false, sanitizeResources: false });
}

/** Registered last in each file: closes the pool. */
export function closePoolAfterTests() {
  Deno.test({ name: '(close database pool)', fn: () => db.end(), sanitizeOps: false, sanitizeResources: false });
}

/** The session id (`session_id` claim) of an access token. */
export function sessionIdOf(token: string): string {
  const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  return payload.session_id;
}

let counter = 0;
/** A short unique suffix so tests never collide with each other or with earlier runs. */
export function unique(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter.toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** A unique client address per test, so the per-ip sign-in limit of one test never blocks another. */
export function uniqueIp(): string {
  const n = () => Math.floor(Math.random() * 254) + 1;
  return `10.${n()}.${n()}.${n()}`;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: BodyInit;
  token?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // deno-lint-ignore no-explicit-any
  json: any;
}

export async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: BodyInit | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  headers['x-forwarded-for'] ??= options.ip ?? uniqueIp();
  const response = await app.request(path, { method, headers, body });
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Signs in through /api/login and returns the session; fails the test unless the answer is 200. */
export async function loginSession(username: string, password = 'password123'): Promise<{ access_token: string; refresh_token: string }> {
  const answer = await call('POST', '/api/login', { body: { username, password } });
  if (answer.status !== 200) throw new Error(`login ${username} failed: ${answer.status} ${answer.text}`);
  return answer.json.session;
}

/** Signs in (the seed's people have password123) and returns the access token. */
export async function login(username: string, password = 'password123'): Promise<string> {
  return (await loginSession(username, password)).access_token;
}

// Deno-style assertions over node:assert's strict forms, for the files written with them.
export const assert = (value: unknown, message?: string) => nodeAssert.ok(value, message);
export const assertEquals = (actual: unknown, expected: unknown, message?: string) => nodeAssert.deepStrictEqual(actual, expected, message);
export const assertNotEquals = (actual: unknown, expected: unknown, message?: string) => nodeAssert.notDeepStrictEqual(actual, expected, message);
export const assertExists = (value: unknown, message?: string) => nodeAssert.ok(value !== null && value !== undefined, message);
export const assertMatch = (actual: string, pattern: RegExp, message?: string) => nodeAssert.match(actual, pattern, message);

/** An error answer's text shows no stack frame and no SQL. */
export function assertNoLeak(text: string) {
  nodeAssert.doesNotMatch(text, /\bat .+:\d+:\d+|stack|select |insert into|syntax error|invalid input syntax/i);
}

/** The seed's fixed ids (supabase/seed.sql). */
export const ids = {
  admin: '00000000-0000-4000-a000-000000000001',
  instructor: '00000000-0000-4000-a000-000000000002',
  student: '00000000-0000-4000-a000-000000000003',
  course: (n: number) => `10000000-0000-4000-a000-${String(n).padStart(12, '0')}`,
  module: (c: number, m: number) => `20000000-0000-4000-a000-${String(c).padStart(6, '0')}${String(m).padStart(6, '0')}`,
  quiz: (c: number, m: number) => `30000000-0000-4000-a000-${String(c).padStart(6, '0')}${String(m).padStart(6, '0')}`,
  question: (c: number, m: number, q: number) =>
    `40000000-0000-4000-a000-${String(c).padStart(4, '0')}${String(m).padStart(4, '0')}${String(q).padStart(4, '0')}`,
  certificate: '60000000-0000-4000-a000-000000000001',
};

export interface Registration {
  username: string;
  email: string;
  name: string;
  password: string;
}

export function newRegistration(): Registration {
  const id = unique();
  return { username: `user_${id}`, email: `mail_${id}@example.test`, name: `Test User ${id}`, password: `pw-${id}-secret` };
}

/** Registers a fresh user and returns the answer with the inputs used. */
export async function register(input: Registration = newRegistration()) {
  const answer = await call('POST', '/api/register', { body: { ...input, confirmPassword: input.password } });
  if (answer.status !== 201) throw new Error(`register failed: ${answer.status} ${answer.text}`);
  return { input, user: answer.json.user, session: answer.json.session, answer };
}

/** What no answer may contain: a stack frame or SQL/Postgres error text. */
export const LEAK_PATTERNS: RegExp[] = [
  /\bat \S+ \(/, // stack frame "at fn (file:...)"
  /\n\s+at /,
  /\.ts:\d+:\d+/,
  /postgres/i,
  /syntax error/i,
  /\brelation\b/i,
  /violates/i,
  /\bselect\s+.+\s+from\b/i,
  /\binsert into\b/i,
  /\bupdate public\./i,
  /\bdelete from\b/i,
  /\bSQLSTATE\b/i,
  /\bpermission denied\b/i,
  /invalid input syntax/i,
  /row-level security/i,
];

/** The text drawn on a PDF's pages: Flate content streams inflated, the WinAnsi hex strings pdf-lib writes decoded (two bytes a letter in the embedded DejaVu fonts). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const raw = new TextDecoder('latin1').decode(bytes);
  const out: string[] = [];
  const pattern = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(raw))) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    const dict = raw.slice(Math.max(0, raw.lastIndexOf('<<', match.index)), match.index);
    if (!dict.includes('FlateDecode')) continue;
    // Exactly /Length bytes: the inflater refuses the end-of-line that follows the data.
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1] ?? end - start);
    try {
      const inflated = await new Response(new Blob([bytes.slice(start, start + length)]).stream().pipeThrough(new DecompressionStream('deflate'))).arrayBuffer();
      // The embedded DejaVu fonts (api/lib/pdf-fonts.ts) take code points as two bytes (UTF-16BE).
      let unicode = false;
      for (const op of new TextDecoder('latin1').decode(inflated).matchAll(/\/(\S+) [\d.]+ Tf|<([0-9A-Fa-f]+)>\s*Tj/g)) {
        if (op[1] !== undefined) {
          unicode = op[1].startsWith('DejaVu');
          continue;
        }
        const hex = op[2];
        out.push(unicode
          ? String.fromCharCode(...hex.match(/..../g)!.map((h) => parseInt(h, 16)))
          : hex.match(/../g)!.map((h) => String.fromCharCode(parseInt(h, 16))).join(''));
      }
    } catch {
      // Font programs and other streams that are not page text.
    }
  }
  return out.join('\n');
}

/** A person given a temporary password chooses their own (nothing else works until then). */
export async function chooseNewPassword(token: string, temporaryPassword: string, newPassword = `Own-${unique()}-pass`): Promise<string> {
  const answer = await call('PUT', '/api/profile/password', {
    token,
    body: { currentPassword: temporaryPassword, newPassword, confirmPassword: newPassword },
  });
  if (answer.status !== 204 && answer.status !== 200) throw new Error(`password change failed: ${answer.status} ${answer.text}`);
  return newPassword;
}
