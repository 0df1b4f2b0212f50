// Dates as the product writes them, in one place for the web app, the PDFs and the CSVs. Every date is
// read in London time (Europe/London, GMT or BST):
// - on screen and in PDFs, en-GB long dates: `22 November 2026`, and `22 November 2026 at 14:05`;
// - in CSVs and file names, ISO calendar days: `2026-11-22`, and times `14:05`;
// - in the API's JSON, ISO timestamps: `2026-11-22T14:05:00.000Z` (isoTimestamp).
// A plain calendar date (`2026-11-22`, as Postgres sends a `date`) is taken as that day, never shifted.

export type DateInput = string | Date | null | undefined;

const LONDON = 'Europe/London';
// Made on first use: a formatter costs a few milliseconds to make (the locale's and the time zone's
// data), which the web app would otherwise spend while its first page starts.
function lazy(make: () => Intl.DateTimeFormat): () => Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat | undefined;
  return () => (format ??= make());
}
const longDateFormat = lazy(() => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: LONDON }));
const longDateTimeFormat = lazy(
  () =>
    new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: LONDON,
    }),
);
const isoDayFormat = lazy(() => new Intl.DateTimeFormat('en-CA', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: LONDON }));
const clockFormat = lazy(() => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: LONDON }));

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The instant of a value; a calendar day is taken at 12:00 UTC, which is that day in London in any season. Null for nothing or rubbish. */
export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(CALENDAR_DAY.test(value) ? `${value}T12:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `22 November 2026` (London), or `empty` for nothing or rubbish. */
export function longDate(value: DateInput, empty = ''): string {
  const date = toDate(value);
  return date ? longDateFormat().format(date) : empty;
}

/** `22 November 2026 at 14:05` (London), or `empty` for nothing or rubbish. */
export function longDateTime(value: DateInput, empty = ''): string {
  const date = toDate(value);
  return date ? longDateTimeFormat().format(date) : empty;
}

/** ISO `2026-11-22`: a calendar day as it is, a timestamp as its London day; '' for nothing or rubbish. */
export function isoDate(value: DateInput): string {
  if (typeof value === 'string' && CALENDAR_DAY.test(value)) return value;
  const date = toDate(value);
  return date ? isoDayFormat().format(date) : '';
}

/** `14:05`, 24-hour, London; '' for nothing or rubbish. */
export function clockTime(value: DateInput): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : clockFormat().format(date);
}

/** Today's calendar day in London, `2026-11-22` (the day the database's checks use). */
export function londonToday(now: Date = new Date()): string {
  return isoDayFormat().format(now);
}

/** A timestamp from the database as the API's ISO text (`2026-11-22T14:05:00.000Z`); null stays null. */
export function isoTimestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}
