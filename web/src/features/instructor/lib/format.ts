// Display helpers of the instructor screens: UK dates and the specification's duration wording.
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });

/** 22 November 2026 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return 'Unknown';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Unknown' : dateFormat.format(date);
}

/** '1 hour' or 'N hours' (specification §2 My Courses). */
export function formatHours(hours: number): string {
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}
