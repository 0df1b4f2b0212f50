// The certificate PDF names the issuing organisation (the site name from the settings),
// the course hours and the validity ('Valid until …' or 'Does not expire'), and carries the
// verification URL as a QR code (a PNG image object drawn on the page) as well as text.
import nodeAssert from 'node:assert/strict';
import { CERTIFICATE_TEMPLATES } from '../_shared/domain.ts';
import { certificatePdf } from '../api/lib/certificate-pdf.ts';
import { app, assert, call, closePoolAfterTests, db, login, pdfText, register, test, unique } from './helpers.ts';

const londonDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });
const londonParts = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'Europe/London' });

/** The image XObjects of a PDF saved without object streams: [width, height] of each. */
function images(bytes: Uint8Array): Array<[number, number]> {
  const raw = new TextDecoder('latin1').decode(bytes);
  const found: Array<[number, number]> = [];
  for (const match of raw.matchAll(/<<([^]*?)>>\s*stream/g)) {
    const dict = match[1];
    if (!/\/Subtype\s*\/Image/.test(dict)) continue;
    found.push([Number(/\/Width (\d+)/.exec(dict)?.[1]), Number(/\/Height (\d+)/.exec(dict)?.[1])]);
  }
  return found;
}

/** A published 6-hour course (validity in months, or null) and a new learner who completed it. */
async function completed(months: number | null, learner: { language?: 'cy' | 'en-GB'; name?: string; title?: string; titleCy?: string } = {}) {
  const admin = await login('admin');
  const created = await call('POST', '/api/courses', {
    token: admin,
    body: { title: learner.title ?? `Water rescue awareness ${unique()}`, ...(learner.titleCy ? { titleCy: learner.titleCy } : {}), description: 'Safe working near water.', service: 'UKFRS', status: 'ACTIVE', duration: 6, certificateValidMonths: months },
  });
  nodeAssert.equal(created.status, 201, created.text);
  const id = unique();
  const { session } = await register({ username: `user_${id}`, email: `mail_${id}@example.test`, name: learner.name ?? `Test User ${id}`, password: `pw-${id}-secret` });
  const token = session.access_token;
  if (learner.language) nodeAssert.equal((await call('PUT', '/api/profile/language', { token, body: { language: learner.language } })).status, 200);
  const enrolled = await call('POST', `/api/courses/${created.json.id}/enroll`, { token });
  nodeAssert.equal(enrolled.status, 201, enrolled.text);
  for (let i = 0; i < 5; i++) nodeAssert.equal((await call('PUT', `/api/enrollments/${enrolled.json.id}`, { token })).status, 200);
  const list = await call('GET', '/api/certificates?scope=current', { token });
  const certificate = list.json.items.find((c: { courseId: string }) => c.courseId === created.json.id);
  assert(certificate, list.text);
  return { token, certificate };
}

async function download(token: string, id: string): Promise<Uint8Array> {
  const response = await app.request(`/api/certificates/${id}/pdf`, { headers: { authorization: `Bearer ${token}` } });
  nodeAssert.equal(response.status, 200);
  return new Uint8Array(await response.arrayBuffer());
}

test('certificate PDF: issuer (site name), course hours, validity date and a QR code of the verification URL', async () => {
  const [{ siteName }] = await db.sql<{ siteName: string }[]>`select site_name from public.settings where id`;
  const { token, certificate } = await completed(24);
  const bytes = await download(token, certificate.id);
  const text = await pdfText(bytes);
  assert(text.includes(siteName), `site name ${siteName} missing:\n${text}`);
  assert(text.includes(`Issued by ${siteName}`), text);
  assert(text.includes('Course length: 6 hours'), text);
  assert(text.includes(`Valid until ${londonDate.format(new Date(certificate.expiresAt))}`), text);
  assert(text.includes(`/verify/${certificate.verificationCode}`), text);
  const qr = images(bytes);
  nodeAssert.equal(qr.length, 1, 'one QR image object');
  const [width, height] = qr[0];
  assert(width === height && width >= 21 * 4, `a square QR image, got ${width}x${height}`);
});

test('certificate PDF: a certificate that never expires says "Does not expire", in every template', async () => {
  const { token, certificate } = await completed(null);
  const text = await pdfText(await download(token, certificate.id));
  assert(text.includes('Does not expire'), text);
  assert(!text.includes('Valid until'), text);

  for (const template of CERTIFICATE_TEMPLATES) {
    const bytes = await certificatePdf(template, {
      verificationCode: 'ABCD-EFGH-JKLM',
      learnerName: 'Sam Example',
      courseTitle: 'Casualty care',
      service: 'UKAS',
      issuedAt: new Date('2026-11-25T10:00:00Z'),
      expiresAt: template === 'custom' ? new Date('2027-11-25T10:00:00Z') : null,
      verifyUrl: 'https://learning.example.uk/verify/ABCD-EFGH-JKLM',
      siteName: 'Northshire Training Academy',
      footerText: 'Footer',
      hours: 1,
    });
    const pageText = await pdfText(bytes);
    assert(pageText.includes('Issued by Northshire Training Academy'), `${template}: ${pageText}`);
    assert(pageText.includes('Course length: 1 hour'), `${template}: ${pageText}`);
    assert(pageText.includes(template === 'custom' ? 'Valid until 25 November 2027' : 'Does not expire'), `${template}: ${pageText}`);
    nodeAssert.equal(images(bytes).length, 1, `${template}: QR image`);
  }
});

test('certificate reissue: after an admin corrects the name, the same code with the new name in the PDF; audited; admins only', async () => {
  const { token, certificate } = await completed(12);
  const admin = await login('admin');
  const me = await call('GET', '/api/user', { token });
  const corrected = `Corrected ${unique()}`;
  const renamed = await call('PUT', `/api/users/${me.json.id}`, { token: admin, body: { name: corrected } });
  nodeAssert.equal(renamed.status, 200, renamed.text);

  // Learners (even the certificate's own) and unknown or malformed ids are refused.
  nodeAssert.equal((await call('POST', `/api/admin/certificates/${certificate.id}/reissue`, { token })).status, 403);
  nodeAssert.equal((await call('POST', `/api/admin/certificates/${certificate.id}/reissue`)).status, 401);
  nodeAssert.equal((await call('POST', `/api/admin/certificates/not-an-id/reissue`, { token: admin })).status, 404);
  nodeAssert.equal((await call('POST', `/api/admin/certificates/${crypto.randomUUID()}/reissue`, { token: admin })).status, 404);
  assert(!(await pdfText(await download(token, certificate.id))).includes(corrected));

  const reissued = await call('POST', `/api/admin/certificates/${certificate.id}/reissue`, { token: admin });
  nodeAssert.equal(reissued.status, 200, reissued.text);
  nodeAssert.equal(reissued.json.verificationCode, certificate.verificationCode);
  nodeAssert.equal(reissued.json.learnerName, corrected);
  assert(reissued.json.reissuedAt, reissued.text);
  const text = await pdfText(await download(token, certificate.id));
  assert(text.includes(corrected), text);
  assert(text.includes(certificate.verificationCode), text);
  const verified = await call('GET', `/api/certificates/verify/${certificate.verificationCode}`);
  nodeAssert.equal(verified.json.learnerName, corrected);

  const events = await db.sql<{ action: string; targetId: string }[]>`
    select action, target_id from public.audit_events where action = 'certificate.reissued' and target_id = ${certificate.id}::uuid`;
  nodeAssert.equal(events.length, 1);

  const revoked = await call('POST', `/api/admin/certificates/${certificate.id}/revoke`, { token: admin, body: { reason: 'Issued in error' } });
  nodeAssert.equal(revoked.status, 200, revoked.text);
  nodeAssert.equal((await call('POST', `/api/admin/certificates/${certificate.id}/reissue`, { token: admin })).status, 409);
});

test('certificate PDF: a Welsh-speaking learner\'s certificate is bilingual, Welsh first then English, with ŵ and ŷ drawn as they are', async () => {
  const [{ siteName }] = await db.sql<{ siteName: string }[]>`select site_name from public.settings where id`;
  const title = `Diogelwch Dŵr a'r Tŷ ${unique()}`;
  const { token, certificate } = await completed(24, { language: 'cy', name: 'Siân Gŵyn', title });
  const expires = new Date(certificate.expiresAt);
  const welshMonths = ['Ionawr', 'Chwefror', 'Mawrth', 'Ebrill', 'Mai', 'Mehefin', 'Gorffennaf', 'Awst', 'Medi', 'Hydref', 'Tachwedd', 'Rhagfyr'];
  const london = Object.fromEntries(londonParts.formatToParts(expires).map((p) => [p.type, p.value]));
  const welshExpiry = `${Number(london.day)} ${welshMonths[Number(london.month) - 1]} ${london.year}`;
  for (const template of CERTIFICATE_TEMPLATES) {
    await db.sql`update public.settings set certificate_template = ${template}::public.certificate_template where id`;
    const bytes = await download(token, certificate.id);
    const text = await pdfText(bytes);
    assert(text.includes('Siân Gŵyn'), `${template}: the name with ŵ:\n${text}`);
    assert(text.includes(title), `${template}: the title with ŵ and ŷ:\n${text}`);
    assert(!text.includes('?'), `${template}: no letter replaced:\n${text}`);
    // Welsh first: on one line (`Cymraeg / English`), or the Welsh line above the English one.
    const welsh = text.indexOf(`Yn ddilys tan ${welshExpiry}`);
    assert(welsh >= 0 && welsh < text.indexOf(`Valid until ${londonDate.format(expires)}`), `${template}:\n${text}`);
    assert(text.includes(`Cyhoeddwyd gan / Issued by ${siteName}`), `${template}:\n${text}`);
    assert(text.includes('Hyd y cwrs / Course length: 6 awr / 6 hours'), `${template}:\n${text}`);
    assert(text.includes(`Cod gwirio / Verification code: ${certificate.verificationCode}`), `${template}:\n${text}`);
    assert(/\/Language \(cy\)/.test(new TextDecoder('latin1').decode(bytes)), 'the document says its language');
    // The fonts are embedded TrueType subsets, not the standard fonts that cannot encode ŵ.
    const raw = new TextDecoder('latin1').decode(bytes);
    assert(/\/FontFile2/.test(raw) && /\/BaseFont \/[A-Z]{6}\+DejaVuSans/.test(raw) && !/\/BaseFont \/Helvetica/.test(raw), `${template}: embedded fonts`);
  }
  await db.sql`update public.settings set certificate_template = 'standard' where id`;
  const standard = await pdfText(await download(token, certificate.id));
  assert(standard.includes('Tystysgrif Cwblhau / Certificate of Completion'), standard);
  assert(standard.includes('Mae hyn i dystio bod / This is to certify that'), standard);
  assert(standard.includes(`Gwasanaeth Tân ac Achub y Deyrnas Unedig / United Kingdom Fire Rescue Service`), standard);
});

test('certificate PDF: an English speaker\'s stays English only, in the standard fonts; a name with ŵ keeps its letter', async () => {
  const plain = await completed(24);
  await db.sql`update public.settings set certificate_template = 'standard' where id`;
  const bytes = await download(plain.token, plain.certificate.id);
  const raw = new TextDecoder('latin1').decode(bytes);
  const text = await pdfText(bytes);
  assert(text.includes('Certificate of Completion') && !text.includes('Tystysgrif'), text);
  assert(text.includes('This is to certify that') && text.includes('Course length: 6 hours'), text);
  assert(/\/BaseFont \/Helvetica/.test(raw) && !/FontFile2/.test(raw), 'standard fonts only');

  const named = await completed(24, { name: 'Dafydd ap Gŵyn' });
  const namedText = await pdfText(await download(named.token, named.certificate.id));
  assert(namedText.includes('Dafydd ap Gŵyn'), namedText);
  assert(namedText.includes('Certificate of Completion') && !namedText.includes('Tystysgrif'), namedText);
});

test('certificate PDF: a course\'s Welsh title is kept at issue, returned by the list and verification, and printed first for a Welsh speaker', async () => {
  const title = `Water rescue awareness ${unique()}`;
  const titleCy = `Ymwybyddiaeth achub o ddŵr ${unique()}`;
  const { token, certificate } = await completed(24, { language: 'cy', title, titleCy });
  nodeAssert.equal(certificate.courseTitle, title);
  nodeAssert.equal(certificate.courseTitleCy, titleCy);
  const verified = await call('GET', `/api/certificates/verify/${certificate.verificationCode}`);
  nodeAssert.equal(verified.status, 200, verified.text);
  nodeAssert.deepEqual([verified.json.courseTitle, verified.json.courseTitleCy], [title, titleCy]);
  const admin = await login('admin');
  const listed = await call('GET', `/api/admin/certificates?search=${certificate.verificationCode}`, { token: admin });
  nodeAssert.equal(listed.json.items[0]?.courseTitleCy, titleCy, listed.text);

  for (const template of CERTIFICATE_TEMPLATES) {
    await db.sql`update public.settings set certificate_template = ${template}::public.certificate_template where id`;
    const text = await pdfText(await download(token, certificate.id));
    const welsh = text.indexOf(titleCy);
    assert(welsh >= 0 && welsh < text.indexOf(title), `${template}: the Welsh title, then the English:\n${text}`);
  }
  await db.sql`update public.settings set certificate_template = 'standard' where id`;
  assert((await pdfText(await download(token, certificate.id))).includes(`${titleCy} / ${title}`), 'one line, Welsh / English');

  // An English speaker's certificate of a course with a Welsh title stays English only.
  const english = await completed(24, { title: `${title} b`, titleCy: `${titleCy} b` });
  nodeAssert.equal(english.certificate.courseTitleCy, `${titleCy} b`);
  const text = await pdfText(await download(english.token, english.certificate.id));
  assert(text.includes(`${title} b`) && !text.includes(titleCy), text);
});

closePoolAfterTests();
