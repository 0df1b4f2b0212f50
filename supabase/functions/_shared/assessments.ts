// Practical assessments: the request schemas (with their field messages) and the answers' types,
// shared by the api function (routes/assessments/) and the web app. The rules themselves are in
// the database (supabase/schemas/26_practical_assessments.sql); these schemas refuse bad input
// early with a message per field.
import { z } from 'zod';
import { UUID_PATTERN } from './ids.ts';

export const ASSESSMENT_MESSAGES = {
  validMonths: 'Validity must be a whole number of months from 1 to 120, or empty for none',
  needsVerifier: 'Say whether a second signature is needed',
  criterionTitle: 'The criterion must be 3 to 300 characters',
  criterionTitleCy: 'The Welsh criterion must be 3 to 300 characters',
  guidance: 'Guidance must be at most 2000 characters',
  guidanceCy: 'The Welsh guidance must be at most 2000 characters',
  critical: 'Say whether the criterion is critical',
  order: 'Order must be a whole number from 1',
  learnerId: 'Choose a learner',
  supersedesId: 'Choose the signed record to correct',
  outcome: 'Choose competent or not yet competent',
  result: 'Each judgement is competent or not yet competent',
  criterionId: 'Each judgement names a criterion',
  judgementNote: 'A note must be at most 2000 characters',
  notes: 'Notes must be at most 5000 characters',
  reason: 'Give a reason of 1 to 1000 characters',
  personId: 'Choose a person',
  evidenceType: 'Evidence must be a JPEG or PNG photo or a PDF',
  evidenceTooLarge: 'Evidence files must be 10 MB or smaller',
  evidenceMissing: 'Choose a file to upload',
  queueState: 'State must be awaiting-sign-off, awaiting-verification or signed',
  learnerStatus: 'Status must be not-assessed, draft, awaiting-verification, competent or not-yet-competent',
} as const;

/** The largest evidence file: 10 MB (the bucket's file_size_limit and the table's check agree). */
export const MAX_EVIDENCE_BYTES = 10 * 1024 * 1024;
export const EVIDENCE_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

export const OUTCOMES = ['competent', 'not-yet-competent'] as const;
export type Outcome = (typeof OUTCOMES)[number];

const uuid = (message: string) => z.string({ error: message }).regex(UUID_PATTERN, message).transform((s) => s.toLowerCase());
const blankIsNull = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema);

const validMonths = z.number({ error: ASSESSMENT_MESSAGES.validMonths }).int(ASSESSMENT_MESSAGES.validMonths)
  .min(1, ASSESSMENT_MESSAGES.validMonths).max(120, ASSESSMENT_MESSAGES.validMonths).nullable();

/** PUT /api/modules/:moduleId/assessment: the module's settings (absent: as they are). */
export const assessmentSettingsSchema = z.object({
  needsVerifier: z.boolean({ error: ASSESSMENT_MESSAGES.needsVerifier }).optional(),
  validMonths: z.preprocess((v) => (v === '' ? null : v), validMonths).optional(),
});
export type AssessmentSettingsInput = z.infer<typeof assessmentSettingsSchema>;

const criterionTitle = z.string({ error: ASSESSMENT_MESSAGES.criterionTitle }).trim()
  .min(3, ASSESSMENT_MESSAGES.criterionTitle).max(300, ASSESSMENT_MESSAGES.criterionTitle);
const criterionTitleCy = blankIsNull(z.string({ error: ASSESSMENT_MESSAGES.criterionTitleCy }).trim()
  .min(3, ASSESSMENT_MESSAGES.criterionTitleCy).max(300, ASSESSMENT_MESSAGES.criterionTitleCy).nullable()).optional();
const guidance = blankIsNull(z.string({ error: ASSESSMENT_MESSAGES.guidance }).trim().max(2000, ASSESSMENT_MESSAGES.guidance).nullable()).optional();
const guidanceCy = blankIsNull(z.string({ error: ASSESSMENT_MESSAGES.guidanceCy }).trim().max(2000, ASSESSMENT_MESSAGES.guidanceCy).nullable()).optional();

/** POST /api/modules/:moduleId/assessment/criteria and PUT /api/assessment-criteria/:id (the whole criterion). */
export const criterionSchema = z.object({
  title: criterionTitle,
  titleCy: criterionTitleCy,
  guidance,
  guidanceCy,
  critical: z.boolean({ error: ASSESSMENT_MESSAGES.critical }).default(false),
  orderIndex: z.number({ error: ASSESSMENT_MESSAGES.order }).int(ASSESSMENT_MESSAGES.order).min(1, ASSESSMENT_MESSAGES.order)
    .max(10000, ASSESSMENT_MESSAGES.order).optional(),
});
export type CriterionInput = z.infer<typeof criterionSchema>;
export type CriterionBody = z.input<typeof criterionSchema>;

/** POST /api/modules/:moduleId/assessment/records: a draft for a learner, or a correction. */
export const recordStartSchema = z.object({
  learnerId: uuid(ASSESSMENT_MESSAGES.learnerId),
  supersedesId: uuid(ASSESSMENT_MESSAGES.supersedesId).nullable().optional(),
});
export type RecordStartInput = z.infer<typeof recordStartSchema>;

/** PUT /api/assessment-records/:id: the draft's judgements (replacing those saved), outcome and notes. */
export const recordSaveSchema = z.object({
  judgements: z.array(z.object({
    criterionId: uuid(ASSESSMENT_MESSAGES.criterionId),
    result: z.enum(OUTCOMES, { error: ASSESSMENT_MESSAGES.result }),
    note: blankIsNull(z.string({ error: ASSESSMENT_MESSAGES.judgementNote }).trim().max(2000, ASSESSMENT_MESSAGES.judgementNote).nullable()).optional(),
  }), { error: ASSESSMENT_MESSAGES.criterionId }).max(200, ASSESSMENT_MESSAGES.criterionId),
  outcome: z.enum(OUTCOMES, { error: ASSESSMENT_MESSAGES.outcome }).nullable(),
  notes: blankIsNull(z.string({ error: ASSESSMENT_MESSAGES.notes }).trim().max(5000, ASSESSMENT_MESSAGES.notes).nullable()).optional(),
});
export type RecordSaveInput = z.infer<typeof recordSaveSchema>;

/** POST /api/modules/:moduleId/assessment/reassessment. */
export const reassessmentSchema = z.object({
  reason: z.string({ error: ASSESSMENT_MESSAGES.reason }).trim().min(1, ASSESSMENT_MESSAGES.reason).max(1000, ASSESSMENT_MESSAGES.reason),
});

/** POST /api/courses/:courseId/assessors. */
export const assessorNameSchema = z.object({ personId: uuid(ASSESSMENT_MESSAGES.personId) });

export const QUEUE_STATES = ['awaiting-sign-off', 'awaiting-verification', 'signed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];
export const LEARNER_STATES = ['not-assessed', 'draft', 'awaiting-verification', 'competent', 'not-yet-competent'] as const;
export type LearnerState = (typeof LEARNER_STATES)[number];

/** A record's state as people read it. */
export type RecordState = 'draft' | 'signed' | 'verified' | 'superseded';

export interface AssessmentSettings {
  moduleId: string;
  needsVerifier: boolean;
  validMonths: number | null;
}

export interface AssessmentCriterion {
  id: string;
  moduleId: string;
  orderIndex: number;
  title: string;
  titleCy: string | null;
  guidance: string | null;
  guidanceCy: string | null;
  critical: boolean;
}

export interface AssessmentJudgement {
  criterionId: string;
  criterionTitle: string;
  critical: boolean;
  result: Outcome;
  note: string | null;
}

export interface AssessmentEvidence {
  id: string;
  recordId: string;
  contentType: EvidenceType;
  sizeBytes: number;
  originalName: string;
  uploadedAt: string;
}

export interface AssessmentRecord {
  id: string;
  moduleId: string;
  courseId: string;
  learnerId: string;
  learnerName: string | null;
  cycle: number;
  assessorId: string | null;
  assessorName: string | null;
  outcome: Outcome | null;
  notes: string | null;
  state: RecordState;
  createdAt: string;
  signedAt: string | null;
  verifierId: string | null;
  verifierName: string | null;
  verifiedAt: string | null;
  supersedesId: string | null;
  supersededAt: string | null;
  judgements: AssessmentJudgement[];
  evidence: AssessmentEvidence[];
}

/** GET /api/modules/:moduleId/assessment. */
export interface ModuleAssessment {
  moduleId: string;
  courseId: string;
  settings: AssessmentSettings;
  criteria: AssessmentCriterion[];
  /** True when the caller assesses anyone on this course (the assessor's screens apply). */
  isAssessor: boolean;
  /** The caller's own signed records of the current and earlier cycles, newest first. */
  records: AssessmentRecord[];
  signedOff: boolean;
  /** When the practical was signed off in the current cycle, and until when it is valid. */
  signedOffAt: string | null;
  validUntil: string | null;
  canRequestReassessment: boolean;
  openRequest: { id: string; reason: string; requestedAt: string } | null;
}

/** One row of GET /api/modules/:moduleId/assessment/learners. */
export interface AssessmentLearner {
  learnerId: string;
  name: string;
  username: string;
  cycle: number;
  state: LearnerState;
  recordId: string | null;
  signedAt: string | null;
  reassessmentRequested: boolean;
}

/** One row of GET /api/instructor/assessments. */
export interface QueuedAssessment {
  recordId: string;
  moduleId: string;
  moduleTitle: string;
  courseId: string;
  courseTitle: string;
  learnerId: string;
  learnerName: string;
  cycle: number;
  assessorName: string | null;
  outcome: Outcome | null;
  createdAt: string;
  signedAt: string | null;
  verifierName: string | null;
  verifiedAt: string | null;
  supersededAt: string | null;
  needsVerifier: boolean;
}

export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** GET /api/courses/:courseId/assessors. */
export interface CourseAssessor {
  courseId: string;
  personId: string;
  name: string | null;
  username: string | null;
  organisationId: string;
  namedAt: string;
}

/** The export's columns (ISO dates, as every CSV). */
export const ASSESSMENT_CSV_HEADER = [
  'Course', 'Module', 'Learner', 'Cycle', 'Outcome', 'Assessor', 'Signed', 'Verifier', 'Verified', 'Superseded', 'Notes',
] as const;
