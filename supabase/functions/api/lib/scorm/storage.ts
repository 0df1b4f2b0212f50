// A checked SCORM package's files in the public bucket scorm-content, stored and removed with the
// service role (the caller's right is checked first, docs/ARCHITECTURE.md), unpacked file by file.
import type { Config } from '../config.ts';
import type { CheckedPackage } from './manifest.ts';
import { inflateEntry, MAX_UNPACKED_BYTES, refuse, type ZipSource } from './zip.ts';

export const SCORM_BUCKET = 'scorm-content';
const UPLOAD_CONCURRENCY = 6;

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8', htm: 'text/html; charset=utf-8', xhtml: 'application/xhtml+xml',
  js: 'text/javascript; charset=utf-8', mjs: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8',
  json: 'application/json', xml: 'application/xml', xsd: 'application/xml', dtd: 'application/xml-dtd',
  txt: 'text/plain; charset=utf-8', csv: 'text/csv', pdf: 'application/pdf', swf: 'application/x-shockwave-flash',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', svg: 'image/svg+xml', webp: 'image/webp',
  ico: 'image/x-icon', bmp: 'image/bmp', avif: 'image/avif',
  mp4: 'video/mp4', m4v: 'video/mp4', webm: 'video/webm', ogv: 'video/ogg', mov: 'video/quicktime',
  mp3: 'audio/mpeg', m4a: 'audio/mp4', wav: 'audio/wav', ogg: 'audio/ogg', oga: 'audio/ogg', vtt: 'text/vtt',
  woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf', eot: 'application/vnd.ms-fontobject',
  wasm: 'application/wasm', zip: 'application/zip',
};

/** The content type of a package file by its extension (unknown: application/octet-stream). */
export function contentTypeOf(name: string): string {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return (name.includes('.') && TYPES[ext]) || 'application/octet-stream';
}

const serviceHeaders = (config: Config) => ({ authorization: `Bearer ${config.serviceRoleKey}`, apikey: config.serviceRoleKey });
const objectPath = (name: string) => name.split('/').map(encodeURIComponent).join('/');

export function scormPublicUrl(config: Config, name: string): string {
  return `${config.supabaseUrl}/storage/v1/object/public/${SCORM_BUCKET}/${objectPath(name)}`;
}

/** A package's file (or its root, by its prefix) on the content origin (SCORM_CONTENT_URL), never the
 * app's: the content is untrusted. */
export function scormContentUrl(config: Config, name: string): string {
  return `${config.scormContentUrl ?? `${config.supabaseUrl}/storage/v1/object/public/${SCORM_BUCKET}`}/${objectPath(name)}`;
}

/** Stores one file of the package; `label` is its name inside the package (for a refusal). */
async function putObject(config: Config, name: string, label: string, body: Uint8Array, type: string): Promise<void> {
  const send = (contentType: string) =>
    fetch(`${config.supabaseUrl}/storage/v1/object/${SCORM_BUCKET}/${objectPath(name)}`, {
      method: 'POST',
      headers: { ...serviceHeaders(config), 'content-type': contentType, 'cache-control': 'max-age=3600', 'x-upsert': 'true' },
      body: body as Uint8Array<ArrayBuffer>,
    });
  let response = await send(type);
  // A store that checks images by their bytes refuses a file whose bytes do not match its extension
  // (or an SVG): kept as an inert download rather than failing the whole package.
  if (response.status === 415 || (response.status === 400 && type !== 'application/octet-stream' && (await response.clone().text()).includes('415'))) {
    await response.body?.cancel();
    response = await send('application/octet-stream');
  }
  const text = await response.text();
  // Storage's own limit on one object (hosted Supabase: the project's "upload file size limit", 50 MB
  // on the free plan; hosted Storage answers 400 with statusCode "413"): the author's file, not a fault.
  if (response.status === 413 || (response.status === 400 && /"statusCode"\s*:\s*"413"/.test(text))) {
    const megabytes = (body.byteLength / 1024 / 1024).toLocaleString('en-GB', { maximumFractionDigits: 1 });
    throw refuse(413, `The package's file "${label.slice(0, 120)}" is ${megabytes} MB, more than this site's file storage accepts for one file: export it again with smaller media (compressed video and audio), or ask your administrator to raise the storage's file size limit`);
  }
  if (!response.ok) throw new Error(`Storage upload of ${name} failed with ${response.status}: ${text.slice(0, 200)}`);
}

/** A package's stored files: their object names, and each file's SHA-256 by its path in the package. */
export interface UnpackedPackage {
  stored: string[];
  hashes: Record<string, string>;
}

/** The SHA-256 of the bytes, lowercase hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Unpacks every file under `prefix`, a few at a time, reading each from the source as it goes; one
 * file's bytes are in memory per worker (a file is at most Storage's per-object limit, else refused).
 * Each file is hashed while it is held whole (the offline manifest signs these hashes). Returns the
 * names stored and the hashes; on failure removes what it stored and rethrows.
 */
export async function unpackToStorage(config: Config, source: ZipSource, pkg: CheckedPackage, prefix: string): Promise<UnpackedPackage> {
  const stored: string[] = [];
  // A Map: a file may be named __proto__.
  const hashes = new Map<string, string>();
  let next = 0;
  let total = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (next < pkg.files.length && failure === null) {
      const entry = pkg.files[next++];
      const chunks: Uint8Array[] = [];
      const size = await inflateEntry(source, entry, (chunk) => {
        // Copied: the chunk may be a view of a buffer reused by a later read.
        chunks.push(chunk.slice());
      });
      total += size;
      if (total > MAX_UNPACKED_BYTES) throw refuse(413, 'The package unpacks to more than 1 GB; packages may unpack to at most 1 GB');
      const body = chunks.length === 1 ? chunks[0] : concat(chunks, size);
      const name = prefix + entry.name;
      hashes.set(entry.name, await sha256Hex(body));
      await putObject(config, name, entry.name, body, contentTypeOf(entry.name));
      stored.push(name);
    }
  };
  // Every worker settles before the clean-up, so no upload lands after it (no half state).
  await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, pkg.files.length) }, () =>
    worker().catch((error) => {
      failure ??= error;
    })));
  if (failure !== null) {
    await removeObjects(config, stored);
    throw failure;
  }
  return { stored, hashes: Object.fromEntries(hashes) };
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Removes objects by name, 1,000 at a time; failures are logged (the row change has happened). */
export async function removeObjects(config: Config, names: string[]): Promise<void> {
  for (let i = 0; i < names.length; i += 1000) {
    try {
      const response = await fetch(`${config.supabaseUrl}/storage/v1/object/${SCORM_BUCKET}`, {
        method: 'DELETE',
        headers: { ...serviceHeaders(config), 'content-type': 'application/json' },
        body: JSON.stringify({ prefixes: names.slice(i, i + 1000) }),
      });
      await response.body?.cancel();
      if (!response.ok) console.error(`Storage remove from ${SCORM_BUCKET} failed with ${response.status}`);
    } catch (error) {
      console.error(`Storage remove from ${SCORM_BUCKET} failed:`, error);
    }
  }
}

/** Every object name under a prefix (`<module>/<revision>/`), walking its folders. */
export async function listObjects(config: Config, prefix: string): Promise<string[]> {
  const names: string[] = [];
  const folders = [prefix.replace(/\/+$/, '')];
  while (folders.length > 0) {
    const folder = folders.pop()!;
    for (let offset = 0; ; offset += 1000) {
      const response = await fetch(`${config.supabaseUrl}/storage/v1/object/list/${SCORM_BUCKET}`, {
        method: 'POST',
        headers: { ...serviceHeaders(config), 'content-type': 'application/json' },
        body: JSON.stringify({ prefix: folder, limit: 1000, offset }),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`Storage list of ${folder} failed with ${response.status}`);
      }
      const rows = (await response.json()) as { name: string; id: string | null }[];
      for (const row of rows) (row.id === null ? folders.push(`${folder}/${row.name}`) : names.push(`${folder}/${row.name}`));
      if (rows.length < 1000) break;
    }
  }
  return names;
}

/** Removes everything under a prefix (an old revision); failures are logged. */
export async function removePrefix(config: Config, prefix: string): Promise<void> {
  try {
    await removeObjects(config, await listObjects(config, prefix));
  } catch (error) {
    console.error(`Removing ${prefix} from ${SCORM_BUCKET} failed:`, error);
  }
}
