// /api/modules/:id/scorm and /settings: an author uploads (or replaces) a module's SCORM package, reads
// what it holds, and sets what completes the module. The checks: lib/scorm/; the row is written only
// by private.save_scorm_package (18_scorm_packages.sql), after every file is stored.
import type { Hono } from 'hono';
import { type ScormPackage, SCORM_UPLOAD_LIMIT_MB, scormOverLimit, scormSettingsSchema, scormTooLargeMessage } from '../../../../_shared/scorm.ts';
import type { Config } from '../../../lib/config.ts';
import type { Db, Tx } from '../../../lib/db.ts';
import { type Env, requireUser } from '../../../lib/auth.ts';
import { jsonBody, readBytes } from '../../../lib/body.ts';
import { ApiError, pgError } from '../../../lib/errors.ts';
import { pathId } from '../../../lib/params.ts';
import { moduleToChange, NOT_YOURS } from '../../../lib/authoring.ts';
import { MSG, type Row } from '../../../lib/learning.ts';
import { fileSource, type ZipSource } from '../../../lib/scorm/zip.ts';
import { checkPackage } from '../../../lib/scorm/manifest.ts';
import { removeObjects, removePrefix, scormPublicUrl, unpackToStorage } from '../../../lib/scorm/storage.ts';

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
    minMinutes: Number(row.minSeconds ?? 0) / 60,
    uploadedAt: new Date(row.uploadedAt as string).toISOString(),
  };
}

async function readPackage(tx: Tx, id: string): Promise<Row | undefined> {
  const [row] = await tx<Row[]>`
    select module_id, title, version, edition, scos, revision, storage_prefix, file_count, unpacked_bytes,
           completion_rule, score_is_quiz_score, min_seconds, uploaded_at
    from public.scorm_packages where module_id = ${id}::uuid`;
  return row;
}

/** A multipart body is parsed in memory (the body and the parsed file both): only this large. */
const MULTIPART_MAX_MB = 16;
const CHOOSE_ZIP = 'Choose a .zip file to upload';

/** Writes all of `bytes` (a write may take only part). */
async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
}

/**
 * Streams the raw body into `file`, refusing (413) as soon as it passes `maxBytes`, so neither the
 * memory nor the disk holds more than the limit. Returns the bytes written.
 */
async function spoolBody(request: Request, file: Deno.FsFile, maxBytes: number, declared: number, tooLarge: (bytes: number | null) => ApiError): Promise<number> {
  if (!request.body) return 0;
  const reader = request.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return size;
      size += value.byteLength;
      if (Number.isSafeInteger(declared) && size > declared) throw new ApiError(400, 'The body is longer than its Content-Length');
      if (size > maxBytes) throw tooLarge(null);
      await writeAll(file, value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  }
}

/**
 * Runs `use` on the uploaded zip, spooled to a temporary file and read from there by offset
 * (docs/ARCHITECTURE.md: a hosted function has 256 MB of memory, less than a package may be). The
 * zip is the raw body (a zip type or octet-stream; the web app sends that) or, up to
 * MULTIPART_MAX_MB, the multipart field `package`. Over the site's limit is 413 before the body is
 * read whole (Content-Length, else as the stream passes it). The file is removed however it ends.
 */
async function withPackageFile<T>(request: Request, maxMb: number, use: (source: ZipSource) => Promise<T>): Promise<T> {
  const type = request.headers.get('content-type') ?? '';
  const maxBytes = maxMb * 1024 * 1024;
  const tooLarge = (bytes: number | null) => {
    const message = scormTooLargeMessage(bytes, maxMb);
    return new ApiError(413, message, { package: message });
  };
  const length = request.headers.get('content-length');
  const declared = length === null || length.trim() === '' ? NaN : Number(length);
  let form: File | null = null;
  if (ZIP_TYPES.test(type)) {
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(declared);
  } else if (/^multipart\/form-data\s*;/i.test(type)) {
    form = await multipartPackage(request, type, maxMb, tooLarge);
  } else {
    const message = 'Send the package as a .zip file (application/zip) or as multipart/form-data with the field "package"';
    throw new ApiError(415, message, { package: message });
  }
  const path = await Deno.makeTempFile({ prefix: 'scorm-upload-', suffix: '.zip' });
  try {
    const file = await Deno.open(path, { read: true, write: true });
    try {
      let size: number;
      if (form) {
        await writeAll(file, new Uint8Array(await form.arrayBuffer()));
        size = form.size;
        form = null;
      } else {
        size = await spoolBody(request, file, maxBytes, declared, tooLarge);
      }
      if (size === 0) throw new ApiError(400, 'Validation failed', { package: CHOOSE_ZIP });
      return await use(await fileSource(file));
    } finally {
      file.close();
    }
  } finally {
    await Deno.remove(path).catch((error) => console.error(`Removing ${path} failed:`, error));
  }
}

/** The multipart field `package`, the body read in memory up to MULTIPART_MAX_MB (or the site's limit if lower). */
async function multipartPackage(request: Request, type: string, maxMb: number, tooLarge: (bytes: number | null) => ApiError): Promise<File> {
  const limit = maxMb * 1024 * 1024 + MULTIPART_OVERHEAD;
  const cap = Math.min(limit, MULTIPART_MAX_MB * 1024 * 1024);
  const refuse = (declared: number | null) => {
    if (declared === null ? cap === limit : declared > limit) return tooLarge(declared);
    const message = `A package over ${MULTIPART_MAX_MB} MB cannot be sent as multipart/form-data: send the .zip file itself as the body (Content-Type application/zip)`;
    return new ApiError(413, message, { package: message });
  };
  let raw: Uint8Array | null = await readBytes(request, cap, refuse);
  let form: FormData;
  try {
    form = await new Response(raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new ApiError(400, 'Invalid multipart body');
  }
  raw = null; // the parsed file holds the bytes now
  const file = form.get('package');
  if (!(file instanceof File) || file.size === 0) throw new ApiError(400, 'Validation failed', { package: CHOOSE_ZIP });
  if (scormOverLimit(file.size, maxMb)) throw tooLarge(file.size);
  return file;
}

export function scormPackageRoutes(routes: Hono<Env>, config: Config, db: Db) {
  routes.post('/', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    // The right first, so nobody but an author makes the server read (or check) a large body.
    const current = await db.withCaller(caller.db, (tx) => scormModuleToChange(tx, id, caller.userId));
    const revision = current.revision + 1;
    const prefix = `${id}/${revision}/`;
    const [pkg, { stored, hashes }] = await withPackageFile(c.req.raw, current.maxMb, async (source) => {
      const pkg = await checkPackage(source);
      return [pkg, await unpackToStorage(config, source, pkg, prefix)] as const;
    });
    let replaced: string | null;
    let row: Row;
    try {
      [replaced, row] = await db.withCaller(caller.db, async (tx) => {
        const [saved] = await tx<{ old: string | null }[]>`
          select private.save_scorm_package(${id}::uuid, ${revision}, ${pkg.version}, ${pkg.edition}, ${pkg.title},
            ${tx.json(pkg.scos.map((s) => ({ ...s })))}::jsonb, ${pkg.files.length}, ${pkg.unpackedBytes},
            ${tx.json(hashes)}::jsonb) as old`;
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

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const row = await db.withCaller(caller.db, async (tx) => {
      await scormModuleToChange(tx, id, caller.userId);
      return await readPackage(tx, id);
    });
    if (!row) throw new ApiError(404, NO_PACKAGE);
    return c.json(toPackage(config, row));
  });

  routes.put('/settings', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const input = await jsonBody(c, scormSettingsSchema);
    const row = await db.withCaller(caller.db, async (tx) => {
      await scormModuleToChange(tx, id, caller.userId);
      try {
        await tx`select private.set_scorm_settings(${id}::uuid, ${input.completionRule}, ${input.scoreIsQuizScore},
                                                    ${input.minMinutes === undefined ? null : Math.round(input.minMinutes * 60)}::integer)`;
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
