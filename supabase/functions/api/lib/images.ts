// Image uploads: read a multipart body under a size cap, decide the type by the
// file's first bytes (never its name or declared type), and store it in a public bucket under a
// generated name with the service role. Callers check the user's right under RLS first.
import type { Context } from 'hono';
import { MAX_IMAGE_BYTES, MESSAGES } from '../../_shared/authoring.ts';
import type { Config } from './config.ts';
import { readBytes } from './body.ts';
import { ApiError } from './errors.ts';

export type Bucket = 'course-covers' | 'module-images';

export interface ImageType {
  mime: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
  ext: 'png' | 'jpg' | 'webp' | 'gif';
}

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

/** The image type by magic bytes: PNG, JPEG, WebP or GIF; null for anything else. */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return { mime: 'image/gif', ext: 'gif' };
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return { mime: 'image/webp', ext: 'webp' };
  return null;
}

const endsWith = (bytes: Uint8Array, suffix: number[]) => startsWith(bytes, suffix, bytes.length - suffix.length);

/** Whether the file is whole: a truncated upload (cut off mid-transfer, or only a signature) is refused. */
export function isComplete(bytes: Uint8Array, type: ImageType): boolean {
  switch (type.ext) {
    case 'png':
      // The IHDR chunk first, the IEND chunk (with its fixed CRC) last.
      return bytes.length >= 8 + 25 + 12 && startsWith(bytes, ascii('IHDR'), 12) &&
        endsWith(bytes, [...ascii('IEND'), 0xae, 0x42, 0x60, 0x82]);
    case 'jpg': {
      // The end-of-image marker, allowing for a little padding some encoders add after it.
      const tail = bytes.subarray(Math.max(0, bytes.length - 64));
      return bytes.length > 4 && tail.some((b, i) => b === 0xff && tail[i + 1] === 0xd9);
    }
    case 'gif':
      return bytes.length > 13 && bytes[bytes.length - 1] === 0x3b;
    case 'webp': {
      const size = (bytes[4] | (bytes[5] << 8) | (bytes[6] << 16) | (bytes[7] << 24)) >>> 0;
      return bytes.length >= 16 && size + 8 <= bytes.length;
    }
  }
}

/** The largest picture we accept: 40 megapixels, 10,000 pixels a side. A small file can declare a
 * huge canvas (a decompression bomb) that would exhaust the memory of every browser showing it. */
export const MAX_IMAGE_SIDE = 10_000;
export const MAX_IMAGE_PIXELS = 40_000_000;

const be16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const be32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
const le16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const le24 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);

/** Width and height as the file declares them, or null when the header cannot be read. */
export function imageDimensions(bytes: Uint8Array, type: ImageType): { width: number; height: number } | null {
  switch (type.ext) {
    case 'png':
      return bytes.length >= 24 ? { width: be32(bytes, 16), height: be32(bytes, 20) } : null;
    case 'gif':
      return bytes.length >= 10 ? { width: le16(bytes, 6), height: le16(bytes, 8) } : null;
    case 'webp': {
      const chunk = String.fromCharCode(...bytes.subarray(12, 16));
      if (chunk === 'VP8X' && bytes.length >= 30) return { width: le24(bytes, 24) + 1, height: le24(bytes, 27) + 1 };
      if (chunk === 'VP8L' && bytes.length >= 25) {
        const bits = (bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24)) >>> 0;
        return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
      }
      if (chunk === 'VP8 ' && bytes.length >= 30) return { width: le16(bytes, 26) & 0x3fff, height: le16(bytes, 28) & 0x3fff };
      return null;
    }
    case 'jpg': {
      // Walk the segments to the first start-of-frame marker (SOF0-SOF15 except DHT, JPG and DAC).
      let at = 2;
      while (at + 9 < bytes.length) {
        if (bytes[at] !== 0xff) return null;
        const marker = bytes[at + 1];
        if (marker === 0xff) {
          at += 1;
          continue;
        }
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { width: be16(bytes, at + 7), height: be16(bytes, at + 5) };
        }
        at += 2 + be16(bytes, at + 2);
      }
      return null;
    }
  }
}

export interface UploadedImage {
  bytes: Uint8Array<ArrayBuffer>;
  type: ImageType;
}

/** Multipart framing on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** Reads the one image of a multipart body from `field`: 415 not multipart or not an image, 413 too large, 400 missing. */
export async function readImage(c: Context, field: string): Promise<UploadedImage> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new ApiError(415, 'Send the image as multipart/form-data', { [field]: MESSAGES.imageType });
  }
  let raw: Uint8Array;
  try {
    raw = await readBytes(c.req.raw, MAX_IMAGE_BYTES + MULTIPART_OVERHEAD);
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) {
      throw new ApiError(413, MESSAGES.imageTooLarge, { [field]: MESSAGES.imageTooLarge });
    }
    throw error;
  }
  let form: FormData;
  try {
    form = await new Response(raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new ApiError(400, 'Invalid multipart body');
  }
  const file = form.get(field);
  if (!(file instanceof File) || file.size === 0) {
    throw new ApiError(400, 'Validation failed', { [field]: 'Choose an image to upload' });
  }
  if (file.size > MAX_IMAGE_BYTES) throw new ApiError(413, MESSAGES.imageTooLarge, { [field]: MESSAGES.imageTooLarge });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffImage(bytes);
  if (!type) throw new ApiError(415, MESSAGES.imageType, { [field]: MESSAGES.imageType });
  if (!isComplete(bytes, type)) {
    throw new ApiError(400, 'The image file is incomplete or damaged', { [field]: 'The image file is incomplete or damaged' });
  }
  const size = imageDimensions(bytes, type);
  if (!size || size.width < 1 || size.height < 1) {
    throw new ApiError(400, 'The image file is incomplete or damaged', { [field]: 'The image file is incomplete or damaged' });
  }
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE || size.width * size.height > MAX_IMAGE_PIXELS) {
    const message = 'Images must be at most 10,000 pixels a side and 40 megapixels';
    throw new ApiError(413, message, { [field]: message });
  }
  return { bytes, type };
}

export function publicUrl(config: Config, bucket: Bucket, name: string): string {
  return `${config.supabaseUrl}/storage/v1/object/public/${bucket}/${name}`;
}

/**
 * The object name inside `bucket` of one of our public URLs, when it lies in the course's own folder
 * (`<courseId>/<file>`); null for anything else. The function deletes objects with the service role,
 * so it deletes only what the column it replaces names, and only inside that course's folder.
 */
export function objectName(config: Config, bucket: Bucket, courseId: string, url: string | null | undefined): string | null {
  if (!url) return null;
  const prefix = publicUrl(config, bucket, `${courseId}/`);
  if (!url.startsWith(prefix)) return null;
  const file = url.slice(prefix.length);
  return /^[A-Za-z0-9-]+\.(png|jpg|webp|gif)$/.test(file) ? `${courseId}/${file}` : null;
}

function serviceHeaders(config: Config): Record<string, string> {
  return { authorization: `Bearer ${config.serviceRoleKey}`, apikey: config.serviceRoleKey };
}

/** Stores the image under `<folder>/<random uuid>.<ext>` and returns its public URL. */
export async function storeImage(config: Config, bucket: Bucket, folder: string, image: UploadedImage): Promise<{ name: string; url: string }> {
  const name = `${folder}/${crypto.randomUUID()}.${image.type.ext}`;
  const response = await fetch(`${config.supabaseUrl}/storage/v1/object/${bucket}/${name}`, {
    method: 'POST',
    headers: { ...serviceHeaders(config), 'content-type': image.type.mime, 'cache-control': 'max-age=31536000', 'x-upsert': 'false' },
    body: image.bytes,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Storage upload to ${bucket} failed with ${response.status}: ${text.slice(0, 200)}`);
  return { name, url: publicUrl(config, bucket, name) };
}

/** Removes objects; a failure is logged, not raised: the row change it follows has already happened. */
export async function removeImages(config: Config, bucket: Bucket, names: (string | null)[]): Promise<void> {
  const prefixes = names.filter((n): n is string => !!n);
  if (prefixes.length === 0) return;
  try {
    const response = await fetch(`${config.supabaseUrl}/storage/v1/object/${bucket}`, {
      method: 'DELETE',
      headers: { ...serviceHeaders(config), 'content-type': 'application/json' },
      body: JSON.stringify({ prefixes }),
    });
    await response.body?.cancel();
    if (!response.ok) console.error(`Storage remove from ${bucket} failed with ${response.status}`);
  } catch (error) {
    console.error(`Storage remove from ${bucket} failed:`, error);
  }
}
