// A SCORM package's zip, read by offset and checked before anything is stored: every refusal is
// decided from the central directory (paths, links, encryption, counts, sizes, ratios), and the
// inflated bytes are counted as they stream, so a lying header stops at the limit (docs/SECURITY.md).
import { Inflate } from 'fflate';
import { ApiError } from '../errors.ts';

/** Limits on what a package unpacks to (docs/SECURITY.md). */
export const MAX_FILES = 10_000;
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** Deflate cannot do better than about 1:1032; beyond 1:200 on a file over 1 MiB is a bomb, not a course. */
export const MAX_RATIO = 200;
const RATIO_FLOOR = 1024 * 1024;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** A refusal of the package, with the message on its field too. */
export const refuse = (status: 413 | 415 | 422, message: string) => new ApiError(status, message, { package: message });
export const REEXPORT = 'export it again as SCORM 1.2 or 2004';
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
export function safePath(raw: string): string {
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
export async function entryBytes(source: ZipSource, entry: ZipEntry): Promise<Uint8Array> {
  const out = new Uint8Array(entry.size);
  let at = 0;
  await inflateEntry(source, entry, (chunk) => {
    out.set(chunk, at);
    at += chunk.length;
  });
  return out;
}
