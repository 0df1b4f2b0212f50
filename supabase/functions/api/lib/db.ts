// Postgres access. Every request's SQL runs in one transaction under the caller's database role
// (anon or authenticated) with the caller's JWT claims, so row-level security decides everything.
//
// Statements and round trips are the cost of a request here, so after BEGIN one statement sets the
// role and the claims and (for a signed-in caller not yet checked in this request) checks that the
// session still exists, and it is pipelined with the route's first query. A read with one query is
// four statements in three round trips (BEGIN, setup + query, COMMIT) instead of six statements in
// six round trips (session check, BEGIN, SET LOCAL ROLE, set_config, query, COMMIT).
import postgres from 'postgres';
import { unauthorized } from './errors.ts';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

/**
 * A signed-in caller's session (the JWT's session_id and sub). Auth deletes the row when the user
 * signs out or the session is revoked; the first transaction of a request checks it is still there
 * and sets `verified`, so later transactions of the same request skip the check.
 */
export interface SessionCheck {
  id: string;
  userId: string;
  verified: boolean;
}

/** Who the database should believe is asking. */
export interface DbCaller {
  role: 'anon' | 'authenticated';
  claims: Record<string, unknown>;
  /** Checked in the same round trip as the role and claims; a missing row is a 401 and nothing is committed. */
  session?: SessionCheck;
}

export interface Db {
  /** The base connection (the function's own role): only for checks the platform itself makes. */
  sql: Sql;
  withCaller<T>(caller: DbCaller, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** service_role: only for the private functions of sign-in and registration. */
  withServiceRole<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  end(): Promise<void>;
}

export const SESSION_REFUSED = 'Invalid or expired session';
const ANON_CLAIMS = JSON.stringify({ role: 'anon' });

/** Connections per function instance: enough to keep both cores of the database busy at 32 concurrent requests. */
export const POOL_SIZE = 8;

/**
 * Named prepared statements spare Postgres parsing and planning each query again: about a quarter
 * of a catalogue read's database time at scale (issue 6). They are off unless DB_PREPARED_STATEMENTS
 * is `on`, because the embedded PGlite serves every connection in one session (pglite-socket), where
 * the statements' names would clash, and a pooler in transaction mode may not keep them either. The
 * local platform turns them on when it runs on a real Postgres.
 */
export const PREPARED_STATEMENTS = Deno.env.get('DB_PREPARED_STATEMENTS') === 'on';

export function createDb(url: string): Db {
  const sql = postgres(url, {
    prepare: PREPARED_STATEMENTS,
    max: POOL_SIZE,
    idle_timeout: 20,
    connect_timeout: 10,
    // snake_case columns come out camelCase: the one place that converts (DESIGN.md §4).
    transform: postgres.camel,
    onnotice: () => {},
    connection: { application_name: 'api-function' },
  });

  async function run<T>(
    role: 'anon' | 'authenticated' | 'service_role',
    claims: Record<string, unknown>,
    session: SessionCheck | undefined,
    fn: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    const claimsJson = JSON.stringify(claims);
    const check = session !== undefined && !session.verified;
    const result = await sql.begin(async (tx) => {
      // One statement. The session row is read with the function's own privileges: permissions are
      // checked when the statement starts, before set_config changes the role for what follows.
      // A session that is gone gets the visitor's role and claims, so the route's first query (sent
      // right behind it) sees nothing of the user's; the transaction is then rolled back and the
      // answer is 401, whatever the route made of it.
      const setup = check
        ? tx<{ ok: boolean }[]>`
            with s as (
              select exists (select 1 from auth.sessions where id = ${session.id}::uuid and user_id = ${session.userId}::uuid) as ok
            )
            select s.ok,
                   set_config('request.jwt.claims', case when s.ok then ${claimsJson} else ${ANON_CLAIMS} end, true) as claims,
                   set_config('role', case when s.ok then ${role}::text else 'anon' end, true) as role
            from s`
        : tx<{ ok: boolean }[]>`
            select true as ok, set_config('request.jwt.claims', ${claimsJson}, true) as claims,
                   set_config('role', ${role}::text, true) as role`;
      // Sent now, without waiting for its answer: the route's first query follows in the same pipeline.
      const ready = setup.then((rows) => rows[0]?.ok === true);
      ready.catch(() => {});
      let outcome: { value: T } | { error: unknown };
      try {
        outcome = { value: await fn(tx) };
      } catch (error) {
        outcome = { error };
      }
      if (!(await ready)) throw unauthorized(SESSION_REFUSED);
      if (session) session.verified = true;
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    });
    return result as T;
  }

  return {
    sql,
    withCaller: (caller, fn) => run(caller.role, caller.claims, caller.session, fn),
    withServiceRole: (fn) => run('service_role', { role: 'service_role' }, undefined, fn),
    end: () => sql.end({ timeout: 5 }),
  };
}

/**
 * For the rest of the transaction, prepared statements keep the plan made once for the connection.
 * Left to choose, Postgres planned the catalogue's page again on every call, at national size only:
 * a generic plan must assume that `LIMIT $n` keeps a tenth of the courses, which looks dearer than a
 * plan for 12 rows, so the larger the table, the more each read cost (issue 6). Only statements
 * whose generic plans are proven go here (supabase/tests/query-plans.test.ts: no large table read
 * whole). Without prepared statements (PGlite) it changes nothing. The statement is sent at once, so
 * that it precedes the statements made after it, even those that an async function sends while a
 * Promise.all's array is still being built.
 */
export function keepGenericPlans(tx: Tx) {
  return tx`set local plan_cache_mode = force_generic_plan`.execute();
}

/** A LIKE pattern that finds `term` anywhere, with %, _ and \ in the term taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
