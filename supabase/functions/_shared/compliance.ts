// Mandatory training and compliance, shared by the api function and the web: the rule
// body, the query filters, the status vocabulary and the CSV export's columns. The status itself is
// computed only in SQL (private.required_training_status); these are its names and labels.
import { z } from 'zod';
import { UUID_PATTERN } from './ids.ts';
import { ROLES, type Role } from './domain.ts';
import { SERVICE_CODES, type ServiceCode } from './services.ts';
import { csvDate, csvFileName, csvList } from './csv.ts';
import { noticeDayListOverrideField, noticeDaysOverrideField } from './schemas.ts';
import type { RecognisedOrigin } from './recognition.ts';

/** The statuses counted per person (My team): done counts those recognised too. */
export const COUNTED_STATUSES = ['overdue', 'due-soon', 'in-progress', 'done'] as const;
/** overdue | due-soon | in-progress | done | recognised (satisfied by a recognised credential of
 * another issuer: 29_recognition.sql), most urgent first. */
export const TRAINING_STATUSES = [...COUNTED_STATUSES, 'recognised'] as const;
export type TrainingStatus = (typeof TRAINING_STATUSES)[number];

export const TRAINING_STATUS_LABELS: Record<TrainingStatus, string> = {
  overdue: 'Overdue',
  'due-soon': 'Due soon',
  'in-progress': 'In progress',
  done: 'Done',
  recognised: 'Recognised',
};


const roleField = z.enum(ROLES, { error: 'Role must be ADMIN, INSTRUCTOR or STUDENT' });
const serviceField = z.enum(SERVICE_CODES, { error: 'Service must be one of UKPS, UKAS, UKFRS, UKHW, AUX, MISC' });
const dueWithinDaysField = z
  .number({ error: 'Due within must be a whole number of days' })
  .int('Due within must be a whole number of days')
  .min(1, 'Due within must be between 1 and 365 days')
  .max(365, 'Due within must be between 1 and 365 days');
const renewBeforeDaysField = z
  .number({ error: 'Renew before must be a whole number of days' })
  .int('Renew before must be a whole number of days')
  .min(0, 'Renew before must be between 0 and 365 days')
  .max(365, 'Renew before must be between 0 and 365 days');

const needsRoleOrService = (value: { role?: Role | null; service?: ServiceCode | null; organisationId?: string | null }) =>
  (value.role ?? null) !== null || (value.service ?? null) !== null || (value.organisationId ?? null) !== null;
/** No organisation given: an organisation's administrator's own is meant (the API fills it in),
 * so only the database can tell whether the rule names someone; an explicit null is national. */
const nationalNeedsRoleOrService = (value: { role?: Role | null; service?: ServiceCode | null; organisationId?: string | null }) =>
  !Object.hasOwn(value, 'organisationId') || needsRoleOrService(value);
const roleOrServiceMessage = { message: 'Choose a role, a service or both', path: ['role'] };
const organisationField = z.string({ error: 'Choose an organisation' }).regex(UUID_PATTERN, 'Choose an organisation');
const unitField = z.string({ error: 'Choose a unit of the organisation' }).regex(UUID_PATTERN, 'Choose a unit of the organisation');
const unitNeedsOrganisation = (value: { organisationId?: string | null; unitId?: string | null }) =>
  (value.unitId ?? null) === null || !Object.hasOwn(value, 'organisationId') || value.organisationId !== null;
const unitNeedsOrganisationMessage = { message: 'Choose the organisation of the unit', path: ['organisationId'] };

/** POST /api/required-training */
export const requiredTrainingCreateSchema = z
  .object({
    courseId: z.string({ error: 'Choose a course' }).regex(UUID_PATTERN, 'Choose a course'),
    role: roleField.nullable().optional(),
    service: serviceField.nullable().optional(),
    /** The organisation whose people it applies to (null: national). */
    organisationId: organisationField.nullable().optional(),
    /** A unit of that organisation: its people and those of the units below it. */
    unitId: unitField.nullable().optional(),
    dueWithinDays: dueWithinDaysField.default(30),
    renewBeforeDays: renewBeforeDaysField.default(30),
    /** Days before the due date for "due soon" notices (null: the settings' default). */
    notifyDueSoonDays: noticeDayListOverrideField.optional(),
    /** Days overdue after which the line manager is told (null: the settings' default). */
    notifyEscalationDays: noticeDaysOverrideField.optional(),
  })
  .strict()
  .refine(nationalNeedsRoleOrService, roleOrServiceMessage)
  .refine(unitNeedsOrganisation, unitNeedsOrganisationMessage);
export type RequiredTrainingCreateInput = z.input<typeof requiredTrainingCreateSchema>;

/** PUT /api/required-training/:id: any of the fields; role and service may not both end up empty. */
export const requiredTrainingUpdateSchema = z
  .object({
    role: roleField.nullable().optional(),
    service: serviceField.nullable().optional(),
    organisationId: organisationField.nullable().optional(),
    unitId: unitField.nullable().optional(),
    dueWithinDays: dueWithinDaysField.optional(),
    renewBeforeDays: renewBeforeDaysField.optional(),
    notifyDueSoonDays: noticeDayListOverrideField.optional(),
    notifyEscalationDays: noticeDaysOverrideField.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update', path: ['_'] })
  // Clearing both role and service: only with an organisation named in the same change.
  .refine((v) => !('role' in v && 'service' in v) || needsRoleOrService(v), roleOrServiceMessage)
  .refine((v) => !('unitId' in v && 'organisationId' in v) || unitNeedsOrganisation(v), unitNeedsOrganisationMessage);
export type RequiredTrainingUpdateInput = z.input<typeof requiredTrainingUpdateSchema>;

const optionalFilter = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** The filters of the compliance view, its drill-down and its CSV export. */
export const complianceFilterSchema = z.object({
  service: optionalFilter(serviceField),
  role: optionalFilter(roleField),
  courseId: optionalFilter(z.string().regex(UUID_PATTERN, 'Course id must be a valid id')),
  organisationId: optionalFilter(z.string().regex(UUID_PATTERN, 'Organisation id must be a valid id')),
  unitId: optionalFilter(z.string().regex(UUID_PATTERN, 'Unit id must be a valid id')),
  /** done: everyone compliant (done or recognised), as the summary's compliant count. */
  status: optionalFilter(z.enum(TRAINING_STATUSES, { error: 'Status must be overdue, due-soon, in-progress, done or recognised' })),
});

export interface RequiredTrainingRule {
  id: string;
  course: { id: string; title: string; service: ServiceCode; certificateValidMonths: number | null };
  role: Role | null;
  service: ServiceCode | null;
  /** null: a national rule. */
  organisation: { id: string; name: string } | null;
  /** null: the whole organisation (or a national rule). */
  unit: { id: string; name: string } | null;
  dueWithinDays: number;
  renewBeforeDays: number;
  /** The rule's own notice intervals (null: the settings' defaults). */
  notifyDueSoonDays: number[] | null;
  notifyEscalationDays: number | null;
  createdAt: string;
  createdBy: { id: string; name: string } | null;
  /** May the caller change or remove it (admins any; instructors their courses in their services). */
  canManage: boolean;
}

export interface RequiredTrainingItem {
  /** titleCy: the course's title in Welsh; null: not translated. */
  course: { id: string; title: string; titleCy: string | null; service: ServiceCode };
  status: TrainingStatus;
  /** When it must be done (renewal date for a held certificate); null: done and never expires. */
  dueAt: string | null;
  progress: number;
  /** The current certificate's (or recognised credential's) expiry when one is held (null: never expires or none). */
  validUntil: string | null;
  certified: boolean;
  /** Satisfied by a recognised credential of another issuer: its origin (null otherwise). */
  recognised: RecognisedOrigin | null;
}

export interface MyRequiredTraining {
  items: RequiredTrainingItem[];
  counts: Record<TrainingStatus, number>;
  /** Overdue plus due soon: what the header notice counts. */
  attention: number;
}

export interface ComplianceSummaryRow {
  service: ServiceCode | null;
  course: { id: string; title: string };
  people: number;
  compliant: number;
  dueSoon: number;
  overdue: number;
  inProgress: number;
}

/** GET /api/compliance/units: one group (organisation, or unit with its sub-units) and course. */
export interface ComplianceUnitRow {
  /** The organisation (at the top level of a national administrator: the group itself; null: people of no organisation). */
  organisationId: string | null;
  /** The unit (null at the organisation level, or people of no unit). */
  unitId: string | null;
  /** The group's name (null: no organisation / no unit). */
  name: string | null;
  /** Whether the group has units below it to drill down into. */
  hasUnits: boolean;
  course: { id: string; title: string };
  people: number;
  compliant: number;
  dueSoon: number;
  overdue: number;
  inProgress: number;
}

/** The share of people compliant, as a whole percentage (0 when nobody is required). */
export function compliantShare(compliant: number, people: number): number {
  return people > 0 ? Math.round((compliant / people) * 100) : 0;
}

export interface CompliancePerson {
  user: { id: string; name: string; username: string; email: string | null };
  role: Role;
  services: ServiceCode[];
  course: { id: string; title: string };
  status: TrainingStatus;
  dueAt: string | null;
  progress: number;
  validUntil: string | null;
  /** Satisfied by a recognised credential of another issuer: its origin (null otherwise). */
  recognised: RecognisedOrigin | null;
}

/** The CSV export's header row. */
export const COMPLIANCE_CSV_HEADER = [
  'Name', 'Username', 'Email', 'Role', 'Services', 'Course', 'Status', 'Due date', 'Valid until', 'Progress (%)',
  'Recognised from',
] as const;

/** A recognised credential's origin in one cell: `issuer: achievement` (empty when none). */
export function recognisedFromCell(recognised: RecognisedOrigin | null): string {
  return recognised ? `${recognised.issuerName}: ${recognised.achievementName}` : '';
}

/** One person and course as a CSV row (values; csv.ts quotes and neutralises them). */
export function complianceCsvRow(p: CompliancePerson): (string | number)[] {
  return [
    p.user.name,
    p.user.username,
    p.user.email ?? '',
    p.role,
    csvList(p.services),
    p.course.title,
    TRAINING_STATUS_LABELS[p.status],
    csvDate(p.dueAt),
    csvDate(p.validUntil),
    p.progress,
    recognisedFromCell(p.recognised),
  ];
}

/** The export's file name, e.g. `compliance-2026-11-25.csv` (every export alike: csv.ts). */
export function complianceFileName(now = new Date()): string {
  return csvFileName('compliance', now);
}
