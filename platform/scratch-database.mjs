// A scratch database for the platform's tests: in-memory PGlite with platform/bootstrap.sql
// applied, served over the wire protocol on a free port.
import { readFile } from 'node:fs/promises';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createPGlite } from './pglite.mjs';

/**
 * A scratch database: in-memory PGlite with the bootstrap applied, served on a free port.
 * @returns {Promise<{ url: string, stop(): Promise<void> }>}
 */
export async function startScratchDatabase() {
  const db = await createPGlite();
  await db.exec(await readFile(new URL('./bootstrap.sql', import.meta.url), 'utf8'));
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 20 });
  await server.start();
  return {
    url: `postgresql://postgres:postgres@${server.getServerConn()}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

