// Administration (the admin dashboard, the settings form): the shapes and zod schemas shared by the
// admin screens and the api function, so every field message is written once.
import { z } from 'zod';
import {
  CERTIFICATE_TEMPLATES,
  COURSE_ACCESS_OPTIONS,
  DEFAULT_SITE_NAME,
  ROLES,
  type CertificateTemplate,
  type CourseAccess,
  type Role,
  type User,
} from './domain.ts';
import { SERVICE_CODES, type ServiceCode } from './services.ts';
import { UUID_PATTERN } from './ids.ts';
import { noticeDayListField, noticeDaysField, usernameField, visibleName } from './schemas.ts';
import { SCORM_UPLOAD_LIMIT_MB, scormUploadLimitField } from './scorm.ts';
import { SESSION_OFFER_HOURS, sessionOfferHoursField } from './sessions.ts';

/** Role presets for the permission dialog: the services each role is given by default. */
export const ROLE_SERVICE_PRESETS: Record<Role, ServiceCode[]> = {
  ADMIN: [...SERVICE_CODES],
  INSTRUCTOR: ['UKPS', 'MISC'],
  STUDENT: ['MISC'],
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  ADMIN: 'Full access to all system features',
  INSTRUCTOR: 'Can create and manage courses and view student progress',
  STUDENT: 'Can enroll in courses and view own progress',
};

const serviceList = z
  .array(z.enum(SERVICE_CODES, { error: 'Unknown service' }), { error: 'Services must be a list' })
  .max(SERVICE_CODES.length * 4, 'Too many services')
  .transform((list) => SERVICE_CODES.filter((code) => list.includes(code)));

const roleField = z.enum(ROLES, { error: 'Role is required' });
const emailField = z
  .string({ error: 'Please enter a valid email' })
  .trim()
  .email('Please enter a valid email')
  .max(254, 'Please enter a valid email');
const nameField = visibleName({ min: 1, max: 200, tooShort: 'Name is required', tooLong: 'Name must be at most 200 characters' });

/** Edit User dialog (the specification shows no validation; the database's limits apply). */
// Organisation, unit and manager: an id, or null for none.
const placementField = (message: string) =>
  z.union([z.string().regex(UUID_PATTERN, message).transform((v) => v.toLowerCase()), z.null()], { error: message });

/** An id in a list's query: a uuid (any case). */
const filterId = (message: string) => z.string().trim().regex(UUID_PATTERN, message).transform((v) => v.toLowerCase());

export const userUpdateSchema = z.object({
  name: nameField.optional(),
  email: emailField.optional(),
  role: roleField.optional(),
  services: serviceList.optional(),
  organisationId: placementField('Choose an organisation').optional(),
  unitId: placementField('Choose a unit of the person\'s organisation').optional(),
  managerId: placementField('Choose a manager of the person\'s organisation').optional(),
});
export type UserUpdateInput = z.input<typeof userUpdateSchema>;

/** Add New User dialog: the account gets a generated temporary password. */
export const userCreateSchema = z.object({
  username: usernameField,
  email: emailField,
  name: nameField,
  role: roleField.default('STUDENT'),
  services: serviceList.default([]),
});
export type UserCreateInput = z.input<typeof userCreateSchema>;

export const roleServicesSchema = z.object({ services: serviceList });

/** A person's account status in the Users list: a leaver is deactivated, not deleted. */
export const USER_STATUSES = ['active', 'deactivated'] as const;

/** Query of GET /api/users and GET /api/audit. */
export const pageQuerySchema = z.object({
  page: z.coerce.number({ error: 'Page must be a whole number' }).int('Page must be a whole number').min(1, 'Page must be at least 1').max(100000, 'Page is too large').default(1),
  pageSize: z.coerce.number({ error: 'Page size must be a whole number' }).int('Page size must be a whole number').min(1, 'Page size must be at least 1').max(100, 'Page size must be at most 100').default(20),
});

export const userListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(200, 'Search is too long').optional(),
  service: z.enum(SERVICE_CODES, { error: 'Unknown service' }).optional(),
  role: z.enum(ROLES, { error: 'Unknown role' }).optional(),
  status: z.enum(USER_STATUSES, { error: 'Status must be active or deactivated' }).optional(),
  // The people of an organisation, of a unit (with its sub-units), or of a line manager.
  organisationId: filterId('Choose an organisation').optional(),
  unitId: filterId('Choose a unit').optional(),
  managerId: filterId('Choose a manager').optional(),
});

/** Settings form: siteName required, adminEmail a valid email. */
export const settingsSchema = z.object({
  siteName: z
    .string({ error: 'Site name is required' })
    .trim()
    .min(1, 'Site name is required')
    .max(200, 'Site name must be at most 200 characters'),
  adminEmail: emailField,
  courseAccess: z.enum(COURSE_ACCESS_OPTIONS, { error: 'Choose a course access option' }),
  certificateTemplate: z.enum(CERTIFICATE_TEMPLATES, { error: 'Choose a certificate template' }),
  footerText: z.string({ error: 'Footer text must be text' }).max(500, 'Footer text must be at most 500 characters'),
  enableAnalytics: z.boolean({ error: 'Enable analytics must be true or false' }),
  autoEnrollment: z.boolean({ error: 'Auto-enrolment must be true or false' }),
  // Notifications: the default intervals; left out, they stay as they are.
  /** Days before a required course is due when "due soon" notices go (a rule may override). */
  dueSoonDays: noticeDayListField.optional(),
  /** Days before a certificate expires when "expiring" notices go. */
  expiryWarningDays: noticeDayListField.optional(),
  /** An overdue notice on the due date, then every so many days. */
  overdueRepeatDays: noticeDaysField.optional(),
  /** Days overdue after which the line manager is told (a rule may override). */
  escalationDays: noticeDaysField.optional(),
  /** The largest SCORM package accepted, in MB; left out, it stays as it is. */
  scormMaxUploadMb: scormUploadLimitField.optional(),
  /** How long a freed classroom place offered to the waiting list is held, in hours; left out, as it is. */
  sessionOfferHours: sessionOfferHoursField.optional(),
});
export type SettingsInput = z.input<typeof settingsSchema>;

/** What 'Reset to Defaults' fills in: the schema's defaults, a fuller footer. */
export const DEFAULT_SETTINGS: SettingsInput = {
  siteName: DEFAULT_SITE_NAME,
  adminEmail: 'admin@emergency-services-learning.uk',
  courseAccess: 'public-login',
  certificateTemplate: 'standard',
  footerText: '© 2026 Emergency Services Learning. All rights reserved. Training for the UK emergency services.',
  enableAnalytics: true,
  autoEnrollment: false,
  dueSoonDays: [14, 3],
  expiryWarningDays: [60, 30, 7],
  overdueRepeatDays: 7,
  escalationDays: 7,
  scormMaxUploadMb: SCORM_UPLOAD_LIMIT_MB.default,
  sessionOfferHours: SESSION_OFFER_HOURS.default,
};

/** GET /api/settings. contactEmail: signed-in callers only; adminEmail: admins only. */
export interface PublicSettings {
  siteName: string;
  courseAccess: CourseAccess;
  certificateTemplate: CertificateTemplate;
  footerText: string;
  enableAnalytics: boolean;
  autoEnrollment: boolean;
  /** The notification intervals (largest first). */
  dueSoonDays: number[];
  expiryWarningDays: number[];
  overdueRepeatDays: number;
  escalationDays: number;
  /** The largest SCORM package accepted, in MB (the course editor's upload control states it). */
  scormMaxUploadMb: number;
  /** Hours a place offered from a classroom session's waiting list is held. */
  sessionOfferHours: number;
  updatedAt: string;
  contactEmail: string | null;
  adminEmail?: string;
}

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * A search of the Users tab keeps at most this many matches (its cost must not follow how
 * many of 100,000 people a short term matches). Beyond it the tab asks for a longer search term.
 */
export const USER_SEARCH_MATCH_LIMIT = 100;

/** GET /api/users: a page of users; `moreMatches` when a search matched more than USER_SEARCH_MATCH_LIMIT. */
/** A row of the Users list: the person, with the names of their organisation, unit and manager. */
export interface UserListItem extends User {
  organisationName?: string;
  unitName?: string;
  managerName?: string;
}

export interface UserList extends Paged<UserListItem> {
  moreMatches: boolean;
}

export interface CreatedUser {
  user: User;
  /** Shown once to the admin; never stored in clear or returned again. */
  temporaryPassword: string;
}

export type ServiceHolding = 'all' | 'some' | 'none';

export interface RolePermissions {
  role: Role;
  users: number;
  services: Record<ServiceCode, ServiceHolding>;
}

export interface AuditEvent {
  id: string;
  occurredAt: string;
  actor: { id: string | null; name: string | null; username: string | null } | null;
  action: string;
  targetType: string;
  targetId: string | null;
  targetLabel: string | null;
  oldData: Record<string, unknown> | null;
  newData: Record<string, unknown> | null;
}

/** A strong temporary password from a cryptographic source (Web Crypto: Deno and browsers). */
export function generateTemporaryPassword(length = 20): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!@#%*-_+=';
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!@#%*-_+='];
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    // 256 % alphabet.length bias is negligible next to 20 characters of entropy, but reject anyway.
    const limit = 256 - (256 % alphabet.length);
    if (bytes.some((b) => b >= limit)) continue;
    const password = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
    if (sets.every((set) => [...password].some((ch) => set.includes(ch)))) return password;
  }
}
