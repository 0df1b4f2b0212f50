// The audit trail as people read it: the kinds of event, a sentence for each
// ("Jordan Hughes published 'Radio procedure'"), and the Activity tab's filters, shared by the api
// function (validation, the CSV export) and the web app (the list). The kinds list is open: an
// event of a kind not listed here is still shown, with its kind as the verb.
import { z } from 'zod';
import { UUID_PATTERN } from './ids.ts';

/** Every kind the app records, with its label for the "What" filter. */
export const AUDIT_KINDS: Record<string, string> = {
  'user.created': 'User created',
  'user.deleted': 'User deleted',
  'user.deactivated': 'User deactivated',
  'user.reactivated': 'User reactivated',
  'user.permissions_changed': 'Role or services changed',
  'users.permissions_changed': 'Services changed for a role',
  'users.imported': 'Users imported',
  'password.reset': 'Password reset by an administrator',
  'password.forced_change': 'Password change required',
  'settings.updated': 'Settings updated',
  'course.created': 'Course created',
  'course.published': 'Course published',
  'course.unpublished': 'Course moved back to draft',
  'course.archived': 'Course archived',
  'course.deleted': 'Course deleted',
  'enrollment.approved': 'Enrolment approved',
  'enrollment.declined': 'Enrolment declined',
  'required_training.added': 'Required training added',
  'required_training.changed': 'Required training changed',
  'required_training.removed': 'Required training removed',
  'certificate.revoked': 'Certificate revoked',
  'certificate.reissued': 'Certificate reissued',
  'notification.resent': 'Email sent again',
  'user.updated': 'User details updated',
  'user.unlinked': 'User removed from SCIM provisioning',
  'unit.created': 'Unit created',
  'unit.renamed': 'Unit renamed',
  'unit.deleted': 'Unit deleted',
  'scim_token.created': 'SCIM token created',
  'scim_token.revoked': 'SCIM token revoked',
  'sign_in.succeeded': 'Signed in through the organisation',
  'sign_in.refused': 'Sign-in through the organisation refused',
  'sign_in.tested': 'Test sign-in',
  'sign_in.linked': "Organisation's sign-in linked to an account",
  'assessment.signed': 'Practical assessment signed',
  'assessment.corrected': 'Practical assessment corrected',
  'assessment.verified': 'Practical assessment verified',
  'assessment.evidence_added': 'Assessment evidence added',
  'course_assessor.named': 'Assessor named',
  'course_assessor.removed': 'Assessor removed',
  'issuer.key_rotated': 'Credential signing key rotated',
};

export interface AuditSentenceInput {
  action: string;
  actor: { name: string | null } | null;
  targetLabel: string | null;
  newData?: Record<string, unknown> | null;
}

const quoted = (label: string | null) => (label ? `'${label}'` : 'an item');
const text = (data: Record<string, unknown> | null | undefined, key: string) =>
  typeof data?.[key] === 'string' && data[key] !== '' ? (data[key] as string) : null;
/** An identity provider's events: the protocol, the address it sent, why it was refused. */
const source = (data?: Record<string, unknown> | null) => (text(data, 'source') ? ` (${text(data, 'source')})` : '');
const address = (data?: Record<string, unknown> | null) => (text(data, 'email') ? ` for ${text(data, 'email')}` : '');
const reason = (data?: Record<string, unknown> | null) => (text(data, 'problem') ? ` (${text(data, 'problem')})` : '');

/** One event as a sentence: who did what to what. */
export function auditSentence(event: AuditSentenceInput): string {
  const who = event.actor?.name || 'System';
  const what = quoted(event.targetLabel);
  const label = event.targetLabel ?? '';
  const enrolled = typeof event.newData?.enrolled === 'number' ? (event.newData.enrolled as number) : null;
  const people = enrolled === null ? '' : ` (${enrolled} ${enrolled === 1 ? 'person' : 'people'} enrolled)`;
  switch (event.action) {
    case 'user.created': return `${who} created the account ${what}`;
    case 'user.deleted': return `${who} deleted the account ${what}`;
    case 'user.deactivated': return `${who} deactivated ${what}`;
    case 'user.reactivated': return `${who} reactivated ${what}`;
    case 'user.permissions_changed': return `${who} changed the role or services of ${what}`;
    case 'users.permissions_changed': return `${who} changed the services of ${label || 'several users'}`;
    case 'users.imported': return `${who} imported ${label || 'users'}`;
    case 'password.reset': return `${who} reset the password of ${what}`;
    case 'password.forced_change': return `${who} required ${what} to change their password`;
    case 'settings.updated': return `${who} updated the system settings`;
    case 'course.created': return `${who} created ${what}`;
    case 'course.published': return `${who} published ${what}`;
    case 'course.unpublished': return `${who} moved ${what} back to draft`;
    case 'course.archived': return `${who} archived ${what}`;
    case 'course.deleted': return `${who} deleted ${what}`;
    case 'enrollment.approved': return `${who} approved the enrolment request of ${label || 'a learner'}`;
    case 'enrollment.declined': return `${who} declined the enrolment request of ${label || 'a learner'}`;
    case 'required_training.added': return `${who} made ${what} required training${people}`;
    case 'required_training.changed': return `${who} changed a required training rule for ${what}${people}`;
    case 'required_training.removed': return `${who} removed a required training rule for ${what}`;
    case 'certificate.revoked': return `${who} revoked the certificate ${what}`;
    case 'certificate.reissued': return `${who} reissued the certificate ${what}`;
    case 'notification.resent': return `${who} sent a notification email to ${what} again`;
    case 'user.updated': return `${who} updated the details of ${what}`;
    case 'user.unlinked': return `${who} removed ${what} from SCIM provisioning (deactivated, records kept)`;
    case 'unit.created': return `${who} created the unit ${what}`;
    case 'unit.renamed': return `${who} renamed a unit to ${what}`;
    case 'unit.deleted': return `${who} deleted the unit ${what}`;
    case 'scim_token.created': return `${who} created the SCIM token ${what}`;
    case 'scim_token.revoked': return `${who} revoked the SCIM token ${what}`;
    case 'sign_in.succeeded': return `${who} signed in through their organisation${source(event.newData)}`;
    case 'sign_in.linked': return `${who} linked their organisation's sign-in${address(event.newData)} to their account${source(event.newData)}`;
    case 'sign_in.refused': return `${who} refused a sign-in${address(event.newData)}${reason(event.newData)}`;
    case 'sign_in.tested': return `${who}: a test sign-in${address(event.newData)} ${event.newData?.passed === true ? 'passed' : `failed${reason(event.newData)}`}`;
    default: return `${who}: ${AUDIT_KINDS[event.action] ?? event.action}${label ? ` ${what}` : ''}`;
  }
}

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-25')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'Not a real date');

/** The Activity tab's filters (GET /api/audit and /api/audit/export.csv): who, what, when, words. */
export const auditFilterSchema = z.object({
  actor: z.string().regex(UUID_PATTERN, 'Who must be a user id').optional(),
  action: z.string().regex(/^[a-z_]{2,40}\.[a-z_]{2,40}$/, 'Unknown kind of event').optional(),
  from: isoDay.optional(),
  to: isoDay.optional(),
  search: z.string().trim().max(200, 'Search is too long').optional(),
}).refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'The end date is before the start date', path: ['to'] });
export type AuditFilters = z.infer<typeof auditFilterSchema>;
