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
