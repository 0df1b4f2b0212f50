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
/** What both a transaction and a read's connection can do: write a statement. */
export type Statements = postgres.ISql;
/** A piece of a statement (conditions, say) to put inside another. */
export type Fragment = postgres.Fragment;
/** A statement written but not yet sent (a postgres.js PendingQuery of any row type). */
export type Statement = Promise<unknown> & { execute(): unknown };

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
  /**
   * A read in one round trip: BEGIN, the caller's role and claims (and session check), the route's
   * statements and COMMIT are sent together on one connection. `statements` builds the statements
   * without running them (no await), so none can depend on another's answer and none can run after
   * COMMIT; their answers come back in order. For the reads whose statements are known up front.
   * Without prepared statements (PGlite) the same statements run in a transaction as withCaller's.
   */
  read<T extends readonly Statement[]>(
    caller: DbCaller,
    statements: (sql: Statements) => [...T],
    options?: ReadOptions,
  ): Promise<{ [K in keyof T]: Awaited<T[K]> }>;
  /** service_role: only for the private functions of sign-in and registration. */
  withServiceRole<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  end(): Promise<void>;
}

export interface ReadOptions {
  /**
   * Prepared statements keep the plan made once for the connection (plan_cache_mode
   * force_generic_plan for this transaction). Left to choose, Postgres planned the catalogue's page
   * again on every call, at national size only: a generic plan must assume that `LIMIT $n` keeps a
   * tenth of the courses, which looks dearer than a plan for 12 rows, so the larger the table, the
   * more each read cost. Only for statements whose generic plans are proven
   * (supabase/tests/query-plans.test.ts: no large table read whole). Without prepared statements
   * (PGlite) it changes nothing.
   */
  genericPlans?: boolean;
}

export const SESSION_REFUSED = 'Invalid or expired session';
const ANON_CLAIMS = JSON.stringify({ role: 'anon' });

/** Connections per function instance: enough to keep both cores of the database busy at 32 concurrent requests. */
export const POOL_SIZE = 8;

/**
 * Named prepared statements spare Postgres parsing and planning each query again: about a quarter
 * of a catalogue read's database time at scale. They are off unless DB_PREPARED_STATEMENTS
 * is `on`, because the embedded PGlite serves every connection in one session (pglite-socket), where
 * the statements' names would clash, and a pooler in transaction mode may not keep them either. The
 * local platform turns them on when it runs on a real Postgres.
 */
export const PREPARED_STATEMENTS = Deno.env.get('DB_PREPARED_STATEMENTS') === 'on';

/** A failure that is not an answer from Postgres (a PostgresError): the connection itself is gone. */
function connectionLost(error: unknown): boolean {
  return (error as { name?: unknown })?.name !== 'PostgresError';
}

/**
 * The outcome of each statement, in order. When the connection is lost, postgres.js fails the
 * statements it has sent but never those still waiting on its side (behind one whose parameter
 * types it asks for first), so the first such failure settles the lot; the rest stay unsettled.
 */
function settle(statements: readonly Statement[]): Promise<(PromiseSettledResult<unknown> | undefined)[]> {
  return new Promise((resolve) => {
    const outcomes: (PromiseSettledResult<unknown> | undefined)[] = new Array(statements.length);
    let pending = statements.length;
    statements.forEach((statement, i) => {
      statement.then(
        (value) => {
          outcomes[i] = { status: 'fulfilled', value };
          if (--pending === 0) resolve(outcomes);
        },
        (reason) => {
          outcomes[i] = { status: 'rejected', reason };
          if (--pending === 0 || connectionLost(reason)) resolve(outcomes);
        },
      );
    });
  });
}

const CONNECT_TIMEOUT_S = 10;

/**
 * Seconds a closed connection waits before it connects again, by the pool's connection errors in a
 * row. postgres.js's own backoff grows to 10-20 s while the database is away, and a transaction
 * handed to such a connection waited that long even once the database was back; here the wait is
 * at most a quarter of a second, so the pool serves again at once. An outage still fails each
 * request at once (a refused connection is an error, not a wait).
 */
export function reconnectDelay(retries: number): number {
  return Math.min(0.02 * 2 ** retries, 0.25);
}
/** Longer than a reservation waits under full load (32 requests on 8 connections: tens of ms). */
const RESERVE_RETRY_MS = 1000;

/**
 * A connection the database resets can also reject a read inside Deno's node:net that nobody awaits
 * (the pool has already failed the request that used it). Unheard, that rejection would end the
 * whole function; it is the database's reset, nothing else, so it is noted and passed over.
 */
function ignoreDatabaseResets(event: PromiseRejectionEvent) {
  const code = (event.reason as { code?: unknown } | null)?.code;
  if (code !== 'ECONNRESET' && code !== 'EPIPE') return;
  event.preventDefault();
  console.warn(`database connection reset (${code}): the pool reconnects on the next request`);
}
let resetsHandled = false;

export function createDb(url: string): Db {
  if (!resetsHandled) {
    globalThis.addEventListener('unhandledrejection', ignoreDatabaseResets);
    resetsHandled = true;
  }
  const sql = postgres(url, {
    prepare: PREPARED_STATEMENTS,
    max: POOL_SIZE,
    idle_timeout: 20,
    connect_timeout: CONNECT_TIMEOUT_S,
    backoff: reconnectDelay,
    // snake_case columns come out camelCase: the one place that converts, so SQL and JSON each keep their own style.
    transform: postgres.camel,
    onnotice: () => {},
    connection: { application_name: 'api-function' },
  });

  /**
   * One statement. The session row is read with the function's own privileges: permissions are
   * checked when the statement starts, before set_config changes the role for what follows. A
   * session that is gone gets the visitor's role and claims, so the statements sent right behind it
   * see nothing of the user's; the transaction is then rolled back (or, for a read, has read only
   * what a visitor may) and the answer is 401, whatever the route made of it.
   */
  function setup(
    q: Statements,
    role: 'anon' | 'authenticated' | 'service_role',
    claims: Record<string, unknown>,
    session: SessionCheck | undefined,
    genericPlans = false,
  ) {
    const claimsJson = JSON.stringify(claims);
    const check = session !== undefined && !session.verified;
    const keepPlans = genericPlans ? q`, set_config('plan_cache_mode', 'force_generic_plan', true) as plans` : q``;
    return check
      ? q<{ ok: boolean }[]>`
          with s as (
            select exists (select 1 from auth.sessions where id = ${session.id}::uuid and user_id = ${session.userId}::uuid) as ok
          )
          select s.ok,
                 set_config('request.jwt.claims', case when s.ok then ${claimsJson} else ${ANON_CLAIMS} end, true) as claims,
                 set_config('role', case when s.ok then ${role}::text else 'anon' end, true) as role
                 ${keepPlans}
          from s`
      : q<{ ok: boolean }[]>`
          select true as ok, set_config('request.jwt.claims', ${claimsJson}, true) as claims,
                 set_config('role', ${role}::text, true) as role ${keepPlans}`;
  }

  async function run<T>(
    role: 'anon' | 'authenticated' | 'service_role',
    claims: Record<string, unknown>,
    session: SessionCheck | undefined,
    fn: (tx: Tx) => Promise<T>,
    genericPlans = false,
  ): Promise<T> {
    const result = await sql.begin(async (tx) => {
      // Sent now, without waiting for its answer: the route's first query follows in the same pipeline.
      const ready = setup(tx, role, claims, session, genericPlans).then((rows) => rows[0]?.ok === true);
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

  /**
   * A connection of the pool for one read. postgres.js 3.4 can drop a waiting reservation: when
   * another connection closes at that moment, it hands the reservation to its reconnection, which
   * never resolves it. So a reservation that has not come within RESERVE_RETRY_MS is asked for
   * again (and released if it comes after all), until connect_timeout has passed.
   */
  async function reserve(): Promise<postgres.ReservedSql> {
    const deadline = Date.now() + CONNECT_TIMEOUT_S * 1000;
    for (;;) {
      const reservation = sql.reserve();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), RESERVE_RETRY_MS)));
      const connection = await Promise.race([reservation, late]).finally(() => clearTimeout(timer));
      if (connection) return connection;
      reservation.then((c) => c.release(), () => {});
      if (Date.now() > deadline) throw Object.assign(new Error('No connection of the pool came in time'), { code: 'CONNECT_TIMEOUT' });
    }
  }

  async function read<T extends readonly Statement[]>(
    caller: DbCaller,
    statements: (sql: Statements) => [...T],
    { genericPlans = false }: ReadOptions = {},
  ): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
    // Without prepared statements (PGlite) postgres.js asks for each parametrised statement's types
    // before sending the next, so one round trip cannot be had: the statements go in a transaction.
    if (!PREPARED_STATEMENTS) {
      const answers = await run(caller.role, caller.claims, caller.session, (tx) => Promise.all(statements(tx)), genericPlans);
      return answers as { [K in keyof T]: Awaited<T[K]> };
    }
    const connection = await reserve();
    let lost = false;
    try {
      const begin = connection`begin`;
      const ready = setup(connection, caller.role, caller.claims, caller.session, genericPlans);
      const reads = statements(connection);
      // A failed statement aborts the transaction: those after it fail too, and COMMIT rolls back.
      const commit = connection`commit`;
      const all = [begin, ready, ...reads, commit];
      for (const statement of all) statement.execute();
      const settled = await settle(all);
      const failure = settled.find((outcome) => outcome?.status === 'rejected');
      if (failure) {
        lost = connectionLost((failure as PromiseRejectedResult).reason);
        // A session that is gone ran the statements as a visitor: a function granted only to users
        // then failed for want of rights, and the answer is still 401, not that failure.
        const checked = settled[1];
        if (checked?.status === 'fulfilled' && (checked.value as postgres.Row[])[0]?.ok !== true) throw unauthorized(SESSION_REFUSED);
        throw (failure as PromiseRejectedResult).reason;
      }
      const [, setupRows] = settled as PromiseFulfilledResult<postgres.Row[]>[];
      if (setupRows.value[0]?.ok !== true) throw unauthorized(SESSION_REFUSED);
      if (caller.session) caller.session.verified = true;
      return settled.slice(2, 2 + reads.length).map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as {
        [K in keyof T]: Awaited<T[K]>;
      };
    } finally {
      // A lost connection has been set aside by postgres.js, to connect again when needed;
      // released, it would go back to the pool as if it were open.
      if (!lost) connection.release();
    }
  }

  return {
    sql,
    read,
    withCaller: (caller, fn) => run(caller.role, caller.claims, caller.session, fn),
    withServiceRole: (fn) => run('service_role', { role: 'service_role' }, undefined, fn),
    end: () => sql.end({ timeout: 5 }),
  };
}

/** A LIKE pattern that finds `term` anywhere, with %, _ and \ in the term taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
