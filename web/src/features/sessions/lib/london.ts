// London wall-clock times of classroom sessions: the form's date and 24-hour time fields from an instant
// (londonInstant, @shared/sessions.ts, goes the other way), `09:30` on screen, a session's span
// (`22 November 2026, 09:30–16:00`), and the London days of a month for the calendar.
import { formatDate } from '@/lib/format';

const LONDON = 'Europe/London';
const PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: LONDON, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
});

/** The London calendar day (`2026-07-14`) and time (`10:00`) of an instant. */
export function londonParts(iso: string): { date: string; time: string } {
  const p = Object.fromEntries(PARTS.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/** `09:30`: the London time of an instant, 24-hour. */
export function londonTime(iso: string): string {
  return londonParts(iso).time;
}

/** `22 November 2026, 09:30–16:00`, or both ends in full when the session runs over days. */
export function sessionSpan(startsAt: string, endsAt: string): string {
  const start = londonParts(startsAt);
  const end = londonParts(endsAt);
  if (start.date === end.date) return `${formatDate(startsAt)}, ${start.time}–${end.time}`;
  return `${formatDate(startsAt)}, ${start.time} – ${formatDate(endsAt)}, ${end.time}`;
}

/** `2026-11` of a London day `2026-11-22`, and the month after or before. */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number);
  const at = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The days of a month (`2026-11`) as `2026-11-01` …, and the weekday of the first (0 Monday … 6 Sunday). */
export function monthDays(month: string): { days: string[]; firstWeekday: number } {
  const [y, m] = month.split('-').map(Number);
  const count = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const days = Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
  const firstWeekday = (new Date(Date.UTC(y, m - 1, 1)).getUTCDay() + 6) % 7;
  return { days, firstWeekday };
}

/** A calendar day (`2026-11-30`) moved by days (`2026-12-01` for 1), across months and years. */
export function shiftDay(day: string, by: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + by)).toISOString().slice(0, 10);
}

/** The same day of the month before or after (by months), the month's last where it has fewer days. */
export function shiftDayByMonths(day: string, by: number): string {
  const { days } = monthDays(shiftMonth(day.slice(0, 7), by));
  return days[Math.min(Number(day.slice(8)), days.length) - 1];
}
