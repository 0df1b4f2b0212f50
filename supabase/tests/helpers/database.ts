// Builds the app's database for tests: platform/bootstrap.sql (what Supabase provides), every
// migration in order (as a deployment does; supabase/schemas is checked against them by
// schema-drift.test.ts), then seed.sql; on an in-process PGlite or, when TEST_DATABASE_URL is set, on
// a fresh uniquely named database of that real Postgres server (dropped on close). Each call gets a
// database of its own: a copy of the one the db project's globalSetup (./templates.ts) built once
// for the run, or built from the scripts when there is none or the options ask for less. asUser() runs
// SQL exactly as the api function does: one transaction, `set local role anon|authenticated` and
// the caller's JWT claims in request.jwt.claims.
import type { PGlite } from '@electric-sql/pglite';
import { createPGlite } from '../../../platform/pglite.mjs';
import postgres from 'postgres';
import { inject } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const migrationsDir = join(root, 'supabase/migrations');

export function bootstrapSql(): string {
  return readFileSync(join(root, 'platform/bootstrap.sql'), 'utf8');
}
export function migrationFiles(): string[] {
  return readdirSync(migrationsDir)
    .filter((f) => /^\d{14}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
}
export function migrationsSql(): string[] {
  return migrationFiles().map((f) => readFileSync(join(migrationsDir, f), 'utf8'));
}
export function seedSql(): string {
  return readFileSync(join(root, 'supabase/seed.sql'), 'utf8');
}

export interface Result<T> {
  rows: T[];
  rowCount: number;
}

/** Something that runs SQL: the database as superuser, or a transaction inside asUser(). */
export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Result<T>>;
}

export interface TestDatabase extends Queryable {
  backend: 'pglite' | 'postgres';
  exec(text: string): Promise<void>;
  transaction<R>(fn: (tx: Queryable) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

export type Backend = { name: 'pglite' | 'postgres'; create: (opts?: CreateOptions) => Promise<TestDatabase> };
export interface CreateOptions {
  /** Apply the migrations (default true). */
  migrations?: boolean;
  /** Apply seed.sql (default true). */
  seed?: boolean;
}

function scripts(opts: CreateOptions = {}): string[] {
  const list = [bootstrapSql()];
  if (opts.migrations !== false) list.push(...migrationsSql());
  if (opts.migrations !== false && opts.seed !== false) list.push(seedSql());
  return list;
}

/** What the db project's globalSetup (./templates.ts) built for the run. */
export interface DatabaseTemplates {
  /** A PGlite data directory dump (tar) of the seeded database. */
  pgliteDump: string;
  /** The name of a seeded Postgres database on TEST_DATABASE_URL's server, or '' without one. */
  postgresTemplate: string;
}
declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

/** The run's template when it holds what opts ask for (migrations and seed), else null. */
function template(opts: CreateOptions, backend: 'pgliteDump' | 'postgresTemplate'): string | null {
  if (opts.migrations === false || opts.seed === false) return null;
  // inject() answers only inside a Vitest worker whose project's globalSetup provided it.
  let provided: DatabaseTemplates | undefined;
  try {
    provided = inject('databaseTemplates');
  } catch {
    return null;
  }
  return provided?.[backend] || null;
}

export async function createPglite(opts: CreateOptions = {}): Promise<TestDatabase> {
  const dump = template(opts, 'pgliteDump');
  const pg = await createPGlite(undefined, dump ? { loadDataDir: new Blob([readFileSync(dump)]) } : {});
  if (!dump) for (const script of scripts(opts)) await pg.exec(script);
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(text: string, params: unknown[] = []) {
      const r = await q.query<T>(text, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
  });
  return {
    backend: 'pglite',
    ...wrap(pg),
    async exec(text) {
      await pg.exec(text);
    },
    async transaction(fn) {
      return pg.transaction((tx) => fn(wrap(tx)));
    },
    async close() {
      await pg.close();
    },
  };
}

export async function createPostgres(opts: CreateOptions = {}): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const name = `esl_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const from = template(opts, 'postgresTemplate');
  await admin.unsafe(from ? `create database ${name} template ${from}` : `create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const sql = postgres(target.toString(), { max: 1, onnotice: () => {} });
  const wrap = (q: postgres.Sql | postgres.TransactionSql): Queryable => ({
    async query<T>(text: string, params: unknown[] = []) {
      const r = await q.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
      return { rows: r as unknown as T[], rowCount: r.count ?? r.length };
    },
  });
  try {
    if (!from) for (const script of scripts(opts)) await sql.unsafe(script);
  } catch (error) {
    await sql.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    throw error;
  }
  return {
    backend: 'postgres',
    ...wrap(sql),
    async exec(text) {
      await sql.unsafe(text);
    },
    async transaction(fn) {
      return sql.begin((tx) => fn(wrap(tx))) as Promise<never>;
    },
    async close() {
      await sql.end();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * The engine the policy tests run on: TEST_DATABASE_URL's Postgres when it is set (the server
 * hosted Supabase runs), else PGlite. Once, not on both: the function's and the browser tests run
 * the whole app on PGlite (what `npm start` runs), and schema-drift and advisors check both engines.
 */
export const backends: Backend[] = process.env.TEST_DATABASE_URL
  ? [{ name: 'postgres', create: createPostgres }]
  : [{ name: 'pglite', create: createPglite }];

// The seed's fixed ids (supabase/seed.sql).
export const ids = {
  admin: '00000000-0000-4000-a000-000000000001',
  instructor: '00000000-0000-4000-a000-000000000002',
  student: '00000000-0000-4000-a000-000000000003',
  course: (n: number) => `10000000-0000-4000-a000-${String(n).padStart(12, '0')}`,
  module: (c: number, m: number) =>
    `20000000-0000-4000-a000-${String(c).padStart(6, '0')}${String(m).padStart(6, '0')}`,
  quiz: (c: number, m: number) =>
    `30000000-0000-4000-a000-${String(c).padStart(6, '0')}${String(m).padStart(6, '0')}`,
  question: (c: number, m: number, q: number) =>
    `40000000-0000-4000-a000-${String(c).padStart(4, '0')}${String(m).padStart(4, '0')}${String(q).padStart(4, '0')}`,
  enrollment: (n: number) => `50000000-0000-4000-a000-${String(n).padStart(12, '0')}`,
  certificate: '60000000-0000-4000-a000-000000000001',
  attempt: (n: number) => `70000000-0000-4000-a000-${String(n).padStart(12, '0')}`,
};

/** Seed courses: 1-3 UKPS by the instructor (1 JESIP, quiz on module 2; 3 Airwave, quiz on module 3),
 * 12-14 MISC by the instructor (14 has no modules), 4-11 by the admin, 15/16 DRAFT, 17 ARCHIVED. */
export const seedCourses = {
  active: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
  draftByInstructor: 15,
  draftByAdmin: 16,
  archivedByAdmin: 17,
  noModules: 14,
};

export interface Persona {
  id: string;
  email: string;
}
export const personas = {
  admin: { id: ids.admin, email: 'admin@example.uk' },
  instructor: { id: ids.instructor, email: 'instructor@example.uk' },
  learner: { id: ids.student, email: 'student@example.uk' },
  otherInstructor: { id: '00000000-0000-4000-a000-0000000000aa', email: 'other.instructor@example.uk' },
} satisfies Record<string, Persona>;

/** The claims Supabase Auth puts in an access token (docs/ARCHITECTURE.md, "The request path"). */
export function claimsFor(persona: Persona | null): Record<string, unknown> {
  if (!persona) return { role: 'anon', iss: 'supabase-demo' };
  return {
    iss: 'http://127.0.0.1:54321/auth/v1',
    sub: persona.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: persona.email,
    phone: '',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    session_id: '00000000-0000-4000-b000-000000000000',
    aal: 'aal1',
    is_anonymous: false,
  };
}

/** Runs fn as the persona (null: a visitor with the anon key), in one transaction, as the function does. */
export async function asUser<R>(db: TestDatabase, persona: Persona | null, fn: (tx: Queryable) => Promise<R>): Promise<R> {
  return db.transaction(async (tx) => {
    await tx.query(`set local role ${persona ? 'authenticated' : 'anon'}`);
    await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claimsFor(persona))]);
    return fn(tx);
  });
}

/** One query as the persona. */
export async function queryAs<T = Record<string, unknown>>(
  db: TestDatabase,
  persona: Persona | null,
  text: string,
  params: unknown[] = [],
): Promise<Result<T>> {
  return asUser(db, persona, (tx) => tx.query<T>(text, params));
}

/** The SQLSTATE of the error fn raises, or null when it succeeds. */
export async function sqlState(fn: () => Promise<unknown>): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    throw error;
  }
}

/** Creates a user as Supabase Auth would (the trigger makes the profile), then sets role and services. */
export async function createUser(
  db: TestDatabase,
  user: { id: string; email: string; username?: string; name?: string; role?: string; services?: string[] },
): Promise<void> {
  const meta: Record<string, string> = {};
  if (user.username) meta.username = user.username;
  if (user.name) meta.name = user.name;
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       extensions.crypt('password123', extensions.gen_salt('bf', 4)), now(),
       '{"provider":"email","providers":["email"]}', ($3::text)::jsonb, now(), now())`,
    [user.id, user.email, JSON.stringify(meta)],
  );
  if (user.role || user.services) {
    await db.query(
      `update public.profiles set role = coalesce($2::public.user_role, role),
         services = coalesce($3::public.service_code[], services) where id = $1`,
      [user.id, user.role ?? null, user.services ? `{${user.services.join(',')}}` : null],
    );
  }
}

/** Adds the "other instructor" persona (INSTRUCTOR in UKPS and UKAS, no courses). */
export async function addOtherInstructor(db: TestDatabase): Promise<Persona> {
  await createUser(db, {
    id: personas.otherInstructor.id,
    email: personas.otherInstructor.email,
    username: 'other_instructor',
    name: 'Olivia Other',
    role: 'INSTRUCTOR',
    services: ['UKPS', 'UKAS'],
  });
  return personas.otherInstructor;
}

class Rollback extends Error {}

/** Runs fn as the persona and rolls the transaction back, so a permitted write leaves no trace. */
export async function rolledBack<R>(db: TestDatabase, persona: Persona | null, fn: (tx: Queryable) => Promise<R>): Promise<R> {
  let result: R | undefined;
  try {
    await asUser(db, persona, async (tx) => {
      result = await fn(tx);
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return result as R;
}

/** Sets the course-access rule as the admin (through the policies), runs fn, then restores it. */
export async function withCourseAccess<R>(db: TestDatabase, access: string, fn: () => Promise<R>): Promise<R> {
  const before = await db.query<{ course_access: string }>('select course_access from public.settings');
  await queryAs(db, personas.admin, 'update public.settings set course_access = $1', [access]);
  try {
    return await fn();
  } finally {
    await db.query('update public.settings set course_access = $1', [before.rows[0].course_access]);
  }
}

/** The first Tuesday 12:00 UTC (12:00 or 13:00 London) after `from`. */
export function nextTuesdayNoon(from: Date): Date {
  const day = 86_400_000;
  let at = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate(), 12);
  while (new Date(at).getUTCDay() !== 2 || at <= from.getTime()) at += day;
  return new Date(at);
}

/**
 * Starts every required-training rule at the next Tuesday noon after the latest one, and returns
 * that time. A test that moves time by whole days from it lands on the same weekdays whatever day
 * and hour the suite runs (the manager digest is due on Mondays), and every other row's created_at
 * (people, enrolments) stays before it, as when the rule was just made.
 */
export async function startRulesOnATuesday(db: TestDatabase): Promise<Date> {
  const latest = (await db.query<{ at: Date }>('select max(created_at) as at from public.required_training')).rows[0].at;
  const start = nextTuesdayNoon(new Date(latest));
  await db.query('update public.required_training set created_at = $1', [start.toISOString()]);
  return start;
}
