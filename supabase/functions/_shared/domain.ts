// Roles, course vocabularies and settings options, shared by the web app and the api function.
import type { Language } from './language.ts';

export type { Language } from './language.ts';

export const PRODUCT_NAME = 'Emergency Services Learning';
export const PRODUCT_VERSION = 3;
export const DEFAULT_SITE_NAME = `${PRODUCT_NAME} v${PRODUCT_VERSION}`;

export const ROLES = ['ADMIN', 'INSTRUCTOR', 'STUDENT'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LABELS: Record<Role, string> = {
  ADMIN: 'Administrator',
  INSTRUCTOR: 'Instructor',
  STUDENT: 'Student',
};

export const COURSE_STATUSES = ['DRAFT', 'ACTIVE', 'ARCHIVED'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];
/** ACTIVE is shown to people as "Published" (the stored value stays ACTIVE). */
export const COURSE_STATUS_LABELS: Record<CourseStatus, string> = {
  DRAFT: 'Draft',
  ACTIVE: 'Published',
  ARCHIVED: 'Archived',
};

export const COURSE_LEVELS = ['BEGINNER', 'INTERMEDIATE', 'ADVANCED'] as const;
export type CourseLevel = (typeof COURSE_LEVELS)[number];
export const COURSE_LEVEL_LABELS: Record<CourseLevel, string> = {
  BEGINNER: 'Beginner',
  INTERMEDIATE: 'Intermediate',
  ADVANCED: 'Advanced',
};

export const QUESTION_TYPES = ['MULTIPLE_CHOICE', 'TRUE_FALSE'] as const;

export const COURSE_ACCESS_OPTIONS = [
  'public-login',
  'public-enroll',
  'login-browse',
  'login-approval',
] as const;
export type CourseAccess = (typeof COURSE_ACCESS_OPTIONS)[number];
export const COURSE_ACCESS_LABELS: Record<CourseAccess, string> = {
  'public-login': 'Public Browse, Login to Enroll',
  'public-enroll': 'Public Browse and Enroll',
  'login-browse': 'Login Required to Browse',
  'login-approval': 'Login and Approval Required',
};

export const CERTIFICATE_TEMPLATES = ['standard', 'professional', 'service', 'custom'] as const;
export type CertificateTemplate = (typeof CERTIFICATE_TEMPLATES)[number];
export const CERTIFICATE_TEMPLATE_LABELS: Record<CertificateTemplate, string> = {
  standard: 'Standard',
  professional: 'Professional',
  service: 'Service-Specific',
  custom: 'Custom',
};

/** The user as every API answer shows it: never a password or hash. */
export interface User {
  id: string;
  username: string;
  email: string;
  name: string;
  role: Role;
  services: string[];
  createdAt: string;
  /** The language the person reads the platform in (profiles.language). */
  language: Language;
  /** True while the person signs in with a temporary password and must choose a new one first. */
  mustChangePassword?: boolean;
  /** When an admin deactivated the person (a leaver); absent while the person is active. */
  deactivatedAt?: string;
  /** The person's organisation, unit and line manager; each absent when there is none. */
  organisationId?: string;
  unitId?: string;
  managerId?: string;
}

/** The signed-in user as GET /api/user shows them: with the names of their placement. */
export interface CurrentUser extends User {
  organisation?: { id: string; name: string; code: string };
  unit?: { id: string; name: string };
  manager?: { id: string; name: string };
  /** True when anyone reports to them (directly): they are a manager and have a "My team" page. */
  hasReports: boolean;
}

/** The tokens handed to supabase-js setSession(); Supabase Auth's own field names. */
export interface AuthSession {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at: number;
  token_type: 'bearer';
}

/** Body of every non-2xx API answer (app.ts onError): a message, and field messages for a form. */
export interface ApiErrorBody {
  message: string;
  fields?: Record<string, string>;
}
