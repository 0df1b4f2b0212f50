// The Hono app behind every /api/* path: caller middleware, one router per resource, one error
// handler that answers `{ message, fields? }` and never leaks a stack or SQL text.
import { Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { cors } from 'hono/cors';
import { type Config, configFromEnv } from './lib/config.ts';
import { createDb, type Db } from './lib/db.ts';
import { createCallerMiddleware, createPasswordChangeGate, type Env } from './lib/auth.ts';
import { ApiError } from './lib/errors.ts';
import { securityHeaders } from './lib/security-headers.ts';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable, RETRY_AFTER_SECONDS } from './lib/unavailable.ts';
import { authRoutes } from './routes/auth.ts';
import { profileRoutes } from './routes/profile.ts';
import { courseRoutes } from './routes/courses/index.ts';
import { moduleRoutes } from './routes/modules/index.ts';
import { quizRoutes } from './routes/quizzes/index.ts';
import { questionRoutes } from './routes/questions.ts';
import { enrollmentRoutes } from './routes/enrollments.ts';
import { certificateRoutes } from './routes/certificates/index.ts';
import { adminCertificateRoutes } from './routes/certificates/admin.ts';
import { userRoutes } from './routes/users/index.ts';
import { importRoutes } from './routes/imports.ts';
import { roleRoutes } from './routes/roles.ts';
import { organisationRoutes } from './routes/organisations.ts';
import { settingsRoutes } from './routes/settings.ts';
import { auditRoutes } from './routes/audit.ts';
import { instructorRoutes } from './routes/instructor.ts';
import { requiredTrainingRoutes, myRequiredTrainingRoutes } from './routes/required-training.ts';
import { complianceRoutes } from './routes/compliance.ts';
import { compliancePracticalsRoutes } from './routes/compliance-practicals.ts';
import { learnerRecordRoutes, myLearningRecordRoutes } from './routes/learning-record.ts';
import { cpdEntryRoutes } from './routes/cpd-entries.ts';
import { notificationRoutes } from './routes/notifications/index.ts';
import { SCHEDULE_CALL } from './routes/notifications/deliver.ts';
import { notificationPreferenceRoutes } from './routes/notification-preferences.ts';
import { teamRoutes } from './routes/team.ts';
import { scormSessionRoutes } from './routes/scorm-sessions.ts';
import { sessionRoutes } from './routes/sessions/index.ts';
import { moduleBookingRoutes, moduleSessionRoutes } from './routes/sessions/module.ts';
import { moduleTrainerRoutes } from './routes/sessions/trainers.ts';
import { sessionRegisterRoutes } from './routes/sessions/register.ts';
import { bookingRoutes } from './routes/sessions/bookings.ts';
import { sessionCalendarRoutes } from './routes/sessions/calendar.ts';
import { SCIM_PATH, scimRoutes } from './routes/scim/index.ts';
import { scimTokenRoutes } from './routes/scim/tokens.ts';
import { organisationDomainRoutes } from './routes/sign-in/domains.ts';
import { signInLookupRoutes } from './routes/sign-in/lookup.ts';
import { organisationSignInRoutes } from './routes/sign-in/settings.ts';
import { moduleAssessmentRoutes } from './routes/assessments/module.ts';
import { assessmentCriterionRoutes } from './routes/assessments/criteria.ts';
import { assessmentEvidenceRoutes, assessmentRecordRoutes } from './routes/assessments/records.ts';
import { assessmentQueueRoutes } from './routes/assessments/queue.ts';
import { courseAssessorRoutes } from './routes/assessments/assessors.ts';
import { issuerRoutes } from './routes/issuers.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { passportRoutes } from './routes/passport.ts';
import { heldCredentialRoutes } from './routes/passport-held.ts';
import { recognitionRoutes } from './routes/recognition.ts';
import { courseAchievementRoutes } from './routes/courses/achievement.ts';
import { signRecentlyIssued } from './lib/credentials/sign.ts';
import { credentialUrls } from './lib/credentials/urls.ts';

/** The middleware for people (visitors and the signed-in), passed by for the schedule's call and for
 * SCIM, whose bearer is an organisation's SCIM token that its SQL functions check themselves. */
function forPeople(middleware: MiddlewareHandler<Env>): MiddlewareHandler<Env> {
  return (c, next) =>
    (c.req.method === SCHEDULE_CALL.method && c.req.path === SCHEDULE_CALL.path) || SCIM_PATH.test(c.req.path)
      ? next()
      : middleware(c, next);
}

export function createApp(config: Config, db: Db = createDb(config.dbUrl)) {
  const app = new Hono<Env>().basePath('/api');

  app.use('*', securityHeaders());
  // Hosted Supabase leaves CORS to the function; preflights are answered before any auth check.
  app.use(
    '*',
    cors({
      origin: '*',
      allowHeaders: ['authorization', 'apikey', 'content-type', 'x-client-info'],
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    }),
  );
  // The schedule's call carries the service role key, checked by its route, and SCIM an
  // organisation's token, checked in SQL: the caller middleware, which knows only visitors and
  // people, and the password gate pass them by.
  app.use('*', forPeople(createCallerMiddleware(config, db)));
  app.use('*', forPeople(createPasswordChangeGate(db)));
  // After a write that may have issued certificates, their credentials are signed (in the
  // background, at most one run at a time): 28_credentials.sql makes them pending.
  app.use('*', async (c, next) => {
    await next();
    if (c.req.method !== 'GET' && c.req.method !== 'OPTIONS' && c.res.status < 400) signRecentlyIssued(db, credentialUrls(config));
  });
  // One router per resource, at its prefix: the file that answers a URL is named by its first segments.
  // Only the application's own middleware above runs before them (no router adds any), and no two
  // routers answer the same method and path, so the order below decides nothing.
  app.route('/', authRoutes(config, db)); // /register, /login, /logout, /user
  app.route('/profile', profileRoutes(config, db));
  app.route('/courses', courseRoutes(config, db));
  app.route('/modules', moduleRoutes(config, db));
  app.route('/scorm/sessions', scormSessionRoutes(config, db)); // a SCORM session's saves
  app.route('/modules/:moduleId/sessions', moduleSessionRoutes(config, db)); // a session module's dates
  app.route('/modules/:moduleId/booking', moduleBookingRoutes(config, db)); // booking one of them
  app.route('/modules/:moduleId/trainers', moduleTrainerRoutes(config, db)); // who may run its dates
  app.route('/sessions', sessionRoutes(config, db)); // a classroom session: detail, change, cancel, CSV, walk-ins
  app.route('/sessions/:id/register', sessionRegisterRoutes(config, db)); // its register
  app.route('/bookings', bookingRoutes(config, db)); // move, cancel, offers, the manager's approval
  app.route('/instructor/sessions', sessionCalendarRoutes(config, db)); // the instructor's session calendar
  app.route('/quizzes', quizRoutes(config, db));
  app.route('/questions', questionRoutes(config, db));
  app.route('/enrollments', enrollmentRoutes(config, db));
  app.route('/certificates', certificateRoutes(config, db));
  app.route('/admin/certificates', adminCertificateRoutes(config, db));
  app.route('/users', userRoutes(config, db));
  app.route('/admin/users', importRoutes(config, db)); // /import/preview, /import, /export.csv
  app.route('/admin/users/:id', learnerRecordRoutes(config, db)); // /learning-record[.pdf|.csv]
  app.route('/roles', roleRoutes(config, db));
  app.route('/organisations', organisationRoutes(config, db));
  app.route('/organisations/:id/scim', scimTokenRoutes(config, db)); // an organisation's SCIM base URL and tokens
  app.route('/scim/v2', scimRoutes(config, db)); // SCIM 2.0 provisioning, with an organisation's SCIM token
  app.route('/organisations/:id/sign-in', organisationSignInRoutes(config, db)); // sign-in through its identity provider
  app.route('/organisations/:id/domains', organisationDomainRoutes(config, db)); // its email domains
  app.route('/sign-in', signInLookupRoutes(db)); // /organisation?email=: how a work address signs in
  app.route('/settings', settingsRoutes(config, db));
  app.route('/audit', auditRoutes(config, db));
  app.route('/instructor', instructorRoutes(config, db));
  app.route('/required-training', requiredTrainingRoutes(config, db));
  app.route('/compliance/practicals', compliancePracticalsRoutes(config, db)); // practical assessments by unit and person
  app.route('/compliance', complianceRoutes(config, db));
  app.route('/team', teamRoutes(config, db)); // a line manager's reports
  app.route('/me', myLearningRecordRoutes(config, db)); // /learning-record[.pdf|.csv]
  app.route('/me/cpd-entries', cpdEntryRoutes(config, db));
  app.route('/me/required-training', myRequiredTrainingRoutes(config, db));
  app.route('/notifications', notificationRoutes(config, db)); // the bell, /deliveries and resend, /deliver
  app.route('/me/notification-preferences', notificationPreferenceRoutes(config, db));
  app.route('/modules/:moduleId/assessment', moduleAssessmentRoutes(config, db)); // a practical assessment module
  app.route('/assessment-criteria', assessmentCriterionRoutes(config, db));
  app.route('/assessment-records', assessmentRecordRoutes(config, db));
  app.route('/assessment-evidence', assessmentEvidenceRoutes(config, db));
  app.route('/instructor/assessments', assessmentQueueRoutes(config, db)); // the assessor's queue and its CSV
  app.route('/courses/:courseId/assessors', courseAssessorRoutes(config, db));
  app.route('/courses/:courseId/achievement', courseAchievementRoutes(config, db)); // its Open Badges achievement
  app.route('/issuers', issuerRoutes(config, db)); // issuer profiles, keys, status lists; key rotation
  app.route('/credentials', credentialRoutes(config, db)); // /shared/:shareId, /verify
  app.route('/passport', passportRoutes(config, db)); // the learner's credentials
  app.route('/passport/held', heldCredentialRoutes(config, db)); // credentials of other issuers a learner uploads
  app.route('/recognition', recognitionRoutes(config, db)); // trusted issuers and equivalences of an organisation

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
