// /api/settings: the site's settings as everyone reads them (the admin email only for admins), and
// the admin's change of them.
import { Hono } from 'hono';
import type { z } from 'zod';
import { type PublicSettings, settingsSchema } from '../../_shared/admin.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody } from '../lib/body.ts';
import { asAdmin, isAdmin } from '../lib/admin.ts';

function toPublicSettings(row: Record<string, unknown>): PublicSettings {
  const updatedAt = row.updatedAt;
  const settings: PublicSettings = {
    siteName: String(row.siteName),
    courseAccess: row.courseAccess as PublicSettings['courseAccess'],
    certificateTemplate: row.certificateTemplate as PublicSettings['certificateTemplate'],
    footerText: String(row.footerText ?? ''),
    enableAnalytics: row.enableAnalytics === true,
    autoEnrollment: row.autoEnrollment === true,
    dueSoonDays: (row.notifyDueSoonDays as number[]) ?? [],
    expiryWarningDays: (row.notifyExpiryDays as number[]) ?? [],
    overdueRepeatDays: Number(row.notifyOverdueEveryDays),
    escalationDays: Number(row.notifyEscalationDays),
    scormMaxUploadMb: Number(row.scormMaxUploadMb),
    sessionOfferHours: Number(row.sessionOfferHours),
    updatedAt: isoTimestamp(updatedAt)!,
    contactEmail: (row.contactEmail as string | null) ?? null,
  };
  if (typeof row.adminEmail === 'string') settings.adminEmail = row.adminEmail;
  return settings;
}

/** The settings row; with the admin email for an admin. */
export async function readSettings(tx: Tx, withAdminEmail: boolean): Promise<PublicSettings> {
  const [row] = await tx<Record<string, unknown>[]>`
    select site_name, course_access::text as course_access, certificate_template::text as certificate_template,
           footer_text, enable_analytics, auto_enrollment, notify_due_soon_days, notify_expiry_days,
           notify_overdue_every_days, notify_escalation_days, scorm_max_upload_mb, session_offer_hours, updated_at,
           private.contact_email() as contact_email
    from public.settings where id`;
  if (!row) throw new Error('The settings row is missing');
  if (withAdminEmail) {
    const [email] = await tx<{ adminEmail: string }[]>`select private.admin_email() as admin_email`;
    row.adminEmail = email.adminEmail;
  }
  return toPublicSettings(row);
}

/** A day list as a Postgres array literal (null: leave the column as it is). */
const dayList = (days: number[] | undefined) => (days ? `{${days.join(',')}}` : null);

/** Writes the whole settings form (the notification intervals and the SCORM limit only when given). */
async function updateSettings(tx: Tx, input: z.infer<typeof settingsSchema>): Promise<void> {
  await tx`
    update public.settings set
      site_name = ${input.siteName},
      admin_email = ${input.adminEmail},
      course_access = ${input.courseAccess}::public.course_access,
      certificate_template = ${input.certificateTemplate}::public.certificate_template,
      footer_text = ${input.footerText},
      enable_analytics = ${input.enableAnalytics},
      auto_enrollment = ${input.autoEnrollment},
      notify_due_soon_days = coalesce(${dayList(input.dueSoonDays)}::integer[], notify_due_soon_days),
      notify_expiry_days = coalesce(${dayList(input.expiryWarningDays)}::integer[], notify_expiry_days),
      notify_overdue_every_days = coalesce(${input.overdueRepeatDays ?? null}::integer, notify_overdue_every_days),
      notify_escalation_days = coalesce(${input.escalationDays ?? null}::integer, notify_escalation_days),
      scorm_max_upload_mb = coalesce(${input.scormMaxUploadMb ?? null}::integer, scorm_max_upload_mb),
      session_offer_hours = coalesce(${input.sessionOfferHours ?? null}::integer, session_offer_hours)
    where id`;
}

export function settingsRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = c.get('caller');
    const settings = await db.withCaller(caller.db, async (tx) =>
      readSettings(tx, caller.kind === 'user' && (await isAdmin(tx))));
    return c.json(settings);
  });

  routes.put('/', async (c) => {
    requireUser(c);
    await asAdmin(db, c, async () => {});
    const input = await jsonBody(c, settingsSchema);
    const settings = await asAdmin(db, c, async (tx) => {
      await updateSettings(tx, input);
      return await readSettings(tx, true);
    });
    return c.json(settings);
  });

  return routes;
}
