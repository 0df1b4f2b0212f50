// zod schemas of the account forms with their messages, defined once for the web forms and the api
// function. Imports only zod, mapped to npm:zod in Deno and resolved from node_modules by Vite.
import { z } from 'zod';
import { LANGUAGES, LANGUAGE_MESSAGE } from './language.ts';

export const loginSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
  /** The browser's known-device token from an earlier sign-in (a malformed one is ignored). */
  device: z.string().regex(/^[A-Za-z0-9_-]{43}$/).optional().catch(undefined),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The account fields of registration, reused wherever an account is edited. */
export const usernameField = z
  .string({ error: 'Username must be at least 3 characters' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, numbers, dots, dashes and underscores');
export const emailField = z
  .string({ error: 'Invalid email address' })
  .trim()
  .email('Invalid email address')
  .max(254, 'Invalid email address');

/**
 * Characters no name may hold: C0 and C1 controls, soft hyphen, Arabic letter mark, Hangul fillers,
 * Mongolian vowel separator, zero-width spaces and joiners, directional marks, embeddings, overrides
 * and isolates, line and paragraph separators, invisible operators, the byte-order mark. They hide
 * or reorder what a reader sees (a name that looks like another, or reads backwards). The database's
 * private.has_invisible_characters refuses the same list.
 */
export const INVISIBLE_CHARACTERS =
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]/;
/** The field message of a name with such a character, the same for people, organisations and units. */
export const NAME_INVISIBLE = 'Name may not contain invisible or control characters';

/**
 * The one name rule, for every name written (registration, profile, the admin's user dialog, the
 * import, organisations and units): trimmed, in NFC (as the database stores it), within the form's
 * lengths, and free of INVISIBLE_CHARACTERS. Only the lengths and their messages differ by form.
 */
export function visibleName(limits: { min: number; max: number; tooShort: string; tooLong: string }) {
  return z
    .string({ error: limits.tooShort })
    .trim()
    .normalize('NFC')
    .min(limits.min, limits.tooShort)
    .max(limits.max, limits.tooLong)
    .refine((value) => !INVISIBLE_CHARACTERS.test(value), NAME_INVISIBLE);
}

/** Registration's and the profile's name. */
export const nameField = visibleName({
  min: 2,
  max: 100,
  tooShort: 'Name must be at least 2 characters',
  tooLong: 'Name must be at most 100 characters',
});
/** The server's answer (field error on the password) when a chosen password is on the common list. */
export const COMMON_PASSWORD = 'This password is too common and easy to guess. Please choose a different one.';
export const newPasswordField = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(72, 'Password must be at most 72 characters');
export const confirmPasswordField = z.string({ error: 'Please confirm your password' }).min(6, 'Please confirm your password');

export const registerSchema = z
  .object({
    username: usernameField,
    email: emailField,
    name: nameField,
    password: newPasswordField,
    confirmPassword: confirmPasswordField,
    /** The language of the page the person registered on: their profile's from the start. */
    language: z.enum(LANGUAGES, { error: LANGUAGE_MESSAGE }).optional(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type RegisterInput = z.infer<typeof registerSchema>;

/** Turns a zod error into `{ field: firstMessage }`, the `fields` of a 400 answer. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

// Notification intervals: the settings' defaults and a required-training rule's own.
const NOTICE_DAYS_MESSAGE = 'Enter a whole number of days between 1 and 365';

/** One interval in days, 1 to 365 (the database's checks agree). */
export const noticeDaysField = z
  .number({ error: NOTICE_DAYS_MESSAGE })
  .int(NOTICE_DAYS_MESSAGE)
  .min(1, NOTICE_DAYS_MESSAGE)
  .max(365, NOTICE_DAYS_MESSAGE);

const DAY_LIST_MESSAGE = 'Enter 1 to 5 numbers of days between 1 and 365, separated by commas, e.g. 14, 3';

/** Words of a typed list ("14, 3") as numbers; anything else as given. */
function typedDays(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value.split(/[\s,]+/).filter(Boolean).map((word) => (/^\d{1,4}$/.test(word) ? Number(word) : Number.NaN));
}

/**
 * 1 to 5 distinct days of 1 to 365, as numbers or typed ("14, 3"); answered largest first, as the
 * database keeps them (its checks agree).
 */
export const noticeDayListField = z.preprocess(
  typedDays,
  // (each day checked by the list's own refinement, so that the message is on the field, not on an item)
  z
    .array(z.unknown(), { error: DAY_LIST_MESSAGE })
    .min(1, DAY_LIST_MESSAGE)
    .max(5, DAY_LIST_MESSAGE)
    .refine((days) => days.every((d) => typeof d === 'number' && Number.isInteger(d) && d >= 1 && d <= 365), DAY_LIST_MESSAGE)
    .refine((days) => new Set(days).size === days.length, 'Enter each number of days once')
    .transform((days) => (days as number[]).slice().sort((a, b) => b - a)),
);

/** A rule's override: as above, or null (blank) for the settings' default. */
export const noticeDayListOverrideField = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  noticeDayListField.nullable(),
);

/** A rule's single-day override, or null (blank) for the settings' default. */
export const noticeDaysOverrideField = z.preprocess(
  (value) => (value === '' ? null : value),
  noticeDaysField.nullable(),
);

/** A day list as people type it: 14, 3. */
export const formatDayList = (days: readonly number[] | null | undefined): string => (days ?? []).join(', ');
