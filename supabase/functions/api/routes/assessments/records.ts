// /api/assessment-records/:id: an assessor's record (read, save the draft, discard it, attach
// evidence, sign, countersign) and /api/assessment-evidence/:id (a file, to whoever may read its
// record). Evidence is checked here (type by its first bytes, size) and stored with the service role
// in the private bucket only after private.add_assessment_evidence accepted the caller and recorded
// it; a failed upload removes the row again.
import { Hono, type Context } from 'hono';
import { ASSESSMENT_MESSAGES, MAX_EVIDENCE_BYTES, recordSaveSchema, type EvidenceType } from '../../../_shared/assessments.ts';
import { attachmentDisposition } from '../../../_shared/csv.ts';
import type { Config } from '../../lib/config.ts';
import type { Db } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody } from '../../lib/body.ts';
import { readBytes } from '../../lib/body.ts';
import { ApiError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { checked, EVIDENCE_NOT_FOUND, readRecord, RECORD_NOT_FOUND } from './queries.ts';

export const EVIDENCE_BUCKET = 'assessment-evidence';
const MULTIPART_OVERHEAD = 64 * 1024;

const startsWith = (bytes: Uint8Array, prefix: number[]) => bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);

/** The evidence type by its first bytes (never its name or declared type): JPEG, PNG or PDF. */
export function sniffEvidence(bytes: Uint8Array): { mime: EvidenceType; ext: 'jpg' | 'png' | 'pdf' } | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png' };
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { mime: 'application/pdf', ext: 'pdf' };
  return null;
}

/** The one file of a multipart body's `file` field: 415 not multipart or not a type we keep, 413 too large, 400 none. */
async function readEvidence(c: Context): Promise<{ bytes: Uint8Array<ArrayBuffer>; name: string; mime: EvidenceType; ext: string }> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new ApiError(415, 'Send the file as multipart/form-data', { file: ASSESSMENT_MESSAGES.evidenceType });
  }
  const tooLarge = () => new ApiError(413, ASSESSMENT_MESSAGES.evidenceTooLarge, { file: ASSESSMENT_MESSAGES.evidenceTooLarge });
  const raw = await readBytes(c.req.raw, MAX_EVIDENCE_BYTES + MULTIPART_OVERHEAD, tooLarge);
  let form: FormData;
  try {
    form = await new Response(raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new ApiError(400, 'Invalid multipart body');
  }
  const file = form.get('file');
  if (!(file instanceof File) || file.size === 0) throw new ApiError(400, 'Validation failed', { file: ASSESSMENT_MESSAGES.evidenceMissing });
  if (file.size > MAX_EVIDENCE_BYTES) throw tooLarge();
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffEvidence(bytes);
  if (!type) throw new ApiError(415, ASSESSMENT_MESSAGES.evidenceType, { file: ASSESSMENT_MESSAGES.evidenceType });
  // The name as shown: its last path segment, without control characters, at most 255 characters.
  const name = (file.name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255) || `evidence.${type.ext}`;
  return { bytes, name, mime: type.mime, ext: type.ext };
}

function serviceHeaders(config: Config): Record<string, string> {
  return { authorization: `Bearer ${config.serviceRoleKey}`, apikey: config.serviceRoleKey };
}

export function assessmentRecordRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', RECORD_NOT_FOUND);
    return c.json(await db.withCaller(caller.db, (tx) => readRecord(tx, id)));
  });

  routes.put('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', RECORD_NOT_FOUND);
    const input = await jsonBody(c, recordSaveSchema);
    const record = await db.withCaller(caller.db, async (tx) => {
      await checked(() => tx`
        select private.save_assessment_record(${id}::uuid, ${tx.json(input.judgements.map((j) => ({ ...j, note: j.note ?? null })))}::jsonb,
          ${input.outcome}::text, ${input.notes ?? null}::text)`);
      return await readRecord(tx, id);
    });
    return c.json(record);
  });

  routes.delete('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', RECORD_NOT_FOUND);
    const names = await db.withCaller(caller.db, (tx) =>
      checked(() => tx<{ name: string }[]>`select n as name from private.discard_assessment_record(${id}::uuid) n`));
    await removeEvidence(config, names.map((n) => n.name));
    return c.body(null, 204);
  });

  routes.post('/:id/sign', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', RECORD_NOT_FOUND);
    const record = await db.withCaller(caller.db, async (tx) => {
      await checked(() => tx`select private.sign_assessment_record(${id}::uuid)`);
      return await readRecord(tx, id);
    });
    return c.json(record);
  });

  routes.post('/:id/verify', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', RECORD_NOT_FOUND);
    const record = await db.withCaller(caller.db, async (tx) => {
      await checked(() => tx`select private.verify_assessment_record(${id}::uuid)`);
      return await readRecord(tx, id);
    });
    return c.json(record);
  });

  routes.post('/:id/evidence', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', RECORD_NOT_FOUND);
    const file = await readEvidence(c);
    const objectName = `${id}/${crypto.randomUUID()}.${file.ext}`;
    // The row first (the function checks the caller), then the file: Storage writes its own row in
    // storage.objects, which a transaction held open here would keep waiting. An upload that fails
    // takes the row away again.
    const [evidence] = await db.withCaller(caller.db, (tx) =>
      checked(() => tx<{ id: string }[]>`
        select (e).id from (select private.add_assessment_evidence(${id}::uuid, ${objectName}, ${file.mime},
          ${file.bytes.byteLength}, ${file.name}) as e) x`));
    const response = await fetch(`${config.supabaseUrl}/storage/v1/object/${EVIDENCE_BUCKET}/${objectName}`, {
      method: 'POST',
      headers: { ...serviceHeaders(config), 'content-type': file.mime, 'x-upsert': 'false' },
      body: file.bytes,
    });
    const text = await response.text();
    if (!response.ok) {
      await db.withServiceRole((tx) => tx`delete from public.assessment_evidence where id = ${evidence.id}::uuid`);
      throw new Error(`Storage upload to ${EVIDENCE_BUCKET} failed with ${response.status}: ${text.slice(0, 200)}`);
    }
    const record = await db.withCaller(caller.db, (tx) => readRecord(tx, id));
    return c.json(record, 201);
  });

  return routes;
}

/** Removes evidence files; a failure is logged, not raised: the rows they belonged to are gone. */
async function removeEvidence(config: Config, names: string[]): Promise<void> {
  if (names.length === 0) return;
  try {
    const response = await fetch(`${config.supabaseUrl}/storage/v1/object/${EVIDENCE_BUCKET}`, {
      method: 'DELETE',
      headers: { ...serviceHeaders(config), 'content-type': 'application/json' },
      body: JSON.stringify({ prefixes: names }),
    });
    await response.body?.cancel();
    if (!response.ok) console.error(`Storage remove from ${EVIDENCE_BUCKET} failed with ${response.status}`);
  } catch (error) {
    console.error(`Storage remove from ${EVIDENCE_BUCKET} failed:`, error);
  }
}

/** /api/assessment-evidence/:id: the file's bytes, to whoever may read its record (row-level security). */
export function assessmentEvidenceRoutes(config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', EVIDENCE_NOT_FOUND);
    const [row] = await db.withCaller(caller.db, (tx) => tx<{ objectName: string; contentType: string; originalName: string }[]>`
      select object_name, content_type, original_name from public.assessment_evidence where id = ${id}::uuid`);
    if (!row) throw new ApiError(404, EVIDENCE_NOT_FOUND);
    const response = await fetch(`${config.supabaseUrl}/storage/v1/object/${EVIDENCE_BUCKET}/${row.objectName}`, {
      headers: serviceHeaders(config),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new ApiError(404, EVIDENCE_NOT_FOUND);
    }
    return new Response(response.body, {
      status: 200,
      headers: {
        'content-type': row.contentType,
        'content-disposition': attachmentDisposition(row.originalName),
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
      },
    });
  });

  return routes;
}
