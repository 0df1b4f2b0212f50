// /api/modules/:id/scorm: a module's SCORM package, mounted by the modules router. The author's
// upload and settings (./package.ts) and the learner's player and sessions with the instructor's view
// (./runtime.ts); a session's saves are under /api/scorm/sessions (../../scorm-sessions.ts).
import { Hono } from 'hono';
import type { Config } from '../../../lib/config.ts';
import type { Db } from '../../../lib/db.ts';
import type { Env } from '../../../lib/auth.ts';
import { scormPackageRoutes } from './package.ts';
import { scormRuntimeRoutes } from './runtime.ts';

export function moduleScormRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();
  scormPackageRoutes(routes, config, db);
  scormRuntimeRoutes(routes, config, db);
  return routes;
}
