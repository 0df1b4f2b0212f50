// Answers of the assessment API for the feature's unit tests, with fixed dates (no test reads the clock).
import type { AssessmentCriterion, AssessmentRecord, ModuleAssessment } from '@shared/assessments.ts';

export const MODULE_ID = '11111111-1111-4111-8111-111111111111';
export const COURSE_ID = '22222222-2222-4222-8222-222222222222';
export const LEARNER_ID = '33333333-3333-4333-8333-333333333333';

export const criteria: AssessmentCriterion[] = [
  { id: 'aaaaaaaa-0000-4000-8000-000000000001', moduleId: MODULE_ID, orderIndex: 1, title: 'Checks the hydrant', titleCy: "Yn gwirio'r hydrant", guidance: 'Cap off, flushed', guidanceCy: null, critical: true },
  { id: 'aaaaaaaa-0000-4000-8000-000000000002', moduleId: MODULE_ID, orderIndex: 2, title: 'Runs out the hose', titleCy: null, guidance: null, guidanceCy: null, critical: false },
];

export function record(overrides: Partial<AssessmentRecord> = {}): AssessmentRecord {
  return {
    id: 'bbbbbbbb-0000-4000-8000-000000000001',
    moduleId: MODULE_ID,
    courseId: COURSE_ID,
    learnerId: LEARNER_ID,
    learnerName: 'Lee Learner',
    cycle: 1,
    assessorId: '44444444-4444-4444-8444-444444444444',
    assessorName: 'Ada Assessor',
    outcome: null,
    notes: null,
    state: 'draft',
    createdAt: '2026-11-20T09:00:00Z',
    signedAt: null,
    verifierId: null,
    verifierName: null,
    verifiedAt: null,
    supersedesId: null,
    supersededAt: null,
    judgements: [],
    evidence: [],
    ...overrides,
  };
}

export const signedCompetent = record({
  outcome: 'competent',
  state: 'verified',
  signedAt: '2026-11-22T10:00:00Z',
  verifierName: 'Vic Verifier',
  verifiedAt: '2026-11-23T10:00:00Z',
  notes: 'Safe and steady.',
  judgements: [
    { criterionId: criteria[0]!.id, criterionTitle: 'Checks the hydrant', critical: true, result: 'competent', note: 'Flushed well' },
    { criterionId: criteria[1]!.id, criterionTitle: 'Runs out the hose', critical: false, result: 'competent', note: null },
  ],
  evidence: [{ id: 'cccccccc-0000-4000-8000-000000000001', recordId: 'bbbbbbbb-0000-4000-8000-000000000001', contentType: 'image/jpeg', sizeBytes: 2048, originalName: 'hydrant.jpg', uploadedAt: '2026-11-22T09:50:00Z' }],
});

export function moduleAssessment(overrides: Partial<ModuleAssessment> = {}): ModuleAssessment {
  return {
    moduleId: MODULE_ID,
    courseId: COURSE_ID,
    settings: { moduleId: MODULE_ID, needsVerifier: true, validMonths: 12 },
    criteria,
    isAssessor: false,
    records: [],
    signedOff: false,
    signedOffAt: null,
    validUntil: null,
    canRequestReassessment: false,
    openRequest: null,
    ...overrides,
  };
}
