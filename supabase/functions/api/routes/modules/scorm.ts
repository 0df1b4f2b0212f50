// /api/modules/:id/scorm: an author uploads (or replaces) a module's SCORM package, reads what it
// holds, and sets what completes the module. The checks: ../../lib/scorm.ts; the row is written only
// by private.save_scorm_package (18_scorm_packages.sql), after every file is stored.
import type { Hono } from 'hono';
import { type ScormPackage, SCORM_UPLOAD_LIMIT_MB, scormOverLimit, scormSettingsSchema, scormTooLargeMessage } from '../../../_shared/scorm.ts';
import type { Config } from '../../lib/config.ts';
import type { Db, Tx } from '../../lib/db.ts';
import { type Env, requireUser } from '../../lib/auth.ts';
import { jsonBody, readBytes } from '../../lib/body.ts';
import { ApiError, pgError } from '../../lib/errors.ts';
import { pathId } from '../../lib/params.ts';
import { moduleToChange, NOT_YOURS } from '../../lib/authoring.ts';
import { MSG, type Row } from '../../lib/learning.ts';
import { checkPackage, removeObjects, removePrefix, scormPublicUrl, unpackToStorage } from '../../lib/scorm.ts';

const NOT_SCORM = 'This module is not a SCORM package module: add a module of type "SCORM package" to upload one';
const NO_PACKAGE = 'This module has no SCORM package yet';
const ZIP_TYPES = /^(application\/zip|application\/x-zip-compressed|application\/x-zip|application\/octet-stream)\s*(;|$)/i;
const MULTIPART_OVERHEAD = 64 * 1024;

/** The module once the caller may change it, with its kind, current revision and the upload limit (MB). */
async function scormModuleToChange(tx: Tx, id: string, userId: string) {
  await moduleToChange(tx, id, userId);
  // The database's own rule (private.save_scorm_package's), so that nobody it would refuse in the
  // end (an organisation's administrator on a national course) has a package checked and stored first.
  const [row] = await tx<{ kind: string; revision: number | null; maxMb: number; mayEdit: boolean }[]>`
    select m.kind, p.revision, (select s.scorm_max_upload_mb from public.settings s where s.id) as max_mb,
           private.may_edit_module(m.id) as may_edit
    from public.course_modules m left join public.scorm_packages p on p.module_id = m.id
    where m.id = ${id}::uuid`;
  if (!row.mayEdit) throw new ApiError(403, NOT_YOURS);
  if (row.kind !== 'scorm') throw new ApiError(409, NOT_SCORM);
  return { revision: row.revision ?? 0, maxMb: Number(row.maxMb ?? SCORM_UPLOAD_LIMIT_MB.default) };
}

function toPackage(config: Config, row: Row): ScormPackage {
  const prefix = String(row.storagePrefix);
  return {
    moduleId: String(row.moduleId),
    title: String(row.title),
    version: row.version === '2004' ? '2004' : '1.2',
    edition: (row.edition as ScormPackage['edition']) ?? null,
    scos: (row.scos as { id: string; title: string; href: string }[]).map((s) => ({
      id: s.id,
      title: s.title,
      href: s.href,
      url: `${scormPublicUrl(config, prefix)}${s.href}`,
    })),
    revision: Number(row.revision),
    baseUrl: scormPublicUrl(config, prefix),
    fileCount: Number(row.fileCount),
    unpackedBytes: Number(row.unpackedBytes),
    completionRule: row.completionRule as ScormPackage['completionRule'],
    scoreIsQuizScore: Boolean(row.scoreIsQuizScore),
    uploadedAt: new Date(row.uploadedAt as string).toISOString(),
  };
}

async function readPackage(tx: Tx, id: string): Promise<Row | undefined> {
  const [row] = await tx<Row[]>`
    select module_id, title, version, edition, scos, revision, storage_prefix, file_count, unpacked_bytes,
           completion_rule, score_is_quiz_score, uploaded_at
    from public.scorm_packages where module_id = ${id}::uuid`;
  return row;
}

/**
 * The zip's bytes: the raw body (a zip type or octet-stream) or the multipart field `package`.
 * Over the site's limit is 413 before the body is read whole (Content-Length, else as the stream
 * passes it), so memory stays within the limit. The raw body is the lighter path (one buffer, sized by
 * Content-Length; the web app sends that); multipart holds the body and the parsed file both for a while.
 */
async function readPackageBody(request: Request, maxMb: number): Promise<Uint8Array> {
  const type = request.headers.get('content-type') ?? '';
  const maxBytes = maxMb * 1024 * 1024;
  const tooLarge = (bytes: number | null) => {
    const message = scormTooLargeMessage(bytes, maxMb);
    return new ApiError(413, message, { package: message });
  };
  if (ZIP_TYPES.test(type)) {
    const bytes = await readBytes(request, maxBytes, tooLarge);
    if (bytes.length === 0) throw new ApiError(400, 'Validation failed', { package: 'Choose a .zip file to upload' });
    return bytes;
  }
  if (/^multipart\/form-data\s*;/i.test(type)) {
    let raw: Uint8Array | null = await readBytes(request, maxBytes + MULTIPART_OVERHEAD, tooLarge);
    let form: FormData;
    try {
      form = await new Response(raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
    } catch {
      throw new ApiError(400, 'Invalid multipart body');
    }
    raw = null; // the parsed file holds the bytes now
    const file = form.get('package');
    if (!(file instanceof File) || file.size === 0) throw new ApiError(400, 'Validation failed', { package: 'Choose a .zip file to upload' });
    if (scormOverLimit(file.size, maxMb)) throw tooLarge(file.size);
    return new Uint8Array(await file.arrayBuffer());
  }
  const message = 'Send the package as a .zip file (application/zip) or as multipart/form-data with the field "package"';
  throw new ApiError(415, message, { package: message });
}

export function scormRoutes(routes: Hono<Env>, config: Config, db: Db) {
  routes.post('/:id/scorm', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    // The right first, so nobody but an author makes the server read (or check) a large body.
    const current = await db.withCaller(caller.db, (tx) => scormModuleToChange(tx, id, caller.userId));
    const bytes = await readPackageBody(c.req.raw, current.maxMb);
    const pkg = checkPackage(bytes);
    const revision = current.revision + 1;
    const prefix = `${id}/${revision}/`;
    const stored = await unpackToStorage(config, bytes, pkg, prefix);
    let replaced: string | null;
    let row: Row;
    try {
      [replaced, row] = await db.withCaller(caller.db, async (tx) => {
        const [saved] = await tx<{ old: string | null }[]>`
          select private.save_scorm_package(${id}::uuid, ${revision}, ${pkg.version}, ${pkg.edition}, ${pkg.title},
            ${tx.json(pkg.scos.map((s) => ({ ...s })))}::jsonb, ${pkg.files.length}, ${pkg.unpackedBytes}) as old`;
        return [saved.old, (await readPackage(tx, id))!] as const;
      });
    } catch (error) {
      // No half state: the files of a package that was not recorded go.
      await removeObjects(config, stored);
      const code = pgError(error)?.code;
      if (code === '42501') throw new ApiError(403, NOT_YOURS);
      if (code === '55000') throw new ApiError(409, 'The package was replaced meanwhile: upload it again');
      if (code === '22023') throw new ApiError(409, NOT_SCORM);
      throw error;
    }
    // The old revision's files go once the new row has committed (learners' records stay: keyed by module).
    if (replaced && replaced !== prefix) await removePrefix(config, replaced);
    return c.json(toPackage(config, row), revision === 1 ? 201 : 200);
  });

  routes.get('/:id/scorm', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const row = await db.withCaller(caller.db, async (tx) => {
      await scormModuleToChange(tx, id, caller.userId);
      return await readPackage(tx, id);
    });
    if (!row) throw new ApiError(404, NO_PACKAGE);
    return c.json(toPackage(config, row));
  });

  routes.put('/:id/scorm/settings', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const input = await jsonBody(c, scormSettingsSchema);
    const row = await db.withCaller(caller.db, async (tx) => {
      await scormModuleToChange(tx, id, caller.userId);
      try {
        await tx`select private.set_scorm_settings(${id}::uuid, ${input.completionRule}, ${input.scoreIsQuizScore})`;
      } catch (error) {
        const code = pgError(error)?.code;
        if (code === '42501') throw new ApiError(403, NOT_YOURS);
        if (code === 'P0002') throw new ApiError(404, NO_PACKAGE);
        throw error;
      }
      return (await readPackage(tx, id))!;
    });
    return c.json(toPackage(config, row));
  });
}
