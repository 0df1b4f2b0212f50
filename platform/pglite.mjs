// Embedded Postgres (PGlite) with the extensions that a Supabase database offers and that our
// migrations use. The one place that creates a PGlite, for the platform and the tests.
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * @param {string} [dataDir] a directory to persist to; in memory when omitted
 * @param {{ loadDataDir?: Blob }} [more] e.g. a data directory dump (`dumpDataDir()`) to start from
 */
export function createPGlite(dataDir, more = {}) {
  const options = { ...more, extensions: { pgcrypto, pg_trgm } };
  return dataDir ? PGlite.create(dataDir, options) : PGlite.create(options);
}
