// SCORM packages: check an uploaded zip before anything is stored, read its manifest, and
// unpack it file by file into the public bucket scorm-content with the service role. The package is
// untrusted (docs/SECURITY.md): every refusal is decided from the zip's central directory and the
// manifest, and the inflated bytes are counted as they stream, so a lying header stops at the limit.
import { Inflate } from 'fflate';
import { XMLParser } from 'fast-xml-parser';
import type { Config } from './config.ts';
import { ApiError } from './errors.ts';

export const SCORM_BUCKET = 'scorm-content';
/** Limits on what a package unpacks to (docs/SECURITY.md). */
export const MAX_FILES = 10_000;
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** Deflate cannot do better than about 1:1032; beyond 1:200 on a file over 1 MiB is a bomb, not a course. */
export const MAX_RATIO = 200;
const RATIO_FLOOR = 1024 * 1024;
const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;
const UPLOAD_CONCURRENCY = 6;

export type ScormVersion = '1.2' | '2004';
export interface Sco {
  id: string;
  title: string;
  href: string;
  /** What the manifest gives the run-time (ScoRunTimeData); absent when it gives nothing. */
  objectives?: string[];
  passingScore?: string;
  completionThreshold?: string;
  masteryScore?: string;
  launchData?: string;
}
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}
export interface CheckedPackage {
  version: ScormVersion;
  edition: '2nd' | '3rd' | '4th' | null;
  title: string;
  scos: Sco[];
  files: ZipEntry[];
  unpackedBytes: number;
}

const refuse = (status: 413 | 415 | 422, message: string) => new ApiError(status, message, { package: message });
const REEXPORT = 'export it again as SCORM 1.2 or 2004';
export const NOT_A_ZIP = 'The file is not a zip archive: export the course again as a SCORM 1.2 or 2004 package';

const le16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const le32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** True when the bytes start as a zip does (a local file header, or the end record of an empty zip). */
export function looksLikeZip(bytes: Uint8Array, size = bytes.length): boolean {
  return size >= 22 && bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

/**
 * A zip read by offset, so a package is never held whole (docs/ARCHITECTURE.md): the upload is
 * spooled to a temporary file and read from there. `read` may return fewer bytes at the end.
 */
export interface ZipSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/**
 * A zip in an open file. Reads are queued, one at a time: seek and read are two steps on one handle,
 * and the upload workers read concurrently.
 */
export async function fileSource(file: Deno.FsFile): Promise<ZipSource> {
  const size = (await file.stat()).size;
  let queue: Promise<unknown> = Promise.resolve();
  const readAt = async (offset: number, length: number): Promise<Uint8Array> => {
    const wanted = Math.max(0, Math.min(length, size - offset));
    const out = new Uint8Array(wanted);
    await file.seek(offset, Deno.SeekMode.Start);
    let at = 0;
    while (at < wanted) {
      const n = await file.read(out.subarray(at));
      if (n === null) break;
      at += n;
    }
    return at === wanted ? out : out.subarray(0, at);
  };
  return {
    size,
    read(offset, length) {
      const result = queue.then(() => readAt(offset, length));
      queue = result.catch(() => {});
      return result;
    },
  };
}

/**
 * Reads a region of the source through a window of at least `WINDOW` bytes, for walking records
 * in order (the central directory) without holding it whole.
 */
function windowed(source: ZipSource, from: number, to: number) {
  const WINDOW = 1024 * 1024;
  let start = 0;
  let buffer: Uint8Array = new Uint8Array();
  return async (at: number, length: number): Promise<Uint8Array | null> => {
    if (at < from || at + length > to) return null;
    if (at < start || at + length > start + buffer.length) {
      start = at;
      buffer = await source.read(at, Math.min(to - at, Math.max(length, WINDOW)));
      if (buffer.length < length) return null;
    }
    return buffer.subarray(at - start, at - start + length);
  };
}

/** The entry's name as a safe relative path, or a refusal (absolute, `..`, a drive, control characters). */
function safePath(raw: string): string {
  const name = raw.replaceAll('\\', '/');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    throw refuse(422, `The package contains a file with an absolute path ("${raw.slice(0, 120)}"): ${REEXPORT}`);
  }
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw refuse(422, `The package contains a file name with control characters: ${REEXPORT}`);
  }
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) {
    throw refuse(422, `The package contains a path that leads outside it ("${raw.slice(0, 120)}"): ${REEXPORT}`);
  }
  return parts.join('/') + (name.endsWith('/') ? '/' : '');
}

/** The central directory's entries, checked: no links, no encryption, within the limits. */
export async function readCentralDirectory(source: ZipSource): Promise<ZipEntry[]> {
  if (!looksLikeZip(await source.read(0, 4), source.size)) throw refuse(415, NOT_A_ZIP);
  // The end-of-central-directory record: 22 bytes plus a comment of up to 65,535.
  const tailStart = Math.max(0, source.size - 22 - 65535);
  const tail = await source.read(tailStart, source.size - tailStart);
  let end = -1;
  for (let at = tail.length - 22; at >= 0; at--) {
    if (le32(tail, at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw refuse(415, NOT_A_ZIP);
  const count = le16(tail, end + 10);
  const dirSize = le32(tail, end + 12);
  const dirOffset = le32(tail, end + 16);
  end += tailStart;
  if (count === 0xffff || dirOffset === 0xffffffff) {
    throw refuse(413, `The package is too large to check (a ZIP64 archive): packages may hold at most ${MAX_FILES.toLocaleString('en-GB')} files`);
  }
  if (count > MAX_FILES) {
    throw refuse(413, `The package holds ${count.toLocaleString('en-GB')} files; at most ${MAX_FILES.toLocaleString('en-GB')} are allowed`);
  }
  if (dirOffset + dirSize > end) throw refuse(415, NOT_A_ZIP);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  const directory = windowed(source, dirOffset, end);
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    const fixed = await directory(at, 46);
    if (!fixed || le32(fixed, 0) !== 0x02014b50) throw refuse(415, NOT_A_ZIP);
    const madeBy = fixed[5];
    const flags = le16(fixed, 8);
    const method = le16(fixed, 10);
    const compressedSize = le32(fixed, 20);
    const size = le32(fixed, 24);
    const nameLength = le16(fixed, 28);
    const extraLength = le16(fixed, 30);
    const commentLength = le16(fixed, 32);
    const external = le32(fixed, 38);
    const offset = le32(fixed, 42);
    const nameBytes = await directory(at + 46, nameLength);
    if (!nameBytes) throw refuse(415, NOT_A_ZIP);
    const raw = decoder.decode(nameBytes);
    at += 46 + nameLength + extraLength + commentLength;
    const name = safePath(raw);
    // Unix (3) and macOS (19) keep the file mode in the high 16 bits: 0o120000 is a symbolic link.
    if ((madeBy === 3 || madeBy === 19) && ((external >>> 16) & 0o170000) === 0o120000) {
      throw refuse(422, `The package contains a link ("${raw.slice(0, 120)}"); links are not allowed: ${REEXPORT}`);
    }
    if (name.endsWith('/') || name === '') continue;
    if (flags & 1) throw refuse(422, 'The package is encrypted (password-protected): export it again without a password');
    if (method !== 0 && method !== 8) {
      throw refuse(422, `The package uses a compression method we cannot read ("${raw.slice(0, 120)}"): ${REEXPORT} with standard (deflate) compression`);
    }
    if (compressedSize === 0xffffffff || size === 0xffffffff || offset === 0xffffffff) {
      throw refuse(413, 'The package is too large to check (a ZIP64 archive)');
    }
    if (offset + 30 + compressedSize > dirOffset) throw refuse(415, NOT_A_ZIP);
    const key = name.toLowerCase();
    if (seen.has(key)) throw refuse(422, `The package contains "${name.slice(0, 120)}" twice: ${REEXPORT}`);
    seen.add(key);
    total += size;
    if (total > MAX_UNPACKED_BYTES) {
      throw refuse(413, 'The package unpacks to more than 1 GB; packages may unpack to at most 1 GB');
    }
    if (size > RATIO_FLOOR && size > compressedSize * MAX_RATIO) {
      throw refuse(413, `The package's file "${name.slice(0, 120)}" unpacks to ${Math.round(size / Math.max(1, compressedSize))} times its packed size; it looks like a zip bomb and was refused`);
    }
    entries.push({ name, method, compressedSize, size, offset });
  }
  if (entries.length === 0) throw refuse(422, `The package is empty: ${REEXPORT}`);
  return entries;
}

/**
 * Inflates one entry in chunks read from the source, calling `onChunk` per chunk (awaited, so a
 * slow consumer holds back the reading); refuses as soon as the output passes the size the
 * directory declared (a lying header) or the data is damaged.
 */
export async function inflateEntry(source: ZipSource, entry: ZipEntry, onChunk: (chunk: Uint8Array) => void | Promise<void>): Promise<number> {
  const local = await source.read(entry.offset, 30);
  if (local.length < 30 || le32(local, 0) !== 0x04034b50) throw refuse(415, NOT_A_ZIP);
  const start = entry.offset + 30 + le16(local, 26) + le16(local, 28);
  if (start + entry.compressedSize > source.size) throw refuse(415, NOT_A_ZIP);
  const damaged = () => refuse(422, `The package's file "${entry.name.slice(0, 120)}" is damaged or larger than its zip header says: ${REEXPORT}`);
  if (entry.method === 0 && entry.compressedSize !== entry.size) throw damaged();
  const STEP = 256 * 1024;
  let produced = 0;
  let failure: ApiError | null = null;
  let pending: Uint8Array[] = [];
  const inflater = new Inflate((chunk) => {
    if (failure) return;
    produced += chunk.length;
    if (produced > entry.size) {
      failure = damaged();
      return;
    }
    pending.push(chunk);
  });
  for (let at = 0; at < entry.compressedSize && !failure; at += STEP) {
    const data = await source.read(start + at, Math.min(STEP, entry.compressedSize - at));
    if (data.length === 0) throw refuse(415, NOT_A_ZIP);
    if (entry.method === 0) {
      produced += data.length;
      await onChunk(data);
      continue;
    }
    try {
      inflater.push(data, at + STEP >= entry.compressedSize);
    } catch {
      throw damaged();
    }
    if (failure) break;
    const ready = pending;
    pending = [];
    for (const chunk of ready) await onChunk(chunk);
  }
  if (failure) throw failure;
  if (produced !== entry.size) throw damaged();
  return produced;
}

/** The whole of one (small) entry. */
async function entryBytes(source: ZipSource, entry: ZipEntry): Promise<Uint8Array> {
  const out = new Uint8Array(entry.size);
  let at = 0;
  await inflateEntry(source, entry, (chunk) => {
    out.set(chunk, at);
    at += chunk.length;
  });
  return out;
}

// ---- The manifest

type Node = Record<string, unknown>;
const asArray = (value: unknown): Node[] => (Array.isArray(value) ? value : value == null ? [] : [value]) as Node[];
const text = (value: unknown): string => {
  if (value == null) return '';
  if (typeof value === 'object') return text((value as Node)['#text']);
  return String(value).trim();
};
const attr = (node: Node, name: string): string => {
  // Attribute names without their namespace prefix (removeNSPrefix), in either case SCORM tools use.
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_') && key.slice(2).toLowerCase() === name.toLowerCase()) return String(value).trim();
  }
  return '';
};

/** The version and edition from metadata/schemaversion (or, when absent, the adlcp namespace). */
export function scormVersion(manifest: Node, rawXml: string): { version: ScormVersion; edition: CheckedPackage['edition'] } {
  const metadata = asArray(manifest.metadata)[0] ?? {};
  const declared = text(metadata.schemaversion);
  const v = declared.toLowerCase();
  if (v === '1.2') return { version: '1.2', edition: null };
  if (v.includes('2004') && v.includes('4th')) return { version: '2004', edition: '4th' };
  if (v.includes('2004') && v.includes('3rd')) return { version: '2004', edition: '3rd' };
  if ((v.includes('2004') && v.includes('2nd')) || v === 'cam 1.3' || v === '2004') return { version: '2004', edition: '2nd' };
  if (declared === '') {
    if (/adlcp_rootv1p2/i.test(rawXml)) return { version: '1.2', edition: null };
    if (/adlcp_v1p3/i.test(rawXml)) return { version: '2004', edition: '3rd' };
  }
  throw refuse(
    422,
    `The package is SCORM version "${declared.slice(0, 60) || 'unknown'}", which is not supported: export it as SCORM 1.2 or SCORM 2004 (2nd, 3rd or 4th edition)`,
  );
}

const joinBase = (...parts: string[]) =>
  parts.filter((p) => p !== '').reduce((acc, p) => (/^[a-z][a-z0-9+.-]*:/i.test(p) || p.startsWith('/') ? p : acc + p), '');

/** A child element by its name without prefix, in any case (tools write datafromlms and dataFromLMS). */
const child = (node: Node | undefined, name: string): unknown => {
  if (!node) return undefined;
  for (const [key, value] of Object.entries(node)) if (!key.startsWith('@_') && key.toLowerCase() === name.toLowerCase()) return value;
  return undefined;
};
const DECIMAL = /^-?\d{1,10}(\.\d{1,10})?$/;
const decimalIn = (value: string, min: number, max: number): string | undefined =>
  DECIMAL.test(value) && Number(value) >= min && Number(value) <= max ? value : undefined;
const MAX_OBJECTIVES = 250;

/**
 * What the manifest tells the run-time about one SCO, as SCORM's content packaging says the LMS
 * initialises it: 2004's objectives (imsss:primaryObjective and imsss:objective ids: cmi.objectives),
 * the primary objective's minNormalizedMeasure when satisfiedByMeasure is true
 * (cmi.scaled_passing_score), adlcp:completionThreshold (cmi.completion_threshold: the element's
 * text in the 3rd edition, minProgressMeasure with completedByMeasure in the 4th); 1.2's
 * adlcp:masteryscore (cmi.student_data.mastery_score); and dataFromLMS (cmi.launch_data). A value
 * out of its range is left out, never a reason to refuse the package.
 */
function scoRunTimeData(version: ScormVersion, item: Node, collection: Node[]): Partial<Sco> {
  const out: Partial<Sco> = {};
  const launchData = text(child(item, 'dataFromLMS'));
  if (launchData) out.launchData = launchData.slice(0, version === '1.2' ? 4096 : 4000);
  if (version === '1.2') {
    const mastery = decimalIn(text(child(item, 'masteryscore')), 0, 100);
    if (mastery !== undefined) out.masteryScore = mastery;
    return out;
  }
  const threshold = asArray(child(item, 'completionThreshold'))[0];
  if (threshold !== undefined) {
    const byMeasure = attr(threshold, 'completedByMeasure');
    const value = byMeasure || attr(threshold, 'minProgressMeasure')
      ? (byMeasure.toLowerCase() === 'true' ? decimalIn(attr(threshold, 'minProgressMeasure') || '1', 0, 1) : undefined)
      : decimalIn(text(threshold), 0, 1);
    if (value !== undefined) out.completionThreshold = value;
  }
  // The item's own sequencing, or the collection's one it names (IDRef); the item's objectives win.
  const own = asArray(child(item, 'sequencing'))[0];
  const shared = own && attr(own, 'IDRef') ? collection.find((s) => attr(s, 'ID') === attr(own, 'IDRef')) : undefined;
  const objectivesNode = asArray(child(own, 'objectives'))[0] ?? asArray(child(shared, 'objectives'))[0];
  if (objectivesNode) {
    const primary = asArray(child(objectivesNode, 'primaryObjective'))[0];
    if (primary && attr(primary, 'satisfiedByMeasure').toLowerCase() === 'true') {
      const passing = decimalIn(text(child(primary, 'minNormalizedMeasure')) || '1', -1, 1);
      if (passing !== undefined) out.passingScore = passing;
    }
    const ids = [primary, ...asArray(child(objectivesNode, 'objective'))]
      .map((o) => (o ? attr(o, 'objectiveID') : ''))
      .filter((id) => /^\S{1,4000}$/.test(id));
    const unique = [...new Set(ids)].slice(0, MAX_OBJECTIVES);
    if (unique.length > 0) out.objectives = unique;
  }
  return out;
}

/** Parses imsmanifest.xml: version, title, and the SCOs of the default organisation in order. */
export function parseManifest(xml: string, files: Set<string>): Omit<CheckedPackage, 'files' | 'unpackedBytes'> {
  // No entity declarations: the manifest is untrusted and needs none (entity expansion bombs).
  if (/<!ENTITY/i.test(xml)) throw refuse(422, `The package's imsmanifest.xml declares XML entities, which are not allowed: ${REEXPORT}`);
  let doc: Node;
  try {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      removeNSPrefix: true,
      parseTagValue: false,
      parseAttributeValue: false,
      processEntities: true,
      htmlEntities: false,
      isArray: (name) => ['organization', 'item', 'resource', 'file', 'dependency', 'objective', 'sequencing'].includes(name),
    });
    doc = parser.parse(xml, true) as Node;
  } catch {
    throw refuse(422, `The package's imsmanifest.xml is not well-formed XML: ${REEXPORT}`);
  }
  const manifest = asArray(doc.manifest)[0];
  if (!manifest) throw refuse(422, `The package's imsmanifest.xml has no <manifest> element: ${REEXPORT}`);
  const { version, edition } = scormVersion(manifest, xml);

  const organizations = asArray(manifest.organizations)[0] ?? {};
  const orgs = asArray(organizations.organization);
  const wanted = attr(organizations, 'default');
  const org = orgs.find((o) => attr(o, 'identifier') === wanted) ?? orgs[0];
  const resourcesNode = asArray(manifest.resources)[0] ?? {};
  const resources = new Map(asArray(resourcesNode.resource).map((r) => [attr(r, 'identifier'), r]));
  const manifestBase = joinBase(attr(manifest, 'base'), attr(resourcesNode, 'base'));
  const sequencingCollection = asArray(asArray(manifest.sequencingCollection)[0]?.sequencing);

  const scos: Sco[] = [];
  const walk = (items: Node[]) => {
    for (const item of items) {
      const ref = attr(item, 'identifierref');
      const resource = ref ? resources.get(ref) : undefined;
      if (resource && attr(resource, 'scormtype').toLowerCase() === 'sco' && attr(resource, 'href')) {
        scos.push({
          id: attr(item, 'identifier') || ref,
          title: text(item.title) || ref,
          href: launchHref(item, resource),
          ...scoRunTimeData(version, item, sequencingCollection),
        });
      }
      walk(asArray(item.item));
    }
  };
  const launchHref = (item: Node, resource: Node): string => {
    const href = joinBase(manifestBase, attr(resource, 'base'), attr(resource, 'href'));
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/')) {
      throw refuse(422, `The launch file of "${text(item.title) || attr(item, 'identifier')}" points outside the package (${href.slice(0, 120)}): ${REEXPORT}`);
    }
    const [pathPart] = href.split(/[?#]/);
    let path: string;
    try {
      path = safePath(decodeURIComponent(pathPart));
    } catch (error) {
      if (error instanceof ApiError) throw error;
      path = safePath(pathPart);
    }
    if (!files.has(path)) {
      throw refuse(422, `The launch file "${path.slice(0, 120)}" named in imsmanifest.xml is not in the package: ${REEXPORT}`);
    }
    const parameters = attr(item, 'parameters');
    if (!parameters) return href;
    if (parameters.startsWith('#') || parameters.startsWith('?')) {
      return parameters.startsWith('?') && href.includes('?') ? `${href}&${parameters.slice(1)}` : `${href}${parameters}`;
    }
    return `${href}${href.includes('?') ? '&' : '?'}${parameters}`;
  };
  if (org) walk(asArray(org.item));
  if (scos.length === 0) {
    throw refuse(422, `The package has nothing a learner can launch (no SCO with a launch file in imsmanifest.xml): ${REEXPORT}`);
  }
  const title = (org && text(org.title)) || attr(manifest, 'identifier') || 'SCORM package';
  return { version, edition, title: title.slice(0, 500), scos };
}

/** Every check of a package, from its central directory and manifest; nothing is inflated but the manifest. */
export async function checkPackage(source: ZipSource): Promise<CheckedPackage> {
  const entries = await readCentralDirectory(source);
  const manifestEntry = entries.find((e) => e.name.toLowerCase() === 'imsmanifest.xml');
  if (!manifestEntry) {
    const nested = entries.find((e) => e.name.toLowerCase().endsWith('/imsmanifest.xml'));
    if (nested) {
      const folder = nested.name.slice(0, -'imsmanifest.xml'.length);
      throw refuse(
        422,
        `The package has no imsmanifest.xml at its top level: it is in the folder "${folder.slice(0, 120)}". Zip the contents of that folder, not the folder itself, or ${REEXPORT}`,
      );
    }
    throw refuse(422, `The package has no imsmanifest.xml at its top level: ${REEXPORT}`);
  }
  if (manifestEntry.size > MAX_MANIFEST_BYTES) throw refuse(413, 'The package\'s imsmanifest.xml is larger than 8 MB');
  const xml = new TextDecoder('utf-8').decode(await entryBytes(source, manifestEntry));
  const files = new Set(entries.map((e) => e.name));
  const parsed = parseManifest(xml, files);
  return { ...parsed, files: entries, unpackedBytes: entries.reduce((sum, e) => sum + e.size, 0) };
}

// ---- Storage

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

/**
 * Unpacks every file under `prefix`, a few at a time, reading each from the source as it goes; one
 * file's bytes are in memory per worker (a file is at most Storage's per-object limit, else refused).
 * Returns the names stored; on failure removes what it stored and rethrows.
 */
export async function unpackToStorage(config: Config, source: ZipSource, pkg: CheckedPackage, prefix: string): Promise<string[]> {
  const stored: string[] = [];
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
  return stored;
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
