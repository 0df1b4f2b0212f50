// The learning record as a PDF, for an appraisal or a regulator's audit: A4 portrait,
// the learner's name and the date it was generated, the totals, a table of completed courses and
// one of CPD activities (what was learnt and the reflection in full, wrapped), breaking onto new
// pages with the table heading repeated, and "Page n of m" on every page. Standard fonts only
// (WinAnsi; other characters as in the certificates: accents dropped, the rest '?').
import { PDFDict, type PDFFont, PDFDocument, PDFName, type PDFPage, PDFString, rgb, StandardFonts } from 'pdf-lib';
import { validityTextWithState } from '../../_shared/certificates.ts';
import { type CompletedCourse, type CpdEntry, hoursText, type LearningRecord } from '../../_shared/cpd.ts';
import { longDate } from '../../_shared/dates.ts';
import { drawable } from './certificate-pdf.ts';

const WIDTH = 595.28;
const HEIGHT = 841.89;
const MARGIN = 48;
const CONTENT = WIDTH - 2 * MARGIN;
const TOP = HEIGHT - MARGIN;
const BOTTOM = MARGIN + 28; // room for the footer
const INK = rgb(0.1, 0.12, 0.16);
const GREY = rgb(0.38, 0.4, 0.44);
const RULE = rgb(0.8, 0.82, 0.85);
const BAND = rgb(0.93, 0.95, 0.97);

export interface LearningRecordPdfOptions {
  siteName: string;
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}


/** Splits text into lines no wider than `width` (words longer than a line are cut). */
export function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of drawable(font, text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ')).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      // A word wider than the line: cut it into pieces that fit.
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  // Keep inner blank lines (paragraphs) but not trailing ones.
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

interface Column {
  title: string;
  width: number;
  align?: 'right';
}

class Writer {
  page!: PDFPage;
  y = TOP;
  readonly pages: PDFPage[] = [];

  constructor(readonly doc: PDFDocument, readonly fonts: Fonts, readonly continuation: string) {
    this.newPage(false);
  }

  newPage(continued = true) {
    this.page = this.doc.addPage([WIDTH, HEIGHT]);
    this.pages.push(this.page);
    this.y = TOP;
    if (continued) {
      this.text(this.continuation, MARGIN, this.y - 9, this.fonts.regular, 9, GREY);
      this.y -= 24;
    }
  }

  /** Starts a new page unless `height` more points fit on this one. Returns true when it broke. */
  ensure(height: number): boolean {
    if (this.y - height >= BOTTOM) return false;
    this.newPage();
    return true;
  }

  text(text: string, x: number, y: number, font: PDFFont, size: number, color = INK) {
    const safe = drawable(font, text);
    if (safe) this.page.drawText(safe, { x, y, size, font, color });
  }

  rightText(text: string, right: number, y: number, font: PDFFont, size: number, color = INK) {
    const safe = drawable(font, text);
    this.page.drawText(safe, { x: right - font.widthOfTextAtSize(safe, size), y, size, font, color });
  }

  rule(y: number) {
    this.page.drawLine({ start: { x: MARGIN, y }, end: { x: WIDTH - MARGIN, y }, thickness: 0.6, color: RULE });
  }

  heading(text: string) {
    this.ensure(60);
    this.y -= 10;
    this.text(text, MARGIN, this.y - 14, this.fonts.bold, 14);
    this.y -= 24;
  }

  tableHeader(columns: Column[]) {
    const height = 18;
    this.page.drawRectangle({ x: MARGIN, y: this.y - height, width: CONTENT, height, color: BAND });
    let x = MARGIN;
    for (const column of columns) {
      if (column.align === 'right') this.rightText(column.title, x + column.width - 4, this.y - 12.5, this.fonts.bold, 8.5);
      else this.text(column.title, x + 4, this.y - 12.5, this.fonts.bold, 8.5);
      x += column.width;
    }
    this.y -= height;
  }
}

const COURSE_COLUMNS: Column[] = [
  { title: 'Completed', width: 78 },
  { title: 'Course', width: 180 },
  { title: 'Hours', width: 40, align: 'right' },
  { title: 'Score', width: 40, align: 'right' },
  { title: 'Certificate', width: CONTENT - 78 - 180 - 40 - 40 },
];

const CPD_COLUMNS: Column[] = [
  { title: 'Date', width: 78 },
  { title: 'Activity', width: CONTENT - 78 - 60 },
  { title: 'Hours', width: 60, align: 'right' },
];

const SIZE = 9;
const LEADING = 12;

function courseRow(w: Writer, c: CompletedCourse) {
  const { regular, bold } = w.fonts;
  const [date, course, hours, score, certificate] = COURSE_COLUMNS;
  const cells: { x: number; lines: { text: string; font: PDFFont; color?: typeof INK }[] }[] = [
    { x: MARGIN, lines: [{ text: longDate(c.completedAt), font: regular }] },
    {
      x: MARGIN + date.width,
      lines: [
        ...wrap(bold, c.courseTitle, SIZE, course.width - 8).map((text) => ({ text, font: bold })),
        ...wrap(regular, c.serviceLabel ?? '', SIZE, course.width - 8).filter(Boolean).map((text) => ({ text, font: regular, color: GREY })),
        ...(c.cycle > 1 ? [{ text: `Recertification ${c.cycle - 1}`, font: regular, color: GREY }] : []),
      ],
    },
    {
      x: MARGIN + date.width + course.width + hours.width + score.width,
      lines: [
        { text: c.verificationCode, font: bold },
        ...wrap(regular, validityTextWithState(c), SIZE, certificate.width - 8).map((text) => ({ text, font: regular })),
      ],
    },
  ];
  const height = Math.max(...cells.map((cell) => cell.lines.length)) * LEADING + 8;
  if (w.ensure(height)) w.tableHeader(COURSE_COLUMNS);
  const top = w.y - 4;
  for (const cell of cells) {
    cell.lines.forEach((line, i) => w.text(line.text, cell.x + 4, top - SIZE - i * LEADING, line.font, SIZE, line.color));
  }
  const right = MARGIN + date.width + course.width;
  w.rightText(c.hours === null ? '-' : String(c.hours), right + hours.width - 4, top - SIZE, regular, SIZE);
  w.rightText(c.score === null ? '-' : `${c.score}%`, right + hours.width + score.width - 4, top - SIZE, regular, SIZE);
  w.y -= height;
  w.rule(w.y);
}

function cpdRow(w: Writer, e: CpdEntry) {
  const { regular, bold } = w.fonts;
  const [date, activity, hours] = CPD_COLUMNS;
  const titleLines = wrap(bold, e.activity, SIZE, activity.width - 8);
  // The heading line of the entry stays with at least its first line of text.
  if (w.ensure(titleLines.length * LEADING + LEADING * 2 + 8)) w.tableHeader(CPD_COLUMNS);
  const top = w.y - 4;
  w.text(longDate(e.activityDate), MARGIN + 4, top - SIZE, regular, SIZE);
  titleLines.forEach((line, i) => w.text(line, MARGIN + date.width + 4, top - SIZE - i * LEADING, bold, SIZE));
  w.rightText(String(e.hours), MARGIN + date.width + activity.width + hours.width - 4, top - SIZE, regular, SIZE);
  w.y = top - titleLines.length * LEADING;
  const indent = MARGIN + date.width + 4;
  const width = CONTENT - date.width - 8;
  for (const [label, body] of [['What I learnt', e.learnt], ['Reflection', e.reflection]] as const) {
    if (!body.trim()) continue;
    w.y -= 3;
    if (w.ensure(LEADING * 2)) w.tableHeader(CPD_COLUMNS);
    w.text(`${label}:`, indent, w.y - SIZE, bold, SIZE, GREY);
    w.y -= LEADING;
    for (const line of wrap(regular, body, SIZE, width)) {
      if (w.ensure(LEADING)) w.tableHeader(CPD_COLUMNS);
      w.text(line, indent, w.y - SIZE, regular, SIZE);
      w.y -= LEADING;
    }
  }
  w.y -= 6;
  w.rule(w.y);
}

export async function learningRecordPdf(record: LearningRecord, options: LearningRecordPdfOptions): Promise<Uint8Array> {
  const generated = new Date(record.generatedAt);
  const doc = await PDFDocument.create();
  doc.setTitle(`Learning record: ${record.learner.name}`);
  doc.setAuthor(options.siteName);
  doc.setSubject(`Completed courses and CPD activities of ${record.learner.name}`);
  doc.setCreator(options.siteName);
  doc.setCreationDate(generated);
  // Plain-text copies in the document information, for tools (and tests) that do not inflate pages.
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  info.set(PDFName.of('Learner'), PDFString.of(drawable(fonts.regular, record.learner.name).replace(/[^\x20-\x7e]/g, '?')));
  info.set(PDFName.of('TotalHours'), PDFString.of(String(record.totals.totalHours)));
  const w = new Writer(doc, fonts, `Learning record: ${record.learner.name} (continued)`);

  // Heading and summary.
  w.text(options.siteName, MARGIN, w.y - 10, fonts.regular, 10, GREY);
  w.text('Learning record', MARGIN, w.y - 38, fonts.bold, 24);
  w.text(record.learner.name, MARGIN, w.y - 62, fonts.bold, 14);
  w.text(`Generated on ${longDate(generated)}`, MARGIN, w.y - 80, fonts.regular, 10, GREY);
  w.y -= 100;
  const { totals } = record;
  const boxHeight = 58;
  w.page.drawRectangle({ x: MARGIN, y: w.y - boxHeight, width: CONTENT, height: boxHeight, color: BAND });
  w.text(`Total hours: ${totals.totalHours}`, MARGIN + 12, w.y - 22, fonts.bold, 13);
  w.text(
    `Completed courses: ${totals.completedCourses} (${hoursText(totals.courseHours)})    CPD activities: ${totals.cpdEntries} (${hoursText(totals.cpdHours)})`,
    MARGIN + 12, w.y - 42, fonts.regular, 10,
  );
  w.y -= boxHeight + 8;

  w.heading('Completed courses');
  if (record.completedCourses.length === 0) {
    w.text('No completed courses yet.', MARGIN, w.y - 12, fonts.regular, 10, GREY);
    w.y -= 20;
  } else {
    w.tableHeader(COURSE_COLUMNS);
    for (const course of record.completedCourses) courseRow(w, course);
    w.text('Hours are the course duration. Revoked certificates count no hours. Score: the best passed quiz attempts of that completion.', MARGIN, w.y - 12, fonts.regular, 8, GREY);
    w.y -= 20;
  }

  w.heading('CPD activities');
  if (record.cpdEntries.length === 0) {
    w.text('No CPD activities recorded yet.', MARGIN, w.y - 12, fonts.regular, 10, GREY);
    w.y -= 20;
  } else {
    w.tableHeader(CPD_COLUMNS);
    for (const entry of record.cpdEntries) cpdRow(w, entry);
  }

  // Footer: who, when, page n of m.
  const footer = `${record.learner.name} - learning record generated on ${longDate(generated)}`;
  w.pages.forEach((page, i) => {
    const safe = drawable(fonts.regular, footer);
    page.drawText(safe, { x: MARGIN, y: MARGIN - 4, size: 8, font: fonts.regular, color: GREY });
    const label = `Page ${i + 1} of ${w.pages.length}`;
    page.drawText(label, { x: WIDTH - MARGIN - fonts.regular.widthOfTextAtSize(label, 8), y: MARGIN - 4, size: 8, font: fonts.regular, color: GREY });
  });
  return await doc.save({ useObjectStreams: false });
}
