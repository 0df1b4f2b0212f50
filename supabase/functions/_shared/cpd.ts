// The CPD record: a learner's completed courses plus their own CPD entries. The entry
// schema, with its messages, is shared by the form in the browser and /api/me/cpd-entries; the
// rules match the table's checks (supabase/schemas/08_cpd.sql).
import { z } from 'zod';
import type { CertificateState } from './certificates.ts';
import { londonToday } from './dates.ts';

export const CPD_ACTIVITY_MAX = 200;
export const CPD_TEXT_MAX = 5000;
export const CPD_HOURS_MIN = 0.25;
export const CPD_HOURS_MAX = 1000;
/** The earliest activity date accepted (the table's floor). */
export const CPD_EARLIEST_DATE = '1950-01-01';
export const CPD_PAGE_SIZE = 20;

export const CPD_MESSAGES = {
  dateRequired: 'Enter the date of the activity',
  dateInvalid: 'Enter a real date',
  dateFuture: 'The activity date cannot be in the future',
  dateTooEarly: 'The activity date cannot be before 1950',
  activityShort: 'Describe the activity in at least 3 characters',
  activityLong: `The activity must be at most ${CPD_ACTIVITY_MAX} characters`,
  hoursRequired: 'Enter the hours spent',
  hoursRange: `Hours must be between ${CPD_HOURS_MIN} and ${CPD_HOURS_MAX}`,
  hoursQuarter: 'Hours must be in quarter hours (for example 1.25 or 1.5)',
  learntRequired: 'Describe what you learnt',
  learntLong: `What you learnt must be at most ${CPD_TEXT_MAX} characters`,
  reflectionLong: `The reflection must be at most ${CPD_TEXT_MAX} characters`,
} as const;

/** Today's calendar date in London as `YYYY-MM-DD` (the day the database's check uses); from dates.ts. */
export { londonToday };

/** True for a real calendar date written `YYYY-MM-DD` (no 31 February). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whole quarter hours (0.25 steps), allowing for binary fractions. */
export function isQuarterHours(hours: number): boolean {
  return Math.abs(hours * 4 - Math.round(hours * 4)) < 1e-9;
}

const activityDateField = z
  .string({ error: CPD_MESSAGES.dateRequired })
  .trim()
  .min(1, CPD_MESSAGES.dateRequired)
  .superRefine((value, ctx) => {
    if (!value) return;
    if (!isCalendarDate(value)) ctx.addIssue({ code: 'custom', message: CPD_MESSAGES.dateInvalid });
    else if (value < CPD_EARLIEST_DATE) ctx.addIssue({ code: 'custom', message: CPD_MESSAGES.dateTooEarly });
    else if (value > londonToday()) ctx.addIssue({ code: 'custom', message: CPD_MESSAGES.dateFuture });
  });

/** A CPD entry as created or replaced (POST and PUT /api/me/cpd-entries, and the form). */
export const cpdEntrySchema = z.object({
  activityDate: activityDateField,
  activity: z
    .string({ error: CPD_MESSAGES.activityShort })
    .trim()
    .min(3, CPD_MESSAGES.activityShort)
    .max(CPD_ACTIVITY_MAX, CPD_MESSAGES.activityLong),
  hours: z
    .number({ error: CPD_MESSAGES.hoursRequired })
    .min(CPD_HOURS_MIN, CPD_MESSAGES.hoursRange)
    .max(CPD_HOURS_MAX, CPD_MESSAGES.hoursRange)
    .refine(isQuarterHours, CPD_MESSAGES.hoursQuarter),
  learnt: z
    .string({ error: CPD_MESSAGES.learntRequired })
    .trim()
    .min(1, CPD_MESSAGES.learntRequired)
    .max(CPD_TEXT_MAX, CPD_MESSAGES.learntLong),
  reflection: z
    .string({ error: CPD_MESSAGES.reflectionLong })
    .trim()
    .max(CPD_TEXT_MAX, CPD_MESSAGES.reflectionLong)
    .default(''),
});
export type CpdEntryValues = z.infer<typeof cpdEntrySchema>;

/** Paging of GET /api/me/cpd-entries. */
export const cpdListQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'Page must be a whole number of at least 1' })
    .int('Page must be a whole number of at least 1')
    .min(1, 'Page must be a whole number of at least 1')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'Page size must be between 1 and 100' })
    .int('Page size must be between 1 and 100')
    .min(1, 'Page size must be between 1 and 100')
    .max(100, 'Page size must be between 1 and 100')
    .default(CPD_PAGE_SIZE),
});

export interface CpdEntry {
  id: string;
  /** `YYYY-MM-DD`, a calendar date. */
  activityDate: string;
  activity: string;
  hours: number;
  learnt: string;
  reflection: string;
  createdAt: string;
  updatedAt: string;
}

/** One completed course: one certificate (a learner may complete a course once per cycle). */
export interface CompletedCourse {
  certificateId: string;
  /** Null once the course was deleted (the certificate keeps its title and service). */
  courseId: string | null;
  courseTitle: string;
  /** The course's Welsh title as issued; null when it had none. */
  courseTitleCy: string | null;
  service: string | null;
  serviceLabel: string | null;
  cycle: number;
  completedAt: string;
  /** The course's duration in hours; null once the course was deleted. */
  hours: number | null;
  /** Percent, where the course has a quiz; else null. */
  score: number | null;
  verificationCode: string;
  expiresAt: string | null;
  revokedAt: string | null;
  state: CertificateState;
}

export interface LearningRecordTotals {
  /** Hours of the completed courses, revoked certificates excluded. */
  courseHours: number;
  cpdHours: number;
  totalHours: number;
  completedCourses: number;
  cpdEntries: number;
}

export interface LearningRecord {
  learner: { id: string; name: string; username: string };
  generatedAt: string;
  completedCourses: CompletedCourse[];
  cpdEntries: CpdEntry[];
  totals: LearningRecordTotals;
}

/** Totals of a record: revoked certificates count no hours; sums kept to quarter hours exactly. */
export function learningRecordTotals(completed: readonly CompletedCourse[], entries: readonly CpdEntry[]): LearningRecordTotals {
  const courseHours = completed.reduce((sum, c) => sum + (c.state === 'revoked' ? 0 : c.hours ?? 0), 0);
  const cpdHours = Math.round(entries.reduce((sum, e) => sum + e.hours, 0) * 100) / 100;
  return {
    courseHours,
    cpdHours,
    totalHours: Math.round((courseHours + cpdHours) * 100) / 100,
    completedCourses: completed.length,
    cpdEntries: entries.length,
  };
}

/** `1 hour`, `1.5 hours`, `12.25 hours`. */
export function hoursText(hours: number): string {
  const text = Number.isInteger(hours) ? String(hours) : String(Math.round(hours * 100) / 100);
  return `${text} ${hours === 1 ? 'hour' : 'hours'}`;
}

/** `learning-record-sam_patel-2026-11-22.pdf` (usernames are ASCII letters, digits, . _ -). */
export function learningRecordFileName(username: string, extension: 'pdf' | 'csv', now: Date = new Date()): string {
  const safe = username.replace(/[^A-Za-z0-9_.-]/g, '_') || 'learner';
  return `learning-record-${safe}-${londonToday(now)}.${extension}`;
}
