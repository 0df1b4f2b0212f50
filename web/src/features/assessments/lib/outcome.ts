// How a learner's practical assessment reads: the record that counts now and the outcome it gives.
import type { AssessmentCriterion, AssessmentRecord, ModuleAssessment } from '@shared/assessments.ts';

export type Standing = 'competent' | 'not-yet-competent' | 'awaiting-verification' | 'not-assessed';

/** The newest signed record of the current cycle that no correction replaced, if any. */
export function currentRecord(records: AssessmentRecord[]): AssessmentRecord | null {
  const live = records.filter((r) => r.state === 'signed' || r.state === 'verified');
  if (live.length === 0) return null;
  const cycle = Math.max(...records.map((r) => r.cycle));
  return live.find((r) => r.cycle === cycle) ?? null;
}

/** The learner's standing as the server reports it: signed off, waiting for the verifier, or not (yet). */
export function standingOf(assessment: Pick<ModuleAssessment, 'records' | 'signedOff' | 'settings'>): Standing {
  if (assessment.signedOff) return 'competent';
  const record = currentRecord(assessment.records);
  if (!record) return 'not-assessed';
  if (record.outcome === 'not-yet-competent') return 'not-yet-competent';
  if (assessment.settings.needsVerifier && record.state === 'signed') return 'awaiting-verification';
  return record.outcome === 'competent' ? 'competent' : 'not-assessed';
}

/** The critical criteria judged not yet competent: while there is one, the outcome cannot be competent. */
export function failedCritical(criteria: AssessmentCriterion[], results: Record<string, string | null | undefined>): AssessmentCriterion[] {
  return criteria.filter((c) => c.critical && results[c.id] === 'not-yet-competent');
}
