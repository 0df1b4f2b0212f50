// The learner's records: enrolments (list, unenrol), certificates (list, PDF, public verification)
// and the profile (name, email, password). Reads and writes run under the caller's RLS; Auth is
// called with the service role only for the caller's own email or password, after checking them.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import { CERTIFICATE_TEMPLATES, type CertificateTemplate, DEFAULT_SITE_NAME } from '../../_shared/domain.ts';
import { CURRENT_PASSWORD_INCORRECT, passwordChangeSchema, profileSchema } from '../../_shared/profile.ts';
import { serviceLabel } from '../../_shared/services.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { readUser } from '../lib/users.ts';
import { certificatePdf } from '../lib/certificate-pdf.ts';
import { clientIp, TOO_MANY_ATTEMPTS } from './auth.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CODE = /^[A-Za-z0-9]{8,32}$/;

const pagingSchema = z.object({
  page: z.coerce.number({ error: 'Page must be a whole number of at least 1' }).int('Page must be a whole number of at least 1').min(1, 'Page must be a whole number of at least 1').default(1),
  pageSize: z.coerce.number({ error: 'Page size must be between 1 and 100' }).int('Page size must be between 1 and 100').min(1, 'Page size must be between 1 and 100').max(100, 'Page size must be between 1 and 100').default(20),
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
  certificateId: string | null;
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
    certificateId: row.certificateId,
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
}

function toCertificate(row: CertificateRow) {
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
    issuedAt: iso(row.issuedAt),
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
    const rows = await db.withCaller(caller.db, (tx) =>
      tx<EnrollmentRow[]>`
        select e.id, e.user_id, e.course_id, e.status::text as status, e.progress, e.completed,
               e.started_at, e.completed_at, e.last_accessed_module_id,
               greatest(e.started_at, e.completed_at, ump.last_read, ump.last_completed) as last_activity_at,
               coalesce(ump.done, 0)::int as completed_modules,
               cert.id as certificate_id,
               co.title as course_title, co.description as course_description, co.service::text as course_service,
               co.duration as course_duration, coalesce(mc.modules, 0)::int as course_modules
        from public.enrollments e
        left join public.courses co on co.id = e.course_id
        left join lateral (
          select count(*) as modules from public.course_modules m where m.course_id = e.course_id
        ) mc on true
        left join lateral (
          select count(*) filter (where p.completed) as done, max(p.read_at) as last_read, max(p.completed_at) as last_completed
          from public.user_module_progress p
          join public.course_modules m on m.id = p.module_id
          where p.user_id = e.user_id and m.course_id = e.course_id
        ) ump on true
        left join public.certificates cert on cert.user_id = e.user_id and cert.course_id = e.course_id
        where e.user_id = ${userId}::uuid
        order by e.completed, greatest(e.started_at, e.completed_at, ump.last_read, ump.last_completed) desc nulls last, e.id`);
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
      page: c.req.query('page') ?? undefined,
      pageSize: c.req.query('pageSize') ?? undefined,
    });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      throw new ApiError(400, 'Validation failed', fields);
    }
    const { page, pageSize } = parsed.data;
    const rows = await db.withCaller(caller.db, (tx) =>
      tx<(CertificateRow & { total: number })[]>`
        select id, verification_code, user_id, course_id, learner_name, course_title, service::text as service,
               template::text as template, issued_at, count(*) over ()::int as total
        from public.certificates
        where user_id = ${caller.userId}::uuid
        order by issued_at desc, id
        limit ${pageSize} offset ${(page - 1) * pageSize}`);
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && page > 1) {
      // Past the last page the window count is empty: count separately so the pager still knows.
      const [row] = await db.withCaller(caller.db, (tx) =>
        tx<{ total: number }[]>`select count(*)::int as total from public.certificates where user_id = ${caller.userId}::uuid`);
      total = row.total;
    }
    return c.json({ items: rows.map(toCertificate), total, page, pageSize });
  });

  routes.get('/certificates/verify/:code', async (c) => {
    const code = c.req.param('code');
    if (!CODE.test(code)) throw notFound('Certificate not found');
    const rows = await db.withCaller(c.get('caller').db, (tx) =>
      tx<Omit<CertificateRow, 'id' | 'userId' | 'courseId'>[]>`
        select verification_code, learner_name, course_title, service::text as service, template::text as template, issued_at
        from private.verify_certificate(${code})`);
    const row = rows[0];
    if (!row) throw notFound('Certificate not found');
    return c.json({
      verificationCode: row.verificationCode,
      learnerName: row.learnerName,
      courseTitle: row.courseTitle,
      service: row.service,
      serviceLabel: row.service ? serviceLabel(row.service) : null,
      issuedAt: iso(row.issuedAt),
    });
  });

  routes.get('/certificates/:id/pdf', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', 'Certificate not found');
    const found = await db.withCaller(caller.db, async (tx) => {
      const [certificate] = await tx<CertificateRow[]>`
        select id, verification_code, user_id, course_id, learner_name, course_title, service::text as service,
               template::text as template, issued_at
        from public.certificates where id = ${id}::uuid`;
      const [settings] = await tx<{ certificateTemplate: string; siteName: string; footerText: string }[]>`
        select certificate_template::text as certificate_template, site_name, footer_text from public.settings where id`;
      return { certificate, settings };
    });
    const { certificate, settings } = found;
    if (!certificate) throw notFound('Certificate not found');
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
      verifyUrl: `${siteUrl()}/verify/${certificate.verificationCode}`,
      siteName: settings?.siteName ?? DEFAULT_SITE_NAME,
      footerText: settings?.footerText ?? '',
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

  routes.put('/profile/password', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, passwordChangeSchema);
    const current = await db.withCaller(caller.db, (tx) => readUser(tx, caller.userId));
    if (!current) throw new ApiError(401, 'Not signed in');
    // Guessing the current password here counts against the same limit as signing in.
    const identifier = current.username.toLowerCase();
    const ip = clientIp(c);
    const blocked = await db.withServiceRole(async (tx) => {
      const [row] = await tx<{ blocked: boolean }[]>`select private.sign_in_blocked(${identifier}, ${ip}) as blocked`;
      return row.blocked;
    });
    if (blocked) throw new ApiError(429, TOO_MANY_ATTEMPTS, undefined, { 'Retry-After': '900' });

    const grant = await fetch(`${config.supabaseUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: config.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: current.email, password: input.currentPassword }),
    });
    const granted = await grant.json().catch(() => ({}));
    const record = (succeeded: boolean) =>
      db.withServiceRole((tx) => tx`select private.record_sign_in_attempt(${identifier}, ${ip}, ${succeeded})`);
    if (grant.status === 429) throw new ApiError(429, TOO_MANY_ATTEMPTS, undefined, { 'Retry-After': '900' });
    if (grant.status >= 400 && grant.status < 500) {
      await record(false);
      throw new ApiError(400, CURRENT_PASSWORD_INCORRECT, { currentPassword: CURRENT_PASSWORD_INCORRECT });
    }
    if (!grant.ok || typeof granted.access_token !== 'string') throw new Error(`Auth password check failed with ${grant.status}`);
    await record(true);
    // The check opened a session of its own: close it at once.
    await fetch(`${config.supabaseUrl}/auth/v1/logout?scope=local`, {
      method: 'POST',
      headers: { apikey: config.anonKey, authorization: `Bearer ${granted.access_token}` },
    }).then((r) => r.body?.cancel()).catch(() => {});

    const response = await authAdmin('PUT', `/admin/users/${caller.userId}`, { password: input.newPassword });
    if (response.status === 422 || response.status === 400) {
      const body = await response.json().catch(() => ({}));
      const message = String(body.msg ?? body.message ?? 'Password could not be changed');
      throw new ApiError(400, message, { newPassword: message });
    }
    await response.body?.cancel();
    if (!response.ok) throw new Error(`Auth password update failed with ${response.status}`);
    return c.body(null, 204);
  });

  return routes;
}

const emailTaken = () => new ApiError(409, 'Email is already registered', { email: 'Email is already registered' });
