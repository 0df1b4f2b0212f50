// The learner's records: enrolments (list, unenrol), certificates (list, PDF, public verification)
// and the profile (name, email, password). Reads and writes run under the caller's RLS; Auth is
// called with the service role only for the caller's own email or password, after checking them.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import { type AuthSession, CERTIFICATE_TEMPLATES, type CertificateTemplate, DEFAULT_SITE_NAME } from '../../_shared/domain.ts';
import { CERTIFICATE_SCOPES, type CertificateState, type LearnerCertificate, type VerifiedCertificate } from '../../_shared/certificates.ts';
import { CURRENT_PASSWORD_INCORRECT, passwordChangeSchema, profileSchema } from '../../_shared/profile.ts';
import { serviceLabel } from '../../_shared/services.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Statements, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { readUser } from '../lib/users.ts';
import { certificatePdf } from '../lib/certificate-pdf.ts';
import { refuseCommonPassword } from '../lib/passwords.ts';
import { clientIp, succeeded, takeAttempt, tooMany } from '../lib/rate-limit.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CODE = /^[A-Za-z0-9]{8,32}$/;

const pagingSchema = z.object({
  scope: z.enum(CERTIFICATE_SCOPES, { error: 'Scope must be all, current or history' }).default('all'),
  page: z.coerce.number({ error: 'Page must be a whole number of at least 1' }).int('Page must be a whole number of at least 1').min(1, 'Page must be a whole number of at least 1').default(1),
  pageSize: z.coerce.number({ error: 'Page size must be between 1 and 100' }).int('Page size must be between 1 and 100').min(1, 'Page size must be between 1 and 100').max(100, 'Page size must be between 1 and 100').default(20),
});

/** A learner's enrolments come in pages of at most 100 (all of them by default, up to 100). */
export const ENROLLMENTS_PAGE_SIZE = 100;
const enrollmentPagingSchema = z.object({
  page: z.coerce.number({ error: 'Page must be a whole number of at least 1' }).int('Page must be a whole number of at least 1').min(1, 'Page must be a whole number of at least 1').max(100000, 'Page is too large').default(1),
  pageSize: z.coerce.number({ error: `Page size must be between 1 and ${ENROLLMENTS_PAGE_SIZE}` }).int(`Page size must be between 1 and ${ENROLLMENTS_PAGE_SIZE}`).min(1, `Page size must be between 1 and ${ENROLLMENTS_PAGE_SIZE}`).max(ENROLLMENTS_PAGE_SIZE, `Page size must be between 1 and ${ENROLLMENTS_PAGE_SIZE}`).default(ENROLLMENTS_PAGE_SIZE),
});

const notFound = (message = 'Not found') => new ApiError(404, message);

/** A path id: anything but a uuid cannot name a row, so it is a 404 rather than a database error. */
function pathId(c: Context, name: string, message: string): string {
  const value = c.req.param(name) ?? '';
  if (!UUID.test(value)) throw notFound(message);
  return value.toLowerCase();
}

const iso = (value: unknown): string | null =>
  value == null ? null : value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();

export interface EnrollmentRow {
  id: string;
  userId: string;
  courseId: string;
  status: string;
  progress: number;
  completed: boolean;
  startedAt: Date;
  completedAt: Date | null;
  lastAccessedModuleId: string | null;
  lastActivityAt: Date | null;
  completedModules: number;
  cycle: number;
  certificateId: string | null;
  certificateCycle: number | null;
  certificateIssuedAt: Date | null;
  certificateExpiresAt: Date | null;
  certificateRevokedAt: Date | null;
  certificateState: CertificateState | null;
  courseTitle: string | null;
  courseDescription: string | null;
  courseService: string | null;
  courseDuration: number | null;
  courseModules: number;
}

function toEnrollment(row: EnrollmentRow) {
  return {
    id: row.id,
    userId: row.userId,
    courseId: row.courseId,
    progress: row.progress,
    completed: row.completed,
    status: row.status,
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
    lastAccessedModuleId: row.lastAccessedModuleId,
    lastActivityAt: iso(row.lastActivityAt),
    completedModules: row.completedModules,
    cycle: row.cycle,
    certificateId: row.certificateId,
    // The latest certificate of the course (from this or an earlier cycle), with its validity.
    certificate: row.certificateId === null
      ? null
      : {
        id: row.certificateId,
        cycle: row.certificateCycle!,
        issuedAt: iso(row.certificateIssuedAt)!,
        expiresAt: iso(row.certificateExpiresAt),
        revokedAt: iso(row.certificateRevokedAt),
        state: row.certificateState!,
      },
    // null when the course is no longer visible to the caller (archived or withdrawn).
    course: row.courseTitle === null
      ? null
      : {
        id: row.courseId,
        title: row.courseTitle,
        description: row.courseDescription ?? '',
        service: row.courseService,
        duration: row.courseDuration,
        modules: row.courseModules,
      },
  };
}

interface CertificateRow {
  id: string;
  verificationCode: string;
  userId: string | null;
  courseId: string | null;
  learnerName: string;
  courseTitle: string;
  service: string | null;
  template: CertificateTemplate;
  issuedAt: Date;
  cycle: number;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
  state: CertificateState;
  current: boolean;
  enrolled: boolean;
  /** The course length in hours (only the PDF reads it). */
  hours?: number | null;
  recertifying: boolean;
}

function toCertificate(row: CertificateRow): LearnerCertificate {
  return {
    id: row.id,
    verificationCode: row.verificationCode,
    userId: row.userId,
    courseId: row.courseId,
    learnerName: row.learnerName,
    courseTitle: row.courseTitle,
    service: row.service,
    serviceLabel: row.service ? serviceLabel(row.service) : null,
    template: row.template,
    issuedAt: iso(row.issuedAt)!,
    cycle: row.cycle,
    expiresAt: iso(row.expiresAt),
    revokedAt: iso(row.revokedAt),
    revokedReason: row.revokedReason,
    state: row.state,
    current: row.current,
    enrolled: row.enrolled,
    recertifying: row.recertifying,
    verifyPath: `/verify/${row.verificationCode}`,
  };
}

/** `certificate-airwave-radio-voice-procedure-DEMO2026CERT0001.pdf`: ASCII only, safe in a header. */
export function certificateFileName(courseTitle: string, code: string): string {
  // Letters that NFKD does not split into base letter and accent.
  const extra: Record<string, string> = { 'ł': 'l', 'Ł': 'L', 'ø': 'o', 'Ø': 'O', 'đ': 'd', 'Đ': 'D', 'ß': 'ss', 'æ': 'ae', 'Æ': 'AE', 'œ': 'oe', 'Œ': 'OE' };
  const slug = courseTitle
    .replace(/[łŁøØđĐßæÆœŒ]/g, (ch) => extra[ch])
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `certificate-${slug ? `${slug}-` : ''}${code}.pdf`;
}

export function learnerRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  /** The public site for links printed on certificates: SITE_URL, else the project URL (local platform). */
  const siteUrl = () => (Deno.env.get('SITE_URL') || config.supabaseUrl).replace(/\/+$/, '');

  async function authAdmin(method: string, path: string, body: unknown): Promise<Response> {
    return await fetch(`${config.supabaseUrl}/auth/v1${path}`, {
      method,
      headers: {
        apikey: config.serviceRoleKey,
        authorization: `Bearer ${config.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  }

  // One query: each enrolment with its course, module count, modules done, certificate and last activity.
  routes.get('/users/:userId/enrollments', async (c) => {
    const caller = requireUser(c);
    const userId = pathId(c, 'userId', 'User not found');
    const paging = enrollmentPagingSchema.safeParse({
      page: c.req.query('page') ?? undefined,
      pageSize: c.req.query('pageSize') ?? undefined,
    });
    if (!paging.success) {
      const fields: Record<string, string> = {};
      for (const issue of paging.error.issues) fields[String(issue.path[0])] ??= issue.message;
      throw new ApiError(400, 'Validation failed', fields);
    }
    const { page, pageSize } = paging.data;
    // Another user's enrolments: admins see all, instructors those on their courses (RLS); a
    // learner is refused outright rather than shown an empty list. The caller's role comes in the
    // same round trip as the list.
    const list = (tx: Statements) =>
      tx<EnrollmentRow[]>`
        select e.id, e.user_id, e.course_id, e.status::text as status, e.progress, e.completed,
               e.started_at, e.completed_at, e.last_accessed_module_id,
               greatest(e.started_at, e.completed_at, ec.last_read, ec.last_completed) as last_activity_at,
               coalesce(ec.done, 0)::int as completed_modules, e.cycle,
               cert.id as certificate_id, cert.cycle as certificate_cycle, cert.issued_at as certificate_issued_at,
               cert.expires_at as certificate_expires_at, cert.revoked_at as certificate_revoked_at,
               private.certificate_state(cert.expires_at, cert.revoked_at) as certificate_state,
               ec.title as course_title, ec.description as course_description, ec.service::text as course_service,
               ec.duration as course_duration, coalesce(ec.modules, 0)::int as course_modules
        from public.enrollments e
        -- Each enrolled course's details, number of modules, modules done and latest activity, in one
        -- pass over the learner's enrolments and progress (private.enrolled_courses, under the rules
        -- of the progress, course and module policies: no row for a course the caller cannot see).
        left join private.enrolled_courses(${userId}::uuid) ec on ec.course_id = e.course_id
        -- The current certificate: the latest issued (certificates_user_course_issued_idx).
        left join lateral (
          select c.id, c.cycle, c.issued_at, c.expires_at, c.revoked_at from public.certificates c
          where c.user_id = e.user_id and c.course_id = e.course_id
          order by c.issued_at desc, c.cycle desc
          limit 1
        ) cert on true
        where e.user_id = ${userId}::uuid
        order by e.completed, greatest(e.started_at, e.completed_at, ec.last_read, ec.last_completed) desc nulls last, e.id
        limit ${pageSize} offset ${(page - 1) * pageSize}`;
    if (userId === caller.userId) {
      const [rows] = await db.read(caller.db, (tx) => [list(tx)]);
      return c.json(rows.map(toEnrollment));
    }
    const [rows, [me]] = await db.read(caller.db, (tx) => [list(tx), tx<{ role: string }[]>`select private.current_role()::text as role`]);
    if (me?.role === 'STUDENT') throw new ApiError(403, "You cannot view another user's enrolments.");
    return c.json(rows.map(toEnrollment));
  });

  routes.delete('/enrollments/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Enrolment not found');
    // RLS decides: the learner themselves, the course's authors or an admin.
    const deleted = await db.withCaller(caller.db, (tx) =>
      tx`delete from public.enrollments where id = ${id}::uuid returning id`);
    if (deleted.length === 0) throw notFound('Enrolment not found');
    return c.body(null, 204);
  });

  routes.get('/certificates', async (c) => {
    const caller = requireUser(c);
    const parsed = pagingSchema.safeParse({
      scope: c.req.query('scope') ?? undefined,
      page: c.req.query('page') ?? undefined,
      pageSize: c.req.query('pageSize') ?? undefined,
    });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      throw new ApiError(400, 'Validation failed', fields);
    }
    const { scope, page, pageSize } = parsed.data;
    // Current: no later certificate of the same course (a certificate whose course was deleted
    // stands alone). The newer-one probe uses certificates_user_course_issued_idx.
    const newer = (tx: Tx) => tx`exists (
      select 1 from public.certificates n
      where n.user_id = c.user_id and n.course_id = c.course_id
        and (n.issued_at, n.cycle) > (c.issued_at, c.cycle))`;
    const scoped = (tx: Tx) =>
      scope === 'current' ? tx`and not ${newer(tx)}` : scope === 'history' ? tx`and ${newer(tx)}` : tx``;
    const rows = await db.withCaller(caller.db, (tx) =>
      tx<(CertificateRow & { total: number })[]>`
        select c.id, c.verification_code, c.user_id, c.course_id, c.learner_name, c.course_title, c.service::text as service,
               c.template::text as template, c.issued_at, c.cycle, c.expires_at, c.revoked_at, c.revoked_reason,
               private.certificate_state(c.expires_at, c.revoked_at) as state, not ${newer(tx)} as current,
               (e.id is not null) as enrolled, coalesce(e.cycle > c.cycle, false) as recertifying,
               count(*) over ()::int as total
        from public.certificates c
        left join public.enrollments e on e.user_id = c.user_id and e.course_id = c.course_id
        where c.user_id = ${caller.userId}::uuid ${scoped(tx)}
        order by c.issued_at desc, c.id
        limit ${pageSize} offset ${(page - 1) * pageSize}`);
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && page > 1) {
      // Past the last page the window count is empty: count separately so the pager still knows.
      const [row] = await db.withCaller(caller.db, (tx) =>
        tx<{ total: number }[]>`select count(*)::int as total from public.certificates c
                                where c.user_id = ${caller.userId}::uuid ${scoped(tx)}`);
      total = row.total;
    }
    return c.json({ items: rows.map(toCertificate), total, page, pageSize });
  });

  routes.get('/certificates/verify/:code', async (c) => {
    const code = c.req.param('code');
    if (!CODE.test(code)) throw notFound('Certificate not found');
    const rows = await db.withCaller(c.get('caller').db, (tx) =>
      tx<Pick<CertificateRow, 'verificationCode' | 'learnerName' | 'courseTitle' | 'service' | 'issuedAt' | 'expiresAt' | 'revokedAt' | 'state'>[]>`
        select verification_code, learner_name, course_title, service::text as service, issued_at, expires_at, revoked_at, state
        from private.verify_certificate(${code})`);
    const row = rows[0];
    if (!row) throw notFound('Certificate not found');
    // Never the revocation reason: it may be personal, and the public needs only the fact and date.
    const body: VerifiedCertificate = {
      verificationCode: row.verificationCode,
      learnerName: row.learnerName,
      courseTitle: row.courseTitle,
      service: row.service,
      serviceLabel: row.service ? serviceLabel(row.service) : null,
      issuedAt: iso(row.issuedAt)!,
      expiresAt: iso(row.expiresAt),
      revokedAt: iso(row.revokedAt),
      state: row.state,
      valid: row.state === 'valid' || row.state === 'expiring',
    };
    return c.json(body);
  });

  routes.get('/certificates/:id/pdf', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Certificate not found');
    const found = await db.withCaller(caller.db, async (tx) => {
      const [certificate] = await tx<CertificateRow[]>`
        select id, verification_code, user_id, course_id, learner_name, course_title, service::text as service,
               template::text as template, issued_at, expires_at, revoked_at,
               (select co.duration from public.courses co where co.id = certificates.course_id) as hours
        from public.certificates where id = ${id}::uuid`;
      const [settings] = await tx<{ certificateTemplate: string; siteName: string; footerText: string }[]>`
        select certificate_template::text as certificate_template, site_name, footer_text from public.settings where id`;
      return { certificate, settings };
    });
    const { certificate, settings } = found;
    if (!certificate) throw notFound('Certificate not found');
    // A revoked certificate is no longer a certificate: no document that could pass for one.
    if (certificate.revokedAt) throw new ApiError(409, 'This certificate was revoked and cannot be downloaded');
    // The template chosen in settings now (DESIGN.md §3), so an admin's change applies to every download.
    const template = (CERTIFICATE_TEMPLATES as readonly string[]).includes(settings?.certificateTemplate ?? '')
      ? settings!.certificateTemplate as CertificateTemplate
      : certificate.template;
    const pdf = await certificatePdf(template, {
      verificationCode: certificate.verificationCode,
      learnerName: certificate.learnerName,
      courseTitle: certificate.courseTitle,
      service: certificate.service,
      issuedAt: new Date(certificate.issuedAt),
      expiresAt: certificate.expiresAt ? new Date(certificate.expiresAt) : null,
      verifyUrl: `${siteUrl()}/verify/${certificate.verificationCode}`,
      siteName: settings?.siteName ?? DEFAULT_SITE_NAME,
      footerText: settings?.footerText ?? '',
      hours: typeof certificate.hours === 'number' ? certificate.hours : null,
    });
    const fileName = certificateFileName(certificate.courseTitle, certificate.verificationCode);
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    });
  });

  routes.put('/profile', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, profileSchema);
    const current = await db.withCaller(caller.db, (tx) => readUser(tx, caller.userId));
    if (!current) throw new ApiError(401, 'Not signed in');
    const newEmail = input.email.toLowerCase();
    const emailChanges = newEmail !== current.email.toLowerCase();

    if (emailChanges) {
      const taken = await db.withServiceRole(async (tx) => {
        const [row] = await tx<{ taken: boolean }[]>`select private.email_taken(${newEmail}) as taken`;
        return row.taken;
      });
      if (taken) throw emailTaken();
      // Auth first (it owns sign-in by email); its trigger copies the email into the profile.
      // Not inside the profile transaction: Auth's update of the profile would wait on our lock.
      const response = await authAdmin('PUT', `/admin/users/${caller.userId}`, { email: newEmail, email_confirm: true });
      const body = await response.json().catch(() => ({}));
      if (response.status === 422 && /email_exists|already been registered/i.test(`${body.code ?? body.error_code ?? ''} ${body.msg ?? body.message ?? ''}`)) {
        throw emailTaken();
      }
      if (!response.ok) throw new Error(`Auth email update failed with ${response.status}`);
    }

    try {
      const user = await db.withCaller(caller.db, async (tx: Tx) => {
        await tx`update public.profiles set name = ${input.name} where id = ${caller.userId}::uuid`;
        return await readUser(tx, caller.userId);
      });
      return c.json(user);
    } catch (error) {
      // Keep Auth and the profile in step: undo the email change when the profile could not follow.
      if (emailChanges) {
        await authAdmin('PUT', `/admin/users/${caller.userId}`, { email: current.email, email_confirm: true })
          .then((r) => r.body?.cancel())
          .catch((undo) => console.error('Could not restore the email after a failed profile update:', undo));
      }
      throw error;
    }
  });

  /** The person has chosen their own password: a temporary one no longer holds them back. Only the
   * service role writes must_change_password (no API role holds a privilege on the column). */
  const passwordChosen = (userId: string) =>
    db.withServiceRole((tx) => tx`
      update public.profiles set must_change_password = false
      where id = ${userId}::uuid and must_change_password`);

  routes.put('/profile/password', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, passwordChangeSchema);
    const current = await db.withCaller(caller.db, (tx) => readUser(tx, caller.userId));
    if (!current) throw new ApiError(401, 'Not signed in');
    await refuseCommonPassword(input.newPassword, 'newPassword');
    // Guessing the current password here counts against the same limit as signing in.
    const ticket = await takeAttempt(db, 'sign_in', current.email, clientIp(c));

    const grant = await fetch(`${config.supabaseUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: config.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: current.email, password: input.currentPassword }),
    });
    const granted = await grant.json().catch(() => ({}));
    if (grant.status === 429) throw tooMany('sign_in', 900);
    if (grant.status >= 400 && grant.status < 500) {
      throw new ApiError(400, CURRENT_PASSWORD_INCORRECT, { currentPassword: CURRENT_PASSWORD_INCORRECT });
    }
    if (!grant.ok || typeof granted.access_token !== 'string') throw new Error(`Auth password check failed with ${grant.status}`);
    await succeeded(db, ticket);
    const fresh = { apikey: config.anonKey, authorization: `Bearer ${granted.access_token}`, 'content-type': 'application/json' };
    const changePassword = (headers: Record<string, string>) =>
      fetch(`${config.supabaseUrl}/auth/v1/user`, { method: 'PUT', headers, body: JSON.stringify({ password: input.newPassword }) });
    const refusal = async (response: Response) => {
      const body = await response.json().catch(() => ({}));
      const message = String(body.msg ?? body.message ?? 'Password could not be changed');
      return { code: String(body.error_code ?? body.code ?? ''), error: new ApiError(400, message, { newPassword: message }) };
    };

    // As the user (not the admin API): Auth keeps this session. Then every other session of the
    // user ends, whether or not Auth already did so itself (GoTrue does on a password change).
    const asUser = { apikey: config.anonKey, authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' };
    const response = await changePassword(asUser);
    if (response.status === 400 || response.status === 422) {
      const refused = await refusal(response);
      if (refused.code !== 'reauthentication_needed') throw refused.error;
      // Auth's secure password change: this session is over 24 hours old, so Auth wants the code it
      // emails. The current password was checked just now, which is what that code proves: change
      // it from the session that check opened. Auth keeps that session and ends every other one
      // (this one too), so the browser carries on with the new session.
      const again = await changePassword(fresh);
      if (again.status === 400 || again.status === 422) throw (await refusal(again)).error;
      await again.body?.cancel();
      if (!again.ok) throw new Error(`Auth password update failed with ${again.status}`);
      await passwordChosen(caller.userId);
      const session: AuthSession = {
        access_token: granted.access_token,
        refresh_token: String(granted.refresh_token),
        expires_in: Number(granted.expires_in),
        expires_at: Number(granted.expires_at ?? Math.floor(Date.now() / 1000) + Number(granted.expires_in)),
        token_type: 'bearer',
      };
      return c.json({ session }, 200);
    }
    // The check opened a session of its own: close it.
    await fetch(`${config.supabaseUrl}/auth/v1/logout?scope=local`, { method: 'POST', headers: fresh })
      .then((r) => r.body?.cancel()).catch(() => {});
    await response.body?.cancel();
    if (!response.ok) throw new Error(`Auth password update failed with ${response.status}`);
    const others = await fetch(`${config.supabaseUrl}/auth/v1/logout?scope=others`, { method: 'POST', headers: asUser });
    await others.body?.cancel();
    if (!others.ok) throw new Error(`Ending the other sessions failed with ${others.status}`);
    await passwordChosen(caller.userId);
    return c.body(null, 204);
  });

  return routes;
}

const emailTaken = () => new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });
