// Notifications: the kinds, their names in the preferences, the list's query and the
// preferences' schema, shared by the web app and /api/notifications, /api/me/notification-preferences.
// The kinds and the ones whose email cannot be switched off match supabase/schemas/15_notifications.sql.
import { z } from 'zod';

export const NOTIFICATION_KINDS = [
  'training-assigned',
  'training-due-soon',
  'training-overdue',
  'manager-escalation',
  'manager-digest',
  'certificate-expiring',
  'certificate-expired',
  'certificate-issued',
  'enrolment-approved',
  'enrolment-declined',
  'session-booked',
  'session-waiting',
  'session-place-offered',
  'session-changed',
  'session-cancelled',
  'session-reminder',
  'session-approval-requested',
  'session-booking-declined',
  'assessment-recorded',
  'reassessment-requested',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Kinds no preference lists or switches off: the welcome to a new account (17_account_welcome.sql). */
export const UNSWITCHABLE_NOTIFICATION_KINDS = ['account-welcome'] as const;
/** Every kind a notice may have. */
export type AnyNotificationKind = NotificationKind | (typeof UNSWITCHABLE_NOTIFICATION_KINDS)[number];

/** Overdue and expiry notices: their email cannot be switched off (the database's check agrees). */
export const MANDATORY_NOTIFICATION_KINDS: readonly NotificationKind[] = ['training-overdue', 'certificate-expiring', 'certificate-expired'];

export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  'training-assigned': 'Required training assigned to me',
  'training-due-soon': 'Required training due soon',
  'training-overdue': 'Required training overdue',
  'manager-escalation': 'Someone I manage is overdue',
  'manager-digest': 'Weekly summary of my team (Mondays)',
  'certificate-expiring': 'A certificate of mine is about to expire',
  'certificate-expired': 'A certificate of mine has expired',
  'certificate-issued': 'A certificate issued to me',
  'enrolment-approved': 'An enrolment of mine approved',
  'enrolment-declined': 'An enrolment of mine declined',
  'session-booked': 'A place booked for me on a classroom session',
  'session-waiting': 'I am on a classroom session\'s waiting list',
  'session-place-offered': 'A place on a classroom session offered to me',
  'session-changed': 'A classroom session I am booked on changed',
  'session-cancelled': 'A classroom session I am booked on cancelled',
  'session-reminder': 'Reminders of my classroom sessions (7 days and 1 day before)',
  'session-approval-requested': 'Someone I manage asks to book a classroom session',
  'session-booking-declined': 'A classroom session booking of mine declined',
  'assessment-recorded': 'An assessment of mine recorded',
  'reassessment-requested': 'A learner asks to be reassessed',
};

export const NOTIFICATION_LANGUAGES = ['en-GB'] as const;
export type NotificationLanguage = (typeof NOTIFICATION_LANGUAGES)[number];

export const MANDATORY_EMAIL_MESSAGE = 'Email about overdue training and expiring certificates cannot be switched off';

/** One notice as GET /api/notifications lists it. */
export interface Notification {
  id: string;
  kind: AnyNotificationKind;
  title: string;
  body: string;
  linkPath: string | null;
  createdAt: string;
  readAt: string | null;
}

export interface NotificationPage {
  items: Notification[];
  total: number;
  unreadCount: number;
  page: number;
  pageSize: number;
}

/** GET /api/me/notification-preferences: every kind with its email choice. */
export interface NotificationPreferences {
  language: NotificationLanguage;
  email: Record<NotificationKind, boolean>;
}

export const notificationListQuerySchema = z.object({
  page: z.coerce.number({ error: 'Page must be a whole number from 1' }).int('Page must be a whole number from 1')
    .min(1, 'Page must be a whole number from 1').max(100000, 'Page is too large').default(1),
  pageSize: z.coerce.number({ error: 'Page size must be between 1 and 100' }).int('Page size must be between 1 and 100')
    .min(1, 'Page size must be between 1 and 100').max(100, 'Page size must be between 1 and 100').default(20),
  unread: z.enum(['true', 'false'], { error: 'Unread must be true or false' }).optional()
    .transform((value) => value === 'true'),
});

const emailShape = Object.fromEntries(
  NOTIFICATION_KINDS.map((kind) => [kind, z.boolean({ error: 'Choose on or off' }).optional()]),
) as Record<NotificationKind, z.ZodOptional<z.ZodBoolean>>;

/** PUT /api/me/notification-preferences: the language and, per kind, email on (true) or off (false);
 * a kind left out keeps email on. Switching off an overdue or expiry kind is refused on that field. */
export const notificationPreferencesSchema = z.object({
  language: z.enum(NOTIFICATION_LANGUAGES, { error: 'Choose a language' }).default('en-GB'),
  email: z.strictObject(emailShape, { error: 'Choose email on or off for each kind' }).default({}),
}).superRefine((value, ctx) => {
  for (const kind of MANDATORY_NOTIFICATION_KINDS) {
    if (value.email[kind] === false) {
      ctx.addIssue({ code: 'custom', path: ['email', kind], message: MANDATORY_EMAIL_MESSAGE });
    }
  }
});
export type NotificationPreferencesInput = z.input<typeof notificationPreferencesSchema>;

/** The kinds a person switched email off for, from the preferences sent. */
export function emailOffKinds(email: Partial<Record<NotificationKind, boolean | undefined>>): NotificationKind[] {
  return NOTIFICATION_KINDS.filter((kind) => email[kind] === false);
}

// ---------------------------------------------------------------------------
// Email delivery (the administrators' Delivery list, GET /api/notifications/deliveries)
// ---------------------------------------------------------------------------

/** queued (to send, or waiting to retry) | sent | failed (retries spent) | skipped (not to be sent). */
export const EMAIL_STATUSES = ['queued', 'sent', 'failed', 'skipped'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const EMAIL_STATUS_LABELS: Record<EmailStatus, string> = {
  queued: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
  skipped: 'Not sent',
};

/** One notice's email as the Delivery list shows it. */
export interface Delivery {
  id: string;
  kind: string;
  title: string;
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string | null;
  recipient: { id: string; name: string; email: string };
}

export interface DeliveryPage {
  items: Delivery[];
  total: number;
  page: number;
  pageSize: number;
}

export const deliveryListQuerySchema = z.object({
  page: notificationListQuerySchema.shape.page,
  pageSize: notificationListQuerySchema.shape.pageSize,
  status: z.enum(EMAIL_STATUSES, { error: 'Status must be queued, sent, failed or skipped' }).optional(),
});

/** POST /api/notifications/deliver (the schedule's call): how many emails at most this run sends. */
export const deliverBodySchema = z.strictObject({
  max: z.number({ error: 'Max must be a whole number from 1 to 5000' }).int('Max must be a whole number from 1 to 5000')
    .min(1, 'Max must be a whole number from 1 to 5000').max(5000, 'Max must be a whole number from 1 to 5000').optional(),
}, { error: 'Unknown field' });

/** Short names of the kinds for the administrators' Delivery list (any other kind shows as it is). */
export const NOTIFICATION_KIND_NAMES: Record<string, string> = {
  'training-assigned': 'Training assigned',
  'training-due-soon': 'Training due soon',
  'training-overdue': 'Training overdue',
  'manager-escalation': 'Report overdue',
  'certificate-expiring': 'Certificate expiring',
  'certificate-expired': 'Certificate expired',
  'certificate-issued': 'Certificate issued',
  'enrolment-approved': 'Enrolment approved',
  'enrolment-declined': 'Enrolment declined',
  'manager-digest': 'Weekly team digest',
  'account-welcome': 'Welcome',
  'session-booked': 'Session booked',
  'session-waiting': 'Session waiting list',
  'session-place-offered': 'Session place offered',
  'session-changed': 'Session changed',
  'session-cancelled': 'Session cancelled',
  'session-reminder': 'Session reminder',
  'session-approval-requested': 'Session approval asked',
  'session-booking-declined': 'Session booking declined',
  'assessment-recorded': 'Assessment recorded',
  'reassessment-requested': 'Reassessment asked',
};
