// How the web app writes dates and durations, in the page's language and London time: `22 November
// 2026` / `22 Tachwedd 2026`, `22 November 2026 at 14:05` / `22 Tachwedd 2026 am 14:05` (the same days
// as @shared/dates.ts gives the PDFs and CSVs), and 'Unknown' / 'Anhysbys' where there is no date.
import { toDate, type DateInput } from '@shared/dates.ts';
import { currentLanguage, i18n } from '@/lib/i18n/i18n';
import type { Language } from '@/lib/i18n/language';

const LONDON = 'Europe/London';
// Made on first use, per language: a formatter costs a few milliseconds to make.
const formats = new Map<string, Intl.DateTimeFormat>();
function format(kind: 'date' | 'dateTime', language: Language): Intl.DateTimeFormat {
  const key = `${kind}:${language}`;
  let made = formats.get(key);
  if (!made) {
    const time = kind === 'dateTime' ? ({ hour: '2-digit', minute: '2-digit' } as const) : {};
    made = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'long', year: 'numeric', ...time, timeZone: LONDON });
    formats.set(key, made);
  }
  return made;
}

const unknown = () => i18n.t('format.unknown', { ns: 'common' });

/** `22 November 2026`, or 'Unknown' when there is no date. */
export function formatDate(iso: DateInput): string {
  const date = toDate(iso);
  return date ? format('date', currentLanguage()).format(date) : unknown();
}

/** `22 November 2026 at 14:05`, or 'Unknown'. */
export function formatDateTime(iso: DateInput): string {
  const date = toDate(iso);
  return date ? format('dateTime', currentLanguage()).format(date) : unknown();
}

/** A number as the page's language writes it (`1,234`). */
export function formatNumber(value: number): string {
  return value.toLocaleString(currentLanguage());
}

/** A size with its unit symbol (KB, MB: the same in both languages), the number as the page's language writes it. */
export function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${formatNumber(Math.max(1, Math.round(bytes / 1024)))} KB`;
  return `${formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`;
}

/** '1 hour' or 'N hours'. */
export function formatHours(hours: number): string {
  return i18n.t('format.hours', { ns: 'common', count: hours });
}

/** A time spent, in words: '45 seconds', '12 minutes', '1 hour 5 minutes'; 'None' for none. */
export function formatTimeSpent(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s === 0) return i18n.t('format.none', { ns: 'common' });
  const unit = (count: number, name: 'seconds' | 'minutes' | 'hours') => i18n.t(`format.${name}`, { ns: 'common', count });
  if (s < 60) return unit(s, 'seconds');
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (hours === 0) return unit(minutes, 'minutes');
  return minutes === 0 ? unit(hours, 'hours') : `${unit(hours, 'hours')} ${unit(minutes, 'minutes')}`;
}
