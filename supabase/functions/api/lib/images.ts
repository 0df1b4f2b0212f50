// Image uploads (DESIGN.md §4): read a multipart body under a size cap, decide the type by the
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
  return { bytes, type };
}

export function publicUrl(config: Config, bucket: Bucket, name: string): string {
  return `${config.supabaseUrl}/storage/v1/object/public/${bucket}/${name}`;
}

/** The object name inside `bucket` of one of our public URLs, or null for anything else. */
export function objectName(config: Config, bucket: Bucket, url: string | null | undefined): string | null {
  if (!url) return null;
  const prefix = publicUrl(config, bucket, '');
  if (!url.startsWith(prefix)) return null;
  const name = url.slice(prefix.length);
  return /^[A-Za-z0-9._/-]+$/.test(name) && !name.includes('..') ? name : null;
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
