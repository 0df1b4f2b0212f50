// Every kept count against its live rule (private.kept_counts_drift, supabase/schemas/22_kept_counts.sql):
// one row per difference, none when they all hold. Run as the database's owner with a caller's claims
// (the seed's national administrator): the status rule counts no one for a visitor.
import { claimsFor, personas, type Queryable, type TestDatabase } from './database';

export interface Drift {
  kept: string;
  difference: string;
  item: Record<string, unknown>;
}

/** The differences, inside a transaction the caller holds (its claims are set for the rest of it). */
export async function keptCountsDriftIn(tx: Queryable): Promise<Drift[]> {
  await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claimsFor(personas.admin))]);
  return (await tx.query<Drift>('select kept, difference, item from private.kept_counts_drift()')).rows;
}

/** The differences, in a transaction of their own. */
export function keptCountsDrift(db: TestDatabase): Promise<Drift[]> {
  return db.transaction(keptCountsDriftIn);
}
