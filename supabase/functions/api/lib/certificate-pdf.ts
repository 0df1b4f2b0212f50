// Certificate PDFs: one A4 landscape page in the template chosen in settings (read at each download,
// so an admin's change applies to every certificate), each template a visibly different layout.
// The learner's language decides the words: English for an English reader; for a Welsh reader the
// certificate is bilingual, each line Welsh first then English (`Tystysgrif Cwblhau / Certificate
// of Completion`), as Welsh public bodies print them. pdf-lib's standard fonts draw it when they can
// (every English certificate whose names they can write); otherwise the DejaVu fonts of
// lib/pdf-fonts.ts, so that ŵ and ŷ are drawn as they are.
import { PDFDict, type PDFFont, PDFDocument, PDFHexString, type PDFImage, PDFName, type PDFPage, PDFString, rgb, type RGB } from 'pdf-lib';
import QRCode from 'qrcode';
import { validityText as certificateValidityText } from '../../_shared/certificates.ts';
import type { CertificateTemplate } from '../../_shared/domain.ts';
import { courseTitle, formatDate, hoursText, type Messages, messages, serviceName, validityText as validityIn } from '../../_shared/i18n/index.ts';
import type { Language } from '../../_shared/language.ts';
import { pdfFonts } from './pdf-fonts.ts';

export interface CertificateData {
  verificationCode: string;
  learnerName: string;
  /** The course's English title as issued. */
  courseTitle: string;
  /** Its Welsh title as issued (certificates.course_title_cy): printed first on a Welsh learner's certificate. */
  courseTitleCy?: string | null;
  service: string | null;
  issuedAt: Date;
  /** When the certificate stops being valid; null when it never expires. */
  expiresAt: Date | null;
  /** The public page that confirms the certificate. */
  verifyUrl: string;
  /** Site name and footer from settings (shown by the custom template). */
  siteName: string;
  footerText: string;
  /** The course's length in whole hours (courses.duration); null when the course cannot be read. */
  hours: number | null;
  /** The learner's language (profiles.language): cy makes the certificate bilingual, Welsh first. */
  language?: Language;
}

/** Says a line in the certificate's language(s): English, or Welsh then English. */
type Words = (m: Messages, language: Language) => string;
type Say = (words: Words) => string;

/** The languages a certificate is printed in, in order: Welsh then English, or English. */
const languagesOf = (language: Language): Language[] => (language === 'cy' ? ['cy', 'en-GB'] : ['en-GB']);

function sayer(language: Language): Say {
  return (words) => languagesOf(language).map((l) => words(messages(l), l)).join(' / ');
}

/**
 * `Valid until 25 November 2027`, or `Does not expire`: always printed. The document states
 * its validity as issued, in the words every screen uses for a valid certificate (_shared/certificates.ts).
 */
export function validityText(expiresAt: Date | null): string {
  return certificateValidityText({ state: 'valid', expiresAt, revokedAt: null });
}

/**
 * `Issued by Emergency Services Learning · Course length: 6 hours`; bilingual, each label Welsh then
 * English and the site's name once: `Cyhoeddwyd gan / Issued by … · Hyd y cwrs / Course length: 6 awr / 6 hours`.
 */
export function issuerLine(d: Pick<CertificateData, 'siteName' | 'hours'>, say: Say = sayer('en-GB')): string {
  const issuer = `${say((m) => m.certificate.issuedBy)} ${d.siteName}`;
  if (d.hours === null) return issuer;
  return `${issuer} \u00b7 ${say((m) => m.certificate.courseLength)}: ${say((_m, l) => hoursText(l, d.hours!))}`;
}

/** The verification URL as a QR code (a PNG image object on the page). */
async function qrImage(doc: PDFDocument, url: string): Promise<PDFImage> {
  const png = await QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 1, scale: 4 });
  return await doc.embedPng(new Uint8Array(png));
}

const QR_SIZE = 78;

const WIDTH = 841.89;
const HEIGHT = 595.28;

// Service colours for the service-specific template (the Mantine colours of _shared/services.ts).
const SERVICE_RGB: Record<string, RGB> = {
  UKPS: rgb(0.13, 0.38, 0.75),
  UKAS: rgb(0.17, 0.54, 0.26),
  UKFRS: rgb(0.79, 0.16, 0.16),
  UKHW: rgb(0.85, 0.43, 0.05),
  AUX: rgb(0.44, 0.28, 0.76),
  MISC: rgb(0.05, 0.52, 0.48),
};
const GREY = rgb(0.45, 0.47, 0.5);
const INK = rgb(0.1, 0.12, 0.16);
const NAVY = rgb(0.07, 0.15, 0.3);
const GOLD = rgb(0.72, 0.57, 0.2);
const WHITE = rgb(1, 1, 1);

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  serif: PDFFont;
  serifBold: PDFFont;
  serifItalic: PDFFont;
}

/** Standard fonts encode WinAnsi only: drop accents, then replace what still cannot be drawn. */
export function drawable(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const char of text) {
    if (supported.has(char.codePointAt(0)!)) {
      out += char;
      continue;
    }
    const plain = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    out += [...plain].every((c) => supported.has(c.codePointAt(0)!)) && plain ? plain : '?';
  }
  return out;
}

/** Shrinks the size until the text fits the width (long names and titles stay on the page). */
function fit(font: PDFFont, text: string, size: number, maxWidth: number): number {
  let s = size;
  while (s > 8 && font.widthOfTextAtSize(text, s) > maxWidth) s -= 1;
  return s;
}

function centred(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color: RGB, maxWidth = WIDTH - 160) {
  const safe = drawable(font, text);
  const s = fit(font, safe, size, maxWidth);
  const width = font.widthOfTextAtSize(safe, s);
  page.drawText(safe, { x: (WIDTH - width) / 2, y, size: s, font, color });
}

function left(page: PDFPage, text: string, x: number, y: number, font: PDFFont, size: number, color: RGB, maxWidth = WIDTH - x - 60) {
  const safe = drawable(font, text);
  page.drawText(safe, { x, y, size: fit(font, safe, size, maxWidth), font, color });
}

/** One value, or its Welsh and English on two lines (the second smaller). */
function lines(page: PDFPage, texts: string[], x: number, y: number, font: PDFFont, size: number, color: RGB, maxWidth: number) {
  if (texts.length === 1) return left(page, texts[0], x, y, font, size, color, maxWidth);
  left(page, texts[0], x, y, font, size - 2, color, maxWidth);
  left(page, texts[1], x, y - size + 1, font, size - 4, color, maxWidth);
}

/** Makes the verify URL clickable where it is drawn. */
function link(page: PDFPage, doc: PDFDocument, url: string, x: number, y: number, width: number, height: number) {
  const annotation = doc.context.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: [x, y, x + width, y + height],
    Border: [0, 0, 0],
    A: { Type: 'Action', S: 'URI', URI: PDFString.of(url) },
  });
  page.node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(annotation)]));
}

function verificationBlock(page: PDFPage, doc: PDFDocument, data: Drawn, fonts: Fonts, y: number, color: RGB, align: 'centre' | number, qr?: PDFImage) {
  if (qr) page.drawImage(qr, { x: WIDTH - 60 - QR_SIZE, y: 40, width: QR_SIZE, height: QR_SIZE });
  const codeLine = `${data.say((m) => m.certificate.verificationCode)}: ${data.verificationCode}`;
  const urlLine = `${data.say((m) => m.certificate.verifyAt)} ${data.verifyUrl}`;
  const urlSize = fit(fonts.regular, drawable(fonts.regular, urlLine), 10, WIDTH - 160);
  const urlWidth = fonts.regular.widthOfTextAtSize(drawable(fonts.regular, urlLine), urlSize);
  if (align === 'centre') {
    centred(page, codeLine, y, fonts.bold, 11, color);
    centred(page, urlLine, y - 16, fonts.regular, 10, color);
    link(page, doc, data.verifyUrl, (WIDTH - urlWidth) / 2, y - 19, urlWidth, 14);
  } else {
    const room = WIDTH - align - 80 - QR_SIZE;
    left(page, codeLine, align, y, fonts.bold, 11, color, room);
    left(page, urlLine, align, y - 16, fonts.regular, 10, color, room);
    link(page, doc, data.verifyUrl, align, y - 19, urlWidth, 14);
  }
}

function standard(page: PDFPage, doc: PDFDocument, d: Drawn, f: Fonts) {
  page.drawRectangle({ x: 24, y: 24, width: WIDTH - 48, height: HEIGHT - 48, borderColor: INK, borderWidth: 2 });
  centred(page, d.say((m) => m.certificate.completionTitle), HEIGHT - 130, f.bold, 34, INK);
  centred(page, d.say((m) => m.certificate.certifyThat), HEIGHT - 190, f.regular, 14, GREY);
  centred(page, d.learnerName, HEIGHT - 235, f.bold, 30, INK);
  centred(page, d.say((m) => m.certificate.hasCompleted), HEIGHT - 275, f.regular, 14, GREY);
  centred(page, d.titles.join(' / '), HEIGHT - 315, f.bold, 22, INK);
  if (d.service) centred(page, d.say((_m, l) => serviceName(l, d.service!)), HEIGHT - 345, f.regular, 13, GREY);
  centred(page, d.say((m, l) => m.certificate.completedOnDate(formatDate(l, d.issuedAt))), HEIGHT - 385, f.regular, 13, INK);
  centred(page, d.say((_m, l) => validityIn(l, { state: 'valid', expiresAt: d.expiresAt, revokedAt: null })), HEIGHT - 405, f.bold, 13, INK);
  centred(page, issuerLine(d, d.say), HEIGHT - 430, f.regular, 12, GREY);
  verificationBlock(page, doc, d, f, 80, GREY, 'centre', d.qr);
}

function professional(page: PDFPage, doc: PDFDocument, d: Drawn, f: Fonts) {
  page.drawRectangle({ x: 0, y: 0, width: WIDTH, height: HEIGHT, color: rgb(0.99, 0.98, 0.95) });
  page.drawRectangle({ x: 18, y: 18, width: WIDTH - 36, height: HEIGHT - 36, borderColor: GOLD, borderWidth: 4 });
  page.drawRectangle({ x: 30, y: 30, width: WIDTH - 60, height: HEIGHT - 60, borderColor: NAVY, borderWidth: 1 });
  page.drawRectangle({ x: 30, y: HEIGHT - 130, width: WIDTH - 60, height: 100, color: NAVY });
  centred(page, d.say((m) => m.certificate.achievementTitle), HEIGHT - 95, f.serifBold, 32, WHITE);
  page.drawLine({ start: { x: WIDTH / 2 - 120, y: HEIGHT - 145 }, end: { x: WIDTH / 2 + 120, y: HEIGHT - 145 }, thickness: 2, color: GOLD });
  centred(page, d.say((m) => m.certificate.presentedTo), HEIGHT - 185, f.serifItalic, 15, GREY);
  centred(page, d.learnerName, HEIGHT - 232, f.serifBold, 34, NAVY);
  centred(page, d.say((m) => m.certificate.inRecognition), HEIGHT - 270, f.serifItalic, 15, GREY);
  centred(page, d.titles.join(' / '), HEIGHT - 310, f.serifBold, 22, INK);
  if (d.service) centred(page, d.say((_m, l) => serviceName(l, d.service!)), HEIGHT - 340, f.serif, 13, GREY);
  centred(page, d.say((m, l) => m.certificate.completedOnDate(formatDate(l, d.issuedAt))), HEIGHT - 380, f.serif, 13, INK);
  centred(page, d.say((_m, l) => validityIn(l, { state: 'valid', expiresAt: d.expiresAt, revokedAt: null })), HEIGHT - 400, f.serifBold, 13, INK);
  centred(page, issuerLine(d, d.say), HEIGHT - 425, f.serif, 12, GREY);
  verificationBlock(page, doc, d, f, 75, NAVY, 'centre', d.qr);
}

function serviceSpecific(page: PDFPage, doc: PDFDocument, d: Drawn, f: Fonts) {
  const colour = (d.service && SERVICE_RGB[d.service]) || GREY;
  page.drawRectangle({ x: 0, y: HEIGHT - 150, width: WIDTH, height: 150, color: colour });
  page.drawRectangle({ x: 0, y: 0, width: WIDTH, height: 14, color: colour });
  centred(page, d.service ? d.say((_m, l) => serviceName(l, d.service!)) : d.say((m) => m.certificate.emergencyServices), HEIGHT - 70, f.bold, 26, WHITE);
  centred(page, d.service ? d.say((m) => m.certificate.serviceTrainingCertificate(d.service!)) : d.say((m) => m.certificate.trainingCertificate), HEIGHT - 110, f.regular, 16, WHITE);
  centred(page, d.say((m) => m.certificate.awardedTo), HEIGHT - 200, f.regular, 14, GREY);
  centred(page, d.learnerName, HEIGHT - 245, f.bold, 30, INK);
  centred(page, d.say((m) => m.certificate.forCompleting), HEIGHT - 285, f.regular, 14, GREY);
  centred(page, d.titles.join(' / '), HEIGHT - 325, f.bold, 22, colour);
  centred(page, d.say((m, l) => m.certificate.completedOnDate(formatDate(l, d.issuedAt))), HEIGHT - 370, f.regular, 13, INK);
  centred(page, d.say((_m, l) => validityIn(l, { state: 'valid', expiresAt: d.expiresAt, revokedAt: null })), HEIGHT - 390, f.bold, 13, INK);
  centred(page, issuerLine(d, d.say), HEIGHT - 415, f.regular, 12, GREY);
  verificationBlock(page, doc, d, f, 80, GREY, 'centre', d.qr);
}

function custom(page: PDFPage, doc: PDFDocument, d: Drawn, f: Fonts) {
  const band = 210;
  page.drawRectangle({ x: 0, y: 0, width: band, height: HEIGHT, color: INK });
  left(page, d.siteName, 24, HEIGHT - 70, f.bold, 16, WHITE, band - 40);
  left(page, d.say((m) => m.certificate.certificate), 24, 120, f.serifItalic, 28, GOLD, band - 40);
  const x = band + 50;
  left(page, d.say((m) => m.certificate.completionTitle), x, HEIGHT - 90, f.bold, 28, INK);
  left(page, d.say((m) => m.certificate.learner), x, HEIGHT - 150, f.regular, 11, GREY);
  left(page, d.learnerName, x, HEIGHT - 180, f.bold, 26, INK);
  left(page, d.say((m) => m.certificate.course), x, HEIGHT - 225, f.regular, 11, GREY);
  lines(page, d.titles, x, HEIGHT - 252, f.bold, 20, INK, WIDTH - x - 60);
  left(page, d.say((m) => m.certificate.service), x, HEIGHT - 295, f.regular, 11, GREY);
  left(page, d.service ? d.say((_m, l) => serviceName(l, d.service!)) : d.say((m) => m.certificate.notSpecified), x, HEIGHT - 318, f.regular, 15, INK);
  left(page, d.say((m) => m.certificate.completedOn), x, HEIGHT - 360, f.regular, 11, GREY);
  lines(page, d.sayLines((_m, l) => formatDate(l, d.issuedAt)), x, HEIGHT - 383, f.regular, 15, INK, 220);
  left(page, d.say((m) => m.certificate.validity), x + 230, HEIGHT - 360, f.regular, 11, GREY);
  lines(page, d.sayLines((_m, l) => validityIn(l, { state: 'valid', expiresAt: d.expiresAt, revokedAt: null })), x + 230, HEIGHT - 383, f.bold, 15, INK, 250);
  left(page, issuerLine(d, d.say), x, HEIGHT - 420, f.regular, 12, GREY);
  verificationBlock(page, doc, d, f, 100, INK, x, d.qr);
  left(page, d.footerText, x, 40, f.regular, 9, GREY, WIDTH - x - 80 - QR_SIZE);
}

/**
 * The course's title as printed: English; for a Welsh learner the Welsh title then the English (as
 * every bilingual line), or the English alone when the course had no Welsh title.
 */
export function courseTitles(d: Pick<CertificateData, 'courseTitle' | 'courseTitleCy' | 'language'>): string[] {
  const titles = languagesOf(d.language ?? 'en-GB').map((l) => courseTitle({ title: d.courseTitle, titleCy: d.courseTitleCy }, l));
  return titles.filter((t, i) => titles.indexOf(t) === i);
}

type Drawn = CertificateData & { qr: PDFImage; say: Say; sayLines: (words: Words) => string[]; titles: string[] };

const layouts: Record<CertificateTemplate, (page: PDFPage, doc: PDFDocument, d: Drawn, f: Fonts) => void> = {
  standard,
  professional,
  service: serviceSpecific,
  custom,
};

export async function certificatePdf(template: CertificateTemplate, data: CertificateData): Promise<Uint8Array> {
  const language = data.language ?? 'en-GB';
  const say = sayer(language);
  const doc = await PDFDocument.create();
  const titleIn = (l: Language) => courseTitle({ title: data.courseTitle, titleCy: data.courseTitleCy }, l);
  doc.setTitle(say((m, l) => m.certificate.documentTitle(titleIn(l))));
  doc.setAuthor(data.siteName);
  doc.setSubject(say((m, l) => m.certificate.documentSubject(data.learnerName, titleIn(l))));
  doc.setCreator(data.siteName);
  doc.setCreationDate(data.issuedAt);
  // Plain-text copies in the document information, so tools (and tests) can read the code and
  // the template without decompressing the page.
  const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  const validity = say((_m, l) => validityIn(l, { state: 'valid', expiresAt: data.expiresAt, revokedAt: null }));
  info.set(PDFName.of('VerificationCode'), PDFString.of(data.verificationCode));
  info.set(PDFName.of('Template'), PDFString.of(template));
  info.set(PDFName.of('Validity'), /^[\x20-\x7e]*$/.test(validity) ? PDFString.of(validity) : PDFHexString.fromText(validity));
  info.set(PDFName.of('Issuer'), PDFString.of(data.siteName));
  info.set(PDFName.of('Hours'), PDFString.of(String(data.hours)));
  info.set(PDFName.of('Language'), PDFString.of(language));
  // A Welsh certificate is always drawn in the embedded fonts (its words may hold ŵ and ŷ); an
  // English one in the standard fonts unless a name or title needs a letter they lack.
  const fonts: Fonts = await pdfFonts(doc, ['regular', 'bold', 'serif', 'serifBold', 'serifItalic'],
    language === 'cy' ? null : [data.learnerName, data.courseTitle, data.siteName, data.footerText, data.verifyUrl, data.verificationCode]);
  const page = doc.addPage([WIDTH, HEIGHT]);
  const sayLines = (words: Words) => languagesOf(language).map((l) => words(messages(l), l));
  layouts[template](page, doc, { ...data, say, sayLines, titles: courseTitles({ ...data, language }), qr: await qrImage(doc, data.verifyUrl) }, fonts);
  // Without object streams the information dictionary stays readable as plain text.
  return await doc.save({ useObjectStreams: false });
}
