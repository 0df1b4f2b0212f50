// The learning record as a PDF, for an appraisal or a regulator's audit: A4 portrait,
// the learner's name and the date it was generated, the totals, a table of completed courses and
// one of CPD activities (what was learnt and the reflection in full, wrapped), breaking onto new
// pages with the table heading repeated, and "Page n of m" on every page. Standard fonts only
// (WinAnsi; other characters as in the certificates: accents dropped, the rest '?').
import { PDFDict, type PDFFont, PDFDocument, PDFName, type PDFPage, PDFString, rgb } from 'pdf-lib';
import type { CompletedCourse, CpdEntry, LearningRecord } from '../../_shared/cpd.ts';
import { formatDate, hoursText, type Messages, messages, serviceName, validityTextWithState } from '../../_shared/i18n/index.ts';
import type { Language } from '../../_shared/language.ts';
import { drawable } from './certificate-pdf.ts';
import { pdfFonts } from './pdf-fonts.ts';

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
  /** The language of the person who downloads it (profiles.language); English when not given. */
  language?: Language;
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

  constructor(readonly doc: PDFDocument, readonly fonts: Fonts, readonly continuation: string, readonly language: Language) {
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

function courseColumns(m: Messages): Column[] {
  const c = m.learningRecord.columns;
  return [
    { title: c.completed, width: 78 },
    { title: c.course, width: 180 },
    { title: c.hours, width: 40, align: 'right' },
    { title: c.score, width: 40, align: 'right' },
    { title: c.certificate, width: CONTENT - 78 - 180 - 40 - 40 },
  ];
}

function cpdColumns(m: Messages): Column[] {
  const c = m.learningRecord.columns;
  return [
    { title: c.date, width: 78 },
    { title: c.activity, width: CONTENT - 78 - 60 },
    { title: c.hours, width: 60, align: 'right' },
  ];
}

const SIZE = 9;
const LEADING = 12;

function courseRow(w: Writer, c: CompletedCourse) {
  const { regular, bold } = w.fonts;
  const m = messages(w.language);
  const COURSE_COLUMNS = courseColumns(m);
  const [date, course, hours, score, certificate] = COURSE_COLUMNS;
  const cells: { x: number; lines: { text: string; font: PDFFont; color?: typeof INK }[] }[] = [
    { x: MARGIN, lines: [{ text: formatDate(w.language, c.completedAt), font: regular }] },
    {
      x: MARGIN + date.width,
      lines: [
        ...wrap(bold, c.courseTitle, SIZE, course.width - 8).map((text) => ({ text, font: bold })),
        ...wrap(regular, c.service ? serviceName(w.language, c.service) : c.serviceLabel ?? '', SIZE, course.width - 8).filter(Boolean).map((text) => ({ text, font: regular, color: GREY })),
        ...(c.cycle > 1 ? [{ text: m.learningRecord.recertification(c.cycle - 1), font: regular, color: GREY }] : []),
      ],
    },
    {
      x: MARGIN + date.width + course.width + hours.width + score.width,
      lines: [
        { text: c.verificationCode, font: bold },
        ...wrap(regular, validityTextWithState(w.language, c), SIZE, certificate.width - 8).map((text) => ({ text, font: regular })),
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
  const m = messages(w.language);
  const CPD_COLUMNS = cpdColumns(m);
  const [date, activity, hours] = CPD_COLUMNS;
  const titleLines = wrap(bold, e.activity, SIZE, activity.width - 8);
  // The heading line of the entry stays with at least its first line of text.
  if (w.ensure(titleLines.length * LEADING + LEADING * 2 + 8)) w.tableHeader(CPD_COLUMNS);
  const top = w.y - 4;
  w.text(formatDate(w.language, e.activityDate), MARGIN + 4, top - SIZE, regular, SIZE);
  titleLines.forEach((line, i) => w.text(line, MARGIN + date.width + 4, top - SIZE - i * LEADING, bold, SIZE));
  w.rightText(String(e.hours), MARGIN + date.width + activity.width + hours.width - 4, top - SIZE, regular, SIZE);
  w.y = top - titleLines.length * LEADING;
  const indent = MARGIN + date.width + 4;
  const width = CONTENT - date.width - 8;
  for (const [label, body] of [[m.learningRecord.whatILearnt, e.learnt], [m.learningRecord.reflection, e.reflection]] as const) {
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
  const language = options.language ?? 'en-GB';
  const m = messages(language);
  const t = m.learningRecord;
  const date = (value: string | Date) => formatDate(language, value);
  const generated = new Date(record.generatedAt);
  const doc = await PDFDocument.create();
  doc.setTitle(t.documentTitle(record.learner.name));
  doc.setAuthor(options.siteName);
  doc.setSubject(t.documentSubject(record.learner.name));
  doc.setCreator(options.siteName);
  doc.setCreationDate(generated);
  // The standard fonts when they can write everything (an English record of WinAnsi names and
  // words, as always); a Welsh record, or one with a letter they lack, in the embedded fonts.
  const texts = [options.siteName, record.learner.name, ...record.completedCourses.flatMap((c) => [c.courseTitle, c.serviceLabel ?? '', c.verificationCode]),
    ...record.cpdEntries.flatMap((e) => [e.activity, e.learnt, e.reflection])];
  const fonts: Fonts = await pdfFonts(doc, ['regular', 'bold'], language === 'cy' ? null : texts);
  const info = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  info.set(PDFName.of('Learner'), PDFString.of(drawable(fonts.regular, record.learner.name).replace(/[^\x20-\x7e]/g, '?')));
  info.set(PDFName.of('TotalHours'), PDFString.of(String(record.totals.totalHours)));
  info.set(PDFName.of('Language'), PDFString.of(language));
  const w = new Writer(doc, fonts, t.continued(record.learner.name), language);
  const COURSE_COLUMNS = courseColumns(m);
  const CPD_COLUMNS = cpdColumns(m);

  w.text(options.siteName, MARGIN, w.y - 10, fonts.regular, 10, GREY);
  w.text(t.title, MARGIN, w.y - 38, fonts.bold, 24);
  w.text(record.learner.name, MARGIN, w.y - 62, fonts.bold, 14);
  w.text(t.generatedOn(date(generated)), MARGIN, w.y - 80, fonts.regular, 10, GREY);
  w.y -= 100;
  const { totals } = record;
  const boxHeight = 58;
  w.page.drawRectangle({ x: MARGIN, y: w.y - boxHeight, width: CONTENT, height: boxHeight, color: BAND });
  w.text(t.totalHours(totals.totalHours), MARGIN + 12, w.y - 22, fonts.bold, 13);
  w.text(
    t.totals(totals.completedCourses, hoursText(language, totals.courseHours), totals.cpdEntries, hoursText(language, totals.cpdHours)),
    MARGIN + 12, w.y - 42, fonts.regular, 10,
  );
  w.y -= boxHeight + 8;

  w.heading(t.completedCourses);
  if (record.completedCourses.length === 0) {
    w.text(t.noCompletedCourses, MARGIN, w.y - 12, fonts.regular, 10, GREY);
    w.y -= 20;
  } else {
    w.tableHeader(COURSE_COLUMNS);
    for (const course of record.completedCourses) courseRow(w, course);
    w.text(t.coursesNote, MARGIN, w.y - 12, fonts.regular, 8, GREY);
    w.y -= 20;
  }

  w.heading(t.cpdActivities);
  if (record.cpdEntries.length === 0) {
    w.text(t.noCpdActivities, MARGIN, w.y - 12, fonts.regular, 10, GREY);
    w.y -= 20;
  } else {
    w.tableHeader(CPD_COLUMNS);
    for (const entry of record.cpdEntries) cpdRow(w, entry);
  }

  const footer = t.footer(record.learner.name, date(generated));
  w.pages.forEach((page, i) => {
    const safe = drawable(fonts.regular, footer);
    page.drawText(safe, { x: MARGIN, y: MARGIN - 4, size: 8, font: fonts.regular, color: GREY });
    const label = t.page(i + 1, w.pages.length);
    page.drawText(label, { x: WIDTH - MARGIN - fonts.regular.widthOfTextAtSize(label, 8), y: MARGIN - 4, size: 8, font: fonts.regular, color: GREY });
  });
  return await doc.save({ useObjectStreams: false });
}
