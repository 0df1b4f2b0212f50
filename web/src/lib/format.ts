// How the web app writes dates and durations: `22 November 2026`, in London time (en-GB), from the
// one formatter the PDFs and CSVs also use (@shared/dates.ts); 'Unknown' where there is no date.
import { longDate, longDateTime } from '@shared/dates.ts';

/** `22 November 2026`, or 'Unknown' when there is no date. */
export function formatDate(iso: string | null | undefined): string {
  return longDate(iso, 'Unknown');
}

/** `22 November 2026 at 14:05`, or 'Unknown'. */
export function formatDateTime(iso: string | null | undefined): string {
  return longDateTime(iso, 'Unknown');
}

/** '1 hour' or 'N hours'. */
export function formatHours(hours: number): string {
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/** A time spent, in words: '45 seconds', '12 minutes', '1 hour 5 minutes'; 'None' for none. */
export function formatTimeSpent(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s === 0) return 'None';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (s < 60) return plural(s, 'second');
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (hours === 0) return plural(minutes, 'minute');
  return minutes === 0 ? plural(hours, 'hour') : `${plural(hours, 'hour')} ${plural(minutes, 'minute')}`;
}
