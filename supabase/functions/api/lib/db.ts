// Postgres access. Every request's SQL runs in one transaction under the caller's database role
// (anon or authenticated) with the caller's JWT claims, so row-level security decides everything.
import postgres from 'postgres';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

/** Who the database should believe is asking. */
export interface DbCaller {
  role: 'anon' | 'authenticated';
  claims: Record<string, unknown>;
}

export interface Db {
  /** The base connection (the function's own role): only for checks the platform itself makes. */
  sql: Sql;
  withCaller<T>(caller: DbCaller, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** service_role: only for the private functions of sign-in and registration. */
  withServiceRole<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  end(): Promise<void>;
}

export function createDb(url: string): Db {
  const sql = postgres(url, {
    // pglite-socket multiplexes connections onto one session, and Supavisor's transaction mode
    // cannot keep named prepared statements either.
    prepare: false,
    max: 5,
    idle_timeout: 20,
    connect_timeout: 10,
    // snake_case columns come out camelCase: the one place that converts (DESIGN.md §4).
    transform: postgres.camel,
    onnotice: () => {},
    connection: { application_name: 'api-function' },
  });

  async function run<T>(role: 'anon' | 'authenticated' | 'service_role', claims: Record<string, unknown>, fn: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await sql.begin(async (tx) => {
      // role is one of three literals, never user input.
      await tx.unsafe(`set local role ${role}`);
      await tx`select set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
      return await fn(tx);
    });
    return result as T;
  }

  return {
    sql,
    withCaller: (caller, fn) => run(caller.role, caller.claims, fn),
    withServiceRole: (fn) => run('service_role', { role: 'service_role' }, fn),
    end: () => sql.end({ timeout: 5 }),
  };
}

/** A LIKE pattern that finds `term` anywhere, with %, _ and \ in the term taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
