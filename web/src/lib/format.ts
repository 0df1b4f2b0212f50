// How the product writes dates and durations: `22 November 2026`, in London time (en-GB).
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

function toDate(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `22 November 2026`, or 'Unknown' when there is no date (the specification's wording). */
export function formatDate(iso: string | null | undefined): string {
  const date = toDate(iso);
  return date ? dateFormat.format(date) : 'Unknown';
}

/** `22 November 2026 at 14:05`, or 'Unknown'. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = toDate(iso);
  return date ? dateTimeFormat.format(date) : 'Unknown';
}

/** '1 hour' or 'N hours' (specification §2). */
export function formatHours(hours: number): string {
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}
