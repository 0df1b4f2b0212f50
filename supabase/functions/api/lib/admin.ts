// The administrator's check, for the admin routes (users, roles, settings, audit, imports, learning
// records): the database decides (private.is_admin), in the same transaction as the work.
import type { Context } from 'hono';
import type { Db, Statements, Tx } from './db.ts';
import { type Env, requireUser } from './auth.ts';
import { ApiError } from './errors.ts';

export const forbidden = (message = 'Only administrators may do this') => new ApiError(403, message);

export const LAST_ADMIN = 'The last administrator cannot be demoted or deleted. Make another user an administrator first.';

export async function isAdmin(tx: Tx): Promise<boolean> {
  const [row] = await adminCheck(tx);
  return row?.admin === true;
}

/** The statement of `isAdmin`, not yet run (for a read that sends it with the rest). */
export function adminCheck(tx: Statements) {
  return tx<{ admin: boolean }[]>`select private.is_admin() as admin`;
}

/** Postgres errors the database raises on purpose, as API answers. */
export function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  if (code === 'P0409') throw new ApiError(409, LAST_ADMIN);
  if (code === '42501') throw forbidden();
  if (code === '23505') throw new ApiError(409, 'That username or email is already in use');
  throw error;
}

/** Runs fn as the caller after checking, in the same transaction, that they are an admin. */
export function asAdmin<T>(db: Db, c: Context<Env>, fn: (tx: Tx, callerId: string) => Promise<T>): Promise<T> {
  const caller = requireUser(c);
  return db.withCaller(caller.db, async (tx) => {
    if (!(await isAdmin(tx))) throw forbidden();
    return await fn(tx, caller.userId);
  }).catch(fromDatabase);
}

/** A Postgres array literal of codes (`{UKPS,UKAS}`). */
export const pgArray = (codes: readonly string[]) => `{${codes.join(',')}}`;
