// The Hono app behind every /api/* path: caller middleware, one router per resource, one error
// handler that answers `{ message, fields? }` and never leaks a stack or SQL text.
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { cors } from 'hono/cors';
import { type Config, configFromEnv } from './lib/config.ts';
import { createDb, type Db } from './lib/db.ts';
import { createCallerMiddleware, createPasswordChangeGate, type Env } from './lib/auth.ts';
import { ApiError } from './lib/errors.ts';
import { securityHeaders } from './lib/security-headers.ts';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from './lib/unavailable.ts';
import { authRoutes } from './routes/auth.ts';
import { courseRoutes } from './routes/courses.ts';
import { adminRoutes } from './routes/admin.ts';
import { adminImportRoutes } from './routes/admin-import.ts';
import { learnerRoutes } from './routes/learner.ts';
import { instructorRoutes } from './routes/instructor.ts';
import { authoringRoutes } from './routes/authoring.ts';
import { learningRecordRoutes } from './routes/learning-record.ts';
import { complianceRoutes } from './routes/compliance.ts';
import { adminCertificateRoutes } from './routes/admin-certificates.ts';

export function createApp(config: Config, db: Db = createDb(config.dbUrl)) {
  const app = new Hono<Env>().basePath('/api');

  app.use('*', securityHeaders());
  // Hosted Supabase leaves CORS to the function; preflights are answered before any auth check.
  app.use(
    '*',
    cors({
      origin: '*',
      allowHeaders: ['authorization', 'apikey', 'content-type', 'x-client-info'],
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    }),
  );
  app.use('*', createCallerMiddleware(config, db));
  app.use('*', createPasswordChangeGate(db));
  app.route('/', authRoutes(config, db));
  app.route('/', courseRoutes(config, db));
  app.route('/', adminRoutes(config, db));
  app.route('/', adminImportRoutes(config, db));
  app.route('/', learnerRoutes(config, db));
  app.route('/', instructorRoutes(config, db));
  app.route('/', authoringRoutes(config, db));
  app.route('/', learningRecordRoutes(config, db));
  app.route('/', complianceRoutes(config, db));
  app.route('/', adminCertificateRoutes(config, db));

  app.notFound((c) => c.json({ message: 'Not found' }, 404));

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      const body = error.fields ? { message: error.message, fields: error.fields } : { message: error.message };
      return c.json(body, error.status, error.headers);
    }
    if (error instanceof HTTPException) {
      const message = error.status >= 500 ? 'Internal server error' : error.message || 'Request failed';
      return c.json({ message }, error.status);
    }
    if (isDatabaseUnavailable(error)) {
      console.error(`${c.req.method} ${c.req.path}: database unavailable (${(error as { code?: string }).code})`);
      return c.json({ message: DATABASE_UNAVAILABLE }, 503, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
    }
    console.error(`${c.req.method} ${c.req.path} failed:`, error);
    return c.json({ message: 'Internal server error' }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;

export const app = createApp(configFromEnv());
