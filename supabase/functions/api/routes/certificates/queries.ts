// The SQL and row mapping of a learner's certificates: their list (current and history), the public
// verification and the data of the PDF.
import { z } from 'zod';
import type { CertificateTemplate } from '../../../_shared/domain.ts';
import { CERTIFICATE_SCOPES, type CertificateScope, type CertificateState, type LearnerCertificate, type VerifiedCertificate } from '../../../_shared/certificates.ts';
import { isoTimestamp } from '../../../_shared/dates.ts';
import { serviceLabel } from '../../../_shared/services.ts';
import type { Tx } from '../../lib/db.ts';

export const pagingSchema = z.object({
  scope: z.enum(CERTIFICATE_SCOPES, { error: 'Scope must be all, current or history' }).default('all'),
  page: z.coerce.number({ error: 'Page must be a whole number of at least 1' }).int('Page must be a whole number of at least 1').min(1, 'Page must be a whole number of at least 1').default(1),
  pageSize: z.coerce.number({ error: 'Page size must be between 1 and 100' }).int('Page size must be between 1 and 100').min(1, 'Page size must be between 1 and 100').max(100, 'Page size must be between 1 and 100').default(20),
});

/** Verification codes: 8 to 32 letters and digits (anything else is simply not found). */
export const CODE = /^[A-Za-z0-9]{8,32}$/;

export interface CertificateRow {
  id: string;
  verificationCode: string;
  userId: string | null;
  courseId: string | null;
  learnerName: string;
  courseTitle: string;
  courseTitleCy: string | null;
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
  /** The learner's profiles.language (only the PDF reads it). */
  learnerLanguage?: string | null;
  recertifying: boolean;
}

export function toCertificate(row: CertificateRow): LearnerCertificate {
  return {
    id: row.id,
    verificationCode: row.verificationCode,
    userId: row.userId,
    courseId: row.courseId,
    learnerName: row.learnerName,
    courseTitle: row.courseTitle,
    courseTitleCy: row.courseTitleCy ?? null,
    service: row.service,
    serviceLabel: row.service ? serviceLabel(row.service) : null,
    template: row.template,
    issuedAt: isoTimestamp(row.issuedAt)!,
    cycle: row.cycle,
    expiresAt: isoTimestamp(row.expiresAt),
    revokedAt: isoTimestamp(row.revokedAt),
    revokedReason: row.revokedReason,
    state: row.state,
    current: row.current,
    enrolled: row.enrolled,
    recertifying: row.recertifying,
    verifyPath: `/verify/${row.verificationCode}`,
  };
}

// Current: no later certificate of the same course (a certificate whose course was deleted
// stands alone). The newer-one probe uses certificates_user_course_issued_idx.
const newer = (tx: Tx) => tx`exists (
  select 1 from public.certificates n
  where n.user_id = c.user_id and n.course_id = c.course_id
    and (n.issued_at, n.cycle) > (c.issued_at, c.cycle))`;
const scoped = (tx: Tx, scope: CertificateScope) =>
  scope === 'current' ? tx`and not ${newer(tx)}` : scope === 'history' ? tx`and ${newer(tx)}` : tx``;

/** One page of the caller's certificates in a scope, newest first, each row with the total. */
export function listCertificates(tx: Tx, userId: string, scope: CertificateScope, page: number, pageSize: number) {
  return tx<(CertificateRow & { total: number })[]>`
    select c.id, c.verification_code, c.user_id, c.course_id, c.learner_name, c.course_title, c.course_title_cy, c.service::text as service,
           c.template::text as template, c.issued_at, c.cycle, c.expires_at, c.revoked_at, c.revoked_reason,
           private.certificate_state(c.expires_at, c.revoked_at) as state, not ${newer(tx)} as current,
           (e.id is not null) as enrolled, coalesce(e.cycle > c.cycle, false) as recertifying,
           count(*) over ()::int as total
    from public.certificates c
    left join public.enrollments e on e.user_id = c.user_id and e.course_id = c.course_id
    where c.user_id = ${userId}::uuid ${scoped(tx, scope)}
    order by c.issued_at desc, c.id
    limit ${pageSize} offset ${(page - 1) * pageSize}`;
}

/** How many certificates the caller has in a scope (for a page past the end, where the window count is empty). */
export async function countCertificates(tx: Tx, userId: string, scope: CertificateScope): Promise<number> {
  const [row] = await tx<{ total: number }[]>`select count(*)::int as total from public.certificates c
                                              where c.user_id = ${userId}::uuid ${scoped(tx, scope)}`;
  return row.total;
}

/** The public check of a code (private.verify_certificate): never the revocation reason. */
export async function verifyCertificate(tx: Tx, code: string): Promise<VerifiedCertificate | null> {
  const [row] = await tx<(Pick<CertificateRow, 'verificationCode' | 'learnerName' | 'courseTitle' | 'courseTitleCy' | 'service' | 'issuedAt' | 'expiresAt' | 'revokedAt' | 'state'> & { organisationName: string | null })[]>`
    select verification_code, learner_name, organisation_name, course_title, course_title_cy, service::text as service, issued_at, expires_at, revoked_at, state
    from private.verify_certificate(${code})`;
  if (!row) return null;
  // The reason may be personal, and the public needs only the fact and date.
  return {
    verificationCode: row.verificationCode,
    learnerName: row.learnerName,
    // The organisation at issue (the certificate's snapshot), absent for a learner of none.
    ...(row.organisationName ? { organisationName: row.organisationName } : {}),
    courseTitle: row.courseTitle,
    courseTitleCy: row.courseTitleCy ?? null,
    service: row.service,
    serviceLabel: row.service ? serviceLabel(row.service) : null,
    issuedAt: isoTimestamp(row.issuedAt)!,
    expiresAt: isoTimestamp(row.expiresAt),
    revokedAt: isoTimestamp(row.revokedAt),
    state: row.state,
    valid: row.state === 'valid' || row.state === 'expiring',
  };
}

/**
 * The share id of the certificate's latest signed credential that its holder shares, else null.
 * The service role reads it: a credential is public only through its share link
 * (private.shared_credential), and this answers that link for the certificate's code.
 */
export async function sharedCredentialId(tx: Tx, code: string): Promise<string | null> {
  const [row] = await tx<{ shareId: string }[]>`
    select cr.share_id from public.credentials cr
    join public.certificates c on c.id = cr.certificate_id
    where c.verification_code = upper(btrim(${code})) and cr.share_enabled and cr.credential is not null
    order by cr.created_at desc limit 1`;
  return row?.shareId ?? null;
}

/** A certificate with its course's hours and its learner's language, and the settings its PDF prints (template, site name, footer). */
export async function readCertificateForPdf(tx: Tx, id: string) {
  const [certificate] = await tx<CertificateRow[]>`
    select id, verification_code, user_id, course_id, learner_name, course_title, course_title_cy, service::text as service,
           template::text as template, issued_at, expires_at, revoked_at,
           (select co.duration from public.courses co where co.id = certificates.course_id) as hours,
           -- The learner's language (their profile, under the caller's RLS; English when unseen).
           (select p.language from public.profiles p where p.id = certificates.user_id) as learner_language
    from public.certificates where id = ${id}::uuid`;
  const [settings] = await tx<{ certificateTemplate: string; siteName: string; footerText: string }[]>`
    select certificate_template::text as certificate_template, site_name, footer_text from public.settings where id`;
  return { certificate, settings };
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
