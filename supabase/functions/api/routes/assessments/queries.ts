// Practical assessments: the SQL the assessment routes share and the row mapping. Every statement
// runs as the caller: the tables' policies decide what a read returns, and the private.*
// functions (26_practical_assessments.sql) check the caller before they write.
import type {
  AssessmentCriterion, AssessmentEvidence, AssessmentRecord, AssessmentSettings, EvidenceType, Outcome, RecordState,
} from '../../../_shared/assessments.ts';
import type { Tx } from '../../lib/db.ts';
import { ApiError, pgError } from '../../lib/errors.ts';
import type { Row } from '../../lib/learning.ts';
import { isoTimestamp } from '../../../_shared/dates.ts';

export const MODULE_NOT_FOUND = 'Practical assessment not found';
export const RECORD_NOT_FOUND = 'Assessment record not found';
export const CRITERION_NOT_FOUND = 'Criterion not found';
export const EVIDENCE_NOT_FOUND = 'Evidence not found';
export const NOT_AUTHOR = 'You may not change this module';

/** The database's names of fields (a raise's hint) as the API's. */
const FIELD_OF_HINT: Record<string, string> = { module_id: 'moduleId' };

/**
 * The refusals the assessment functions raise, as API answers with their own message: 42501 -> 403,
 * P0002 -> 404, P0409 and 55000 -> 409, 22023 -> 400 with the field of its hint, 23503 (a criterion
 * kept for its judgements) -> 409. Anything else (a policy's or relation's text) stays a 500.
 */
export function refused(error: unknown): never {
  const pg = pgError(error);
  const raised = (error as { routine?: unknown })?.routine === 'exec_stmt_raise';
  const message = raised ? String((error as { message?: string }).message ?? '') : '';
  switch (pg?.code) {
    case '42501': throw new ApiError(403, message || 'Forbidden');
    case 'P0002': throw new ApiError(404, message || 'Not found');
    case 'P0409':
    case '55000': throw new ApiError(409, message || 'Conflict');
    case '23503': throw new ApiError(409, 'This criterion has judgements in signed records, so it is kept');
    case '22023': {
      const field = pg.hint ? FIELD_OF_HINT[pg.hint] ?? pg.hint : '_';
      throw new ApiError(400, 'Validation failed', { [field]: message || 'Invalid value' });
    }
  }
  throw error;
}

/** Runs a statement, turning the functions' refusals into API answers. */
export async function checked<T>(work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    return refused(error);
  }
}

export interface AssessmentModule {
  id: string;
  courseId: string;
}

/** The practical assessment module the caller can see, or 404. */
export async function assessmentModule(tx: Tx, moduleId: string): Promise<AssessmentModule> {
  const [row] = await tx<{ id: string; courseId: string }[]>`
    select m.id, m.course_id from public.course_modules m where m.id = ${moduleId}::uuid and m.kind = 'assessment'`;
  if (!row) throw new ApiError(404, MODULE_NOT_FOUND);
  return row;
}

/** 403 unless the caller may author the module (its course's author, or a national admin). */
export async function requireAuthor(tx: Tx, moduleId: string): Promise<void> {
  const [{ ok }] = await tx<{ ok: boolean }[]>`select private.may_edit_module(${moduleId}::uuid) as ok`;
  if (!ok) throw new ApiError(403, NOT_AUTHOR);
}

export async function readSettings(tx: Tx, moduleId: string): Promise<AssessmentSettings> {
  const [row] = await tx<{ needsVerifier: boolean; validMonths: number | null }[]>`
    select needs_verifier, valid_months from public.assessment_settings where module_id = ${moduleId}::uuid`;
  return { moduleId, needsVerifier: row?.needsVerifier ?? false, validMonths: row?.validMonths ?? null };
}

export function toCriterion(row: Row): AssessmentCriterion {
  return {
    id: String(row.id),
    moduleId: String(row.moduleId),
    orderIndex: Number(row.orderIndex),
    title: String(row.title),
    titleCy: (row.titleCy as string | null) ?? null,
    guidance: (row.guidance as string | null) ?? null,
    guidanceCy: (row.guidanceCy as string | null) ?? null,
    critical: Boolean(row.critical),
  };
}

export async function readCriteria(tx: Tx, moduleId: string): Promise<AssessmentCriterion[]> {
  const rows = await tx<Row[]>`
    select id, module_id, order_index, title, title_cy, guidance, guidance_cy, critical
    from public.assessment_criteria where module_id = ${moduleId}::uuid order by order_index, created_at, id`;
  return rows.map(toCriterion);
}

/** Numbers the module's criteria 1..n in their order. */
export async function renumberCriteria(tx: Tx, moduleId: string): Promise<void> {
  await tx`
    update public.assessment_criteria c set order_index = n.position
    from (select id, row_number() over (order by order_index, created_at, id) as position
          from public.assessment_criteria where module_id = ${moduleId}::uuid) n
    where c.id = n.id and c.order_index <> n.position`;
}

function recordState(row: Row): RecordState {
  if (!row.signedAt) return 'draft';
  if (row.supersededAt) return 'superseded';
  return row.verifiedAt ? 'verified' : 'signed';
}

/** The records (under the caller's row-level security) with their judgements and evidence. */
export async function readRecords(tx: Tx, where: { ids?: string[]; moduleId?: string; learnerId?: string }): Promise<AssessmentRecord[]> {
  const rows = await tx<Row[]>`
    select r.*,
           coalesce((select json_agg(json_build_object('criterionId', j.criterion_id, 'criterionTitle', j.criterion_title,
                       'critical', j.critical, 'result', j.result, 'note', j.note) order by c.order_index, j.criterion_id)
                     from public.assessment_judgements j
                     left join public.assessment_criteria c on c.id = j.criterion_id
                     where j.record_id = r.id), '[]') as judgements_json,
           coalesce((select json_agg(json_build_object('id', e.id, 'recordId', e.record_id, 'contentType', e.content_type,
                       'sizeBytes', e.size_bytes, 'originalName', e.original_name, 'uploadedAt', e.uploaded_at) order by e.uploaded_at, e.id)
                     from public.assessment_evidence e where e.record_id = r.id), '[]') as evidence_json
    from public.assessment_records r
    where (${where.ids ?? null}::uuid[] is null or r.id = any (${where.ids ?? null}::uuid[]))
      and (${where.moduleId ?? null}::uuid is null or r.module_id = ${where.moduleId ?? null}::uuid)
      and (${where.learnerId ?? null}::uuid is null or r.learner_id = ${where.learnerId ?? null}::uuid)
    order by r.created_at desc, r.id`;
  return rows.map((row) => ({
    id: String(row.id),
    moduleId: String(row.moduleId),
    courseId: String(row.courseId),
    learnerId: String(row.learnerId),
    learnerName: (row.learnerName as string | null) ?? null,
    cycle: Number(row.cycle),
    assessorId: (row.assessorId as string | null) ?? null,
    assessorName: (row.assessorName as string | null) ?? null,
    outcome: (row.outcome as Outcome | null) ?? null,
    notes: (row.notes as string | null) ?? null,
    state: recordState(row),
    createdAt: isoTimestamp(row.createdAt)!,
    signedAt: isoTimestamp(row.signedAt),
    verifierId: (row.verifierId as string | null) ?? null,
    verifierName: (row.verifierName as string | null) ?? null,
    verifiedAt: isoTimestamp(row.verifiedAt),
    supersedesId: (row.supersedesId as string | null) ?? null,
    supersededAt: isoTimestamp(row.supersededAt),
    judgements: row.judgementsJson as AssessmentRecord['judgements'],
    evidence: (row.evidenceJson as Row[]).map((e) => ({
      id: String(e.id),
      recordId: String(e.recordId),
      contentType: e.contentType as EvidenceType,
      sizeBytes: Number(e.sizeBytes),
      originalName: String(e.originalName),
      uploadedAt: isoTimestamp(e.uploadedAt)!,
    } satisfies AssessmentEvidence)),
  }));
}

/** One record the caller can read, or 404. */
export async function readRecord(tx: Tx, id: string): Promise<AssessmentRecord> {
  const [record] = await readRecords(tx, { ids: [id] });
  if (!record) throw new ApiError(404, RECORD_NOT_FOUND);
  return record;
}
