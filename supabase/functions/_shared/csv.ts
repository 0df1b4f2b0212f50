// CSV writing shared by every export (learning record, compliance, ...).
// Excel-friendly: UTF-8 with a byte-order mark (so Excel reads £, é and the like correctly), CRLF line ends
// (RFC 4180), every field quoted when it needs to be. One format for every export: dates ISO
// `2026-11-25` (the Europe/London calendar day, from dates.ts), several values in one cell separated by `;`,
// and file names `<what>-2026-11-25.csv` (csvFileName).
// Formula injection: a text cell that starts with = + - @ TAB or CR would be run as a formula by spreadsheet
// software; such cells get a leading apostrophe (OWASP's advice), so '=HYPERLINK(...)' is shown as text.
// Numbers passed as numbers are never touched, so a negative number stays a number.

import { clockTime, isoDate, londonToday } from './dates.ts';

export type CsvValue = string | number | boolean | Date | null | undefined;

/** The byte-order mark that tells Excel the file is UTF-8. */
export const CSV_BOM = '\uFEFF';

/** The Content-Type for a CSV download. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

const FORMULA_START = /^[=+\-@\t\r]/;

/** Prefixes an apostrophe when a text value would be read as a formula. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A date cell: ISO `yyyy-mm-dd` (dates.ts isoDate), '' for nothing or rubbish. */
export const csvDate = isoDate;

/** A time cell: `HH:mm`, 24-hour, Europe/London (dates.ts clockTime), '' for nothing or rubbish. */
export const csvTime = clockTime;

/** Several values in one cell: joined with `;` (every export alike). */
export function csvList(values: readonly (string | null | undefined)[] | null | undefined): string {
  return (values ?? []).filter((v): v is string => typeof v === 'string' && v !== '').join(';');
}

/** A JSON value in one cell ('' for nothing). */
export function csvJson(value: unknown): string {
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

/** An export's file name: `<what>-2026-11-25.csv`, today's date in London. */
export function csvFileName(what: string, now: Date = new Date()): string {
  return `${what}-${londonToday(now)}.csv`;
}

/** One field: text neutralised, then quoted (doubling quotes) when it holds a comma, quote or line break. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = neutraliseFormula(value instanceof Date ? csvDate(value) : value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line (without its line end). */
export function csvRow(values: readonly CsvValue[]): string {
  return values.map(csvField).join(',');
}

/** A whole document: BOM, header row, rows, each line ended with CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return CSV_BOM + [header, ...rows].map((row) => `${csvRow(row)}\r\n`).join('');
}

/** A safe `Content-Disposition` for a download: ASCII file name plus the RFC 5987 UTF-8 form. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
