// /api/certificates: the learner's certificates (current and history, paged), the public check of a
// verification code (with the signed credential's share link while its holder shares it), and a certificate's PDF (in the template chosen in settings now). SQL and
// row mapping: ./queries.ts; the admin's search, revocation and reissue: ./admin.ts.
import { Hono } from 'hono';
import { CERTIFICATE_TEMPLATES, type CertificateTemplate, DEFAULT_SITE_NAME } from '../../../_shared/domain.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { pagingQuery, pathId } from '../../lib/params.ts';
import { certificatePdf } from '../../lib/certificate-pdf.ts';
import { sharedCredentialUrl } from '../../lib/credentials/issuer.ts';
import { credentialUrls } from '../../lib/credentials/urls.ts';
import { toLanguage } from '../../../_shared/language.ts';
import {
  certificateFileName,
  CODE,
  countCertificates,
  listCertificates,
  pagingSchema,
  readCertificateForPdf,
  sharedCredentialId,
  toCertificate,
  verifyCertificate,
} from './queries.ts';

const NOT_FOUND = 'Certificate not found';

export function certificateRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  /** The public site for links printed on certificates: SITE_URL, else the project URL (local platform). */
  const siteUrl = () => (Deno.env.get('SITE_URL') || config.supabaseUrl).replace(/\/+$/, '');

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const { scope, page, pageSize } = pagingQuery(pagingSchema, {
      scope: c.req.query('scope') ?? undefined,
      page: c.req.query('page') ?? undefined,
      pageSize: c.req.query('pageSize') ?? undefined,
    });
    const rows = await db.withCaller(caller.db, (tx) => listCertificates(tx, caller.userId, scope, page, pageSize));
    let total = rows[0]?.total ?? 0;
    if (rows.length === 0 && page > 1) {
      // Past the last page the window count is empty: count separately so the pager still knows.
      total = await db.withCaller(caller.db, (tx) => countCertificates(tx, caller.userId, scope));
    }
    return c.json({ items: rows.map(toCertificate), total, page, pageSize });
  });

  // Before /:id/pdf, so that /verify/pdf is a verification (of a code too short to exist).
  routes.get('/verify/:code', async (c) => {
    const code = c.req.param('code');
    if (!CODE.test(code)) throw new ApiError(404, NOT_FOUND);
    const body = await db.withCaller(c.get('caller').db, (tx) => verifyCertificate(tx, code));
    if (!body) throw new ApiError(404, NOT_FOUND);
    // The signed Open Badges credential's public URL, while its holder shares it.
    const shareId = await db.withServiceRole((tx) => sharedCredentialId(tx, code));
    return c.json(shareId ? { ...body, credentialUrl: sharedCredentialUrl(credentialUrls(config), shareId) } : body);
  });

  routes.get('/:id/pdf', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', NOT_FOUND);
    const { certificate, settings } = await db.withCaller(caller.db, (tx) => readCertificateForPdf(tx, id));
    if (!certificate) throw new ApiError(404, NOT_FOUND);
    // A revoked certificate is no longer a certificate: no document that could pass for one.
    if (certificate.revokedAt) throw new ApiError(409, 'This certificate was revoked and cannot be downloaded');
    // The template chosen in settings now, so an admin's change applies to every download.
    const template = (CERTIFICATE_TEMPLATES as readonly string[]).includes(settings?.certificateTemplate ?? '')
      ? settings!.certificateTemplate as CertificateTemplate
      : certificate.template;
    const language = toLanguage(certificate.learnerLanguage);
    const pdf = await certificatePdf(template, {
      language,
      verificationCode: certificate.verificationCode,
      learnerName: certificate.learnerName,
      courseTitle: certificate.courseTitle,
      courseTitleCy: certificate.courseTitleCy,
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

  return routes;
}
