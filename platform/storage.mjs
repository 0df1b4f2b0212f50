// The local Storage service: the subset of the Supabase Storage REST API that storage-js uses,
// over storage.buckets / storage.objects (platform/bootstrap.sql). Paths are relative to
// /storage/v1 (the gateway strips the prefix; a request still carrying it is accepted too).
//
// Bytes are kept under <dataDir>/storage/<bucket>/<object name>. Writes and deletes by anything but
// the service role run inside a transaction as the caller's database role (anon or authenticated)
// with request.jwt.claims set, so the storage.objects row-level security policies decide, as on
// Supabase.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { jwtVerify } from 'jose';
import { bearer, json } from './http.mjs';

const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;
const DEFAULT_CACHE_CONTROL = 'max-age=3600';

/** Thrown inside handlers to answer with a prepared response. */
class HttpError extends Error {
  /** @param {Response} response */
  constructor(response) {
    super('http error');
    this.response = response;
  }
}

/**
 * Supabase Storage's error body: `{ statusCode, error, message }` (statusCode a string).
 * @param {number} httpStatus
 * @param {string} statusCode
 * @param {string} error
 * @param {string} message
 */
function storageError(httpStatus, statusCode, error, message) {
  return json(httpStatus, { statusCode, error, message });
}

const notFound = () => storageError(404, '404', 'not_found', 'Object not found');
const bucketNotFound = () => storageError(404, '404', 'Bucket not found', 'Bucket not found');
const unauthorized = (message = 'new row violates row-level security policy') =>
  storageError(403, '403', 'Unauthorized', message);

/**
 * @typedef {object} StorageOptions
 * @property {import('postgres').Sql} sql postgres.js client connected as the superuser
 * @property {import('./keys.mjs').Keys} keys signing keys (to verify callers' JWTs)
 * @property {string} dataDir the platform's data directory (objects under <dataDir>/storage)
 * @property {string} publicUrl the platform's public base URL
 */

/**
 * Creates the Storage service.
 * @param {StorageOptions} options
 * @returns {{ fetch(request: Request): Promise<Response> }}
 */
export function createStorage({ sql, keys, dataDir, publicUrl }) {
  const root = resolve(dataDir, 'storage');
  void publicUrl;

  /**
   * The file holding an object's bytes; refuses names that would leave the bucket's folder.
   * @param {string} bucket
   * @param {string} name
   */
  function filePath(bucket, name) {
    const parts = [bucket, ...name.split('/')];
    for (const part of parts) {
      if (!part || part === '.' || part === '..' || part.includes('\\') || part.includes('\0')) {
        throw new HttpError(storageError(400, '400', 'InvalidKey', `Invalid key: ${name}`));
      }
    }
    const full = resolve(root, ...parts);
    if (!full.startsWith(root + sep)) throw new HttpError(storageError(400, '400', 'InvalidKey', `Invalid key: ${name}`));
    return full;
  }

  /**
   * The caller's verified claims: service role, anon, or a signed-in user whose session exists.
   * @param {Request} request
   * @returns {Promise<Record<string, any>>}
   */
  async function caller(request) {
    const token = bearer(request) ?? request.headers.get('apikey');
    if (!token) throw new HttpError(storageError(400, '400', 'Error', 'headers must have required property \'authorization\''));
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys.publicKey, { algorithms: ['ES256'] }));
    } catch {
      throw new HttpError(storageError(400, '403', 'Unauthorized', 'Invalid JWT'));
    }
    if (!['anon', 'authenticated', 'service_role'].includes(String(payload.role))) {
      throw new HttpError(storageError(400, '403', 'Unauthorized', 'Invalid JWT'));
    }
    if (payload.role === 'authenticated') {
      const sessionId = String(payload.session_id ?? '');
      const [session] = /^[0-9a-f-]{36}$/i.test(sessionId)
        ? await sql`select id from auth.sessions where id = ${sessionId} and user_id::text = ${String(payload.sub)}`
        : [];
      if (!session) throw new HttpError(storageError(400, '403', 'Unauthorized', 'Invalid JWT'));
    }
    return payload;
  }

  /**
   * Runs fn in a transaction; for anything but the service role, as the caller's database role
   * with its claims, so row-level security applies.
   * @template T
   * @param {Record<string, any>} claims
   * @param {(tx: import('postgres').TransactionSql) => Promise<T>} fn
   * @returns {Promise<T>}
   */
  async function asCaller(claims, fn) {
    try {
      return /** @type {T} */ (
        await sql.begin(async (tx) => {
          if (claims.role !== 'service_role') {
            await tx`select set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
            if (claims.role === 'authenticated') await tx`set local role authenticated`;
            else await tx`set local role anon`;
          }
          return fn(tx);
        })
      );
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const code = /** @type {any} */ (error)?.code;
      if (code === '42501') throw new HttpError(unauthorized());
      throw error;
    }
  }

  /** @param {string} id @param {any} [db] */
  async function findBucket(id, db = sql) {
    const [bucket] = await db`select * from storage.buckets where id = ${id}`;
    return bucket ?? null;
  }

  // ---------------------------------------------------------------- upload

  /**
   * @param {Request} request
   * @param {string} bucketId
   * @param {string} name
   * @param {boolean} upsert
   */
  async function upload(request, bucketId, name, upsert) {
    const claims = await caller(request);
    const file = filePath(bucketId, name);
    const bucket = await findBucket(bucketId);
    if (!bucket) return bucketNotFound();

    const { bytes, contentType, cacheControl, userMetadata } = await readUpload(request);
    const limit = Math.min(Number(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT) || GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT);
    if (bytes.byteLength > limit) {
      return storageError(413, '413', 'Payload too large', 'The object exceeded the maximum allowed size');
    }
    if (!mimeAllowed(contentType, bucket.allowed_mime_types)) {
      return storageError(415, '415', 'invalid_mime_type', `mime type ${contentType} is not supported`);
    }
    // An upload that claims to be an image must be one: HTML or SVG labelled image/png is refused.
    if (/^image\//i.test(contentType) && sniffImageType(bytes) !== contentType.toLowerCase().replace('image/jpg', 'image/jpeg')) {
      return storageError(415, '415', 'invalid_mime_type', `The file's content is not ${contentType}`);
    }

    const eTag = `"${createHash('md5').update(bytes).digest('hex')}"`;
    const metadata = {
      eTag,
      size: bytes.byteLength,
      mimetype: contentType,
      cacheControl,
      lastModified: new Date().toISOString(),
      contentLength: bytes.byteLength,
      httpStatusCode: 200,
    };
    const owner = claims.role === 'authenticated' && typeof claims.sub === 'string' ? claims.sub : null;

    const temp = `${file}.${randomBytes(6).toString('hex')}.upload`;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(temp, bytes);
    try {
      // The superuser's view decides "duplicate" (the row may be invisible to the caller); a race
      // between two uploads is caught by the unique index.
      const [present] = await sql`select id from storage.objects where bucket_id = ${bucketId} and name = ${name}`;
      if (present && !upsert) {
        throw new HttpError(storageError(400, '409', 'Duplicate', 'The resource already exists'));
      }
      const id = await asCaller(claims, async (tx) => {
        if (present) {
          const result = await tx`
            update storage.objects
            set metadata = ${sql.json(metadata)}::jsonb, user_metadata = ${userMetadata === null ? null : sql.json(userMetadata)}::jsonb,
              updated_at = now(), last_accessed_at = now(), version = ${randomUUID()},
              owner = coalesce(${owner}::uuid, owner), owner_id = coalesce(${owner}, owner_id)
            where bucket_id = ${bucketId} and name = ${name}`;
          if (result.count === 0) throw new HttpError(unauthorized());
          return present.id;
        }
        const newId = randomUUID();
        await tx`
          insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata, version)
          values (${newId}, ${bucketId}, ${name}, ${owner}::uuid, ${owner}, ${sql.json(metadata)}::jsonb,
            ${userMetadata === null ? null : sql.json(userMetadata)}::jsonb, ${randomUUID()})`;
        return newId;
      });
      await rename(temp, file);
      return json(200, { Key: `${bucketId}/${name}`, Id: id });
    } catch (error) {
      await rm(temp, { force: true });
      if (error instanceof HttpError) throw error;
      if (/** @type {any} */ (error)?.code === '23505') {
        return storageError(400, '409', 'Duplicate', 'The resource already exists');
      }
      throw error;
    }
  }

  /**
   * The bytes, content type, cache control and user metadata of an upload: raw body or multipart.
   * @param {Request} request
   */
  async function readUpload(request) {
    const type = request.headers.get('content-type') ?? '';
    /** @type {Uint8Array} */
    let bytes;
    let contentType = type.split(';')[0].trim() || 'application/octet-stream';
    let cacheControl = normaliseCacheControl(request.headers.get('cache-control'));
    let userMetadata = decodeMetadataHeader(request.headers.get('x-metadata'));
    if (/^multipart\/form-data/i.test(type)) {
      let form;
      try {
        form = await request.formData();
      } catch {
        throw new HttpError(storageError(400, '400', 'InvalidRequest', 'Malformed multipart body'));
      }
      /** @type {Blob | null} */
      let part = null;
      for (const [, value] of form.entries()) {
        if (typeof value !== 'string') {
          part = value;
          break;
        }
      }
      if (!part) throw new HttpError(storageError(400, '400', 'InvalidRequest', 'No file in the multipart body'));
      bytes = new Uint8Array(await part.arrayBuffer());
      contentType = (part.type || 'application/octet-stream').split(';')[0].trim();
      const field = form.get('cacheControl');
      if (typeof field === 'string' && field) cacheControl = normaliseCacheControl(field);
      const metadataField = form.get('metadata');
      if (typeof metadataField === 'string') userMetadata = parseObject(metadataField);
    } else {
      bytes = new Uint8Array(await request.arrayBuffer());
    }
    return { bytes, contentType, cacheControl, userMetadata: userMetadata ?? null };
  }

  // ---------------------------------------------------------------- read

  /**
   * Serves an object's bytes with its stored content type, cache control and ETag.
   * @param {Request} request
   * @param {any} row
   * @param {string} bucketId
   * @param {string} name
   * @param {URL} url
   */
  async function serveObject(request, row, bucketId, name, url) {
    let bytes;
    try {
      bytes = await readFile(filePath(bucketId, name));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      return notFound();
    }
    const metadata = row.metadata ?? {};
    // The type comes from the stored bytes, not from what the upload claimed: an image is served
    // inline as the image it is; anything else as a download of an inert type, never as a page.
    const sniffed = sniffImageType(bytes);
    const stored = String(metadata.mimetype ?? '').toLowerCase();
    const contentType = sniffed ?? (INERT_TYPES.has(stored) ? stored : 'application/octet-stream');
    const download = url.searchParams.get('download');
    const filename = safeFilename(download || name.split('/').pop() || 'download');
    /** @type {Record<string, string>} */
    const headers = {
      'content-type': contentType,
      'cache-control': metadata.cacheControl ?? 'max-age=3600',
      etag: metadata.eTag ?? `"${createHash('md5').update(bytes).digest('hex')}"`,
      'last-modified': new Date(row.updated_at ?? Date.now()).toUTCString(),
      'content-length': String(bytes.byteLength),
      'accept-ranges': 'none',
      'content-disposition': `${sniffed && download === null ? 'inline' : 'attachment'}; filename="${filename}"`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    };
    const inm = request.headers.get('if-none-match');
    if (inm && inm.split(',').map((s) => s.trim()).includes(headers.etag)) {
      const { 'content-length': _, ...rest } = headers;
      return new Response(null, { status: 304, headers: rest });
    }
    return new Response(request.method === 'HEAD' ? null : bytes, { status: 200, headers });
  }

  /** @param {Request} request @param {string} bucketId @param {string} name @param {URL} url */
  async function getPublic(request, bucketId, name, url) {
    filePath(bucketId, name);
    const bucket = await findBucket(bucketId);
    if (!bucket || !bucket.public) return notFound();
    const [row] = await sql`select * from storage.objects where bucket_id = ${bucketId} and name = ${name}`;
    if (!row) return notFound();
    return serveObject(request, row, bucketId, name, url);
  }

  /** @param {Request} request @param {string} bucketId @param {string} name @param {URL} url */
  async function getAuthenticated(request, bucketId, name, url) {
    const claims = await caller(request);
    filePath(bucketId, name);
    const row = await asCaller(claims, async (tx) => {
      const [found] = await tx`select * from storage.objects where bucket_id = ${bucketId} and name = ${name}`;
      return found ?? null;
    });
    if (!row) return notFound();
    return serveObject(request, row, bucketId, name, url);
  }

  // ---------------------------------------------------------------- delete

  /** @param {Request} request @param {string} bucketId */
  async function removeMany(request, bucketId) {
    const claims = await caller(request);
    let body;
    try {
      body = await request.json();
    } catch {
      body = undefined;
    }
    const prefixes = body?.prefixes;
    if (!Array.isArray(prefixes) || prefixes.length === 0 || !prefixes.every((p) => typeof p === 'string')) {
      return storageError(400, '400', 'InvalidRequest', 'body must have required property \'prefixes\'');
    }
    if (!(await findBucket(bucketId))) return bucketNotFound();
    const names = prefixes.map((p) => p.replace(/^\/+/, ''));
    const deleted = await asCaller(claims, async (tx) => {
      const rows = await tx`
        delete from storage.objects where bucket_id = ${bucketId} and name = any(${names}::text[])
        returning *`;
      return rows;
    });
    for (const row of deleted) await rm(filePath(bucketId, row.name), { force: true }).catch(() => {});
    return json(200, deleted.map(fileObject));
  }

  /** @param {Request} request @param {string} bucketId @param {string} name */
  async function removeOne(request, bucketId, name) {
    const claims = await caller(request);
    const file = filePath(bucketId, name);
    const deleted = await asCaller(claims, async (tx) => {
      return tx`delete from storage.objects where bucket_id = ${bucketId} and name = ${name} returning id`;
    });
    if (deleted.length === 0) return notFound();
    await rm(file, { force: true });
    return json(200, { message: 'Successfully deleted' });
  }

  // ---------------------------------------------------------------- list

  /** @param {Request} request @param {string} bucketId */
  async function list(request, bucketId) {
    const claims = await caller(request);
    let body;
    try {
      body = await request.json();
    } catch {
      body = {};
    }
    const prefix = typeof body?.prefix === 'string' ? body.prefix.replace(/^\/+|\/+$/g, '') : '';
    const limit = Math.min(1000, Math.max(1, Number(body?.limit) || 100));
    const offset = Math.max(0, Number(body?.offset) || 0);
    const search = typeof body?.search === 'string' ? body.search : '';
    const rows = await asCaller(claims, (tx) => tx`
      select * from storage.objects
      where bucket_id = ${bucketId} and name like ${prefix ? `${escapeLike(prefix)}/%` : '%'}
      order by name`);
    const depth = prefix ? prefix.split('/').length : 0;
    /** @type {Map<string, any>} */
    const entries = new Map();
    for (const row of rows) {
      const parts = row.name.split('/');
      const entryName = parts[depth];
      if (search && !entryName.includes(search)) continue;
      if (parts.length > depth + 1) {
        if (!entries.has(entryName)) {
          entries.set(entryName, { name: entryName, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null });
        }
      } else {
        entries.set(entryName, { ...fileObject(row), name: entryName });
      }
    }
    return json(200, [...entries.values()].slice(offset, offset + limit));
  }

  // ---------------------------------------------------------------- buckets

  /** @param {any} row */
  function bucketJson(row) {
    return {
      id: row.id,
      name: row.name,
      owner: row.owner ?? '',
      public: row.public ?? false,
      file_size_limit: row.file_size_limit === null || row.file_size_limit === undefined ? null : Number(row.file_size_limit),
      allowed_mime_types: row.allowed_mime_types ?? null,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }

  /** @param {Request} request */
  async function listBuckets(request) {
    const claims = await caller(request);
    const rows = await asCaller(claims, (tx) => tx`select * from storage.buckets order by name`);
    return json(200, rows.map(bucketJson));
  }

  /** @param {Request} request @param {string} id */
  async function getBucket(request, id) {
    const claims = await caller(request);
    const [row] = await asCaller(claims, (tx) => tx`select * from storage.buckets where id = ${id}`);
    if (!row) return bucketNotFound();
    return json(200, bucketJson(row));
  }

  /** @param {Request} request */
  async function createBucket(request) {
    const claims = await caller(request);
    let body;
    try {
      body = await request.json();
    } catch {
      body = undefined;
    }
    const id = typeof body?.id === 'string' && body.id ? body.id : typeof body?.name === 'string' ? body.name : '';
    if (!/^[A-Za-z0-9_.-]+$/.test(id) || id === '.' || id === '..') {
      return storageError(400, '400', 'Invalid Input', 'Bucket name invalid');
    }
    const limit = parseSize(body?.file_size_limit);
    if (limit === undefined) return storageError(400, '400', 'Invalid Input', 'file_size_limit is invalid');
    const mimeTypes = Array.isArray(body?.allowed_mime_types) ? body.allowed_mime_types.map(String) : null;
    try {
      await asCaller(claims, (tx) => tx`
        insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types, owner)
        values (${id}, ${typeof body?.name === 'string' && body.name ? body.name : id}, ${body?.public === true},
          ${limit}, ${mimeTypes}, ${claims.role === 'authenticated' ? claims.sub : null}::uuid)`);
    } catch (error) {
      if (/** @type {any} */ (error)?.code === '23505') return storageError(400, '409', 'Duplicate', 'The resource already exists');
      throw error;
    }
    return json(200, { name: id });
  }

  // ---------------------------------------------------------------- router

  /** @param {Request} request */
  async function route(request) {
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/storage\/v1(?=\/|$)/, '');
    const method = request.method;
    if (method === 'OPTIONS') return new Response(null, { status: 204 });
    let segments;
    try {
      segments = path.split('/').filter((s, i) => i > 0).map((s) => decodeURIComponent(s));
    } catch {
      return storageError(400, '400', 'InvalidKey', 'Invalid key');
    }
    const [head, ...rest] = segments;
    if (path === '/status' || path === '/health') return json(200, { status: 'ok' });

    if (head === 'bucket') {
      if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) {
        if (method === 'GET') return listBuckets(request);
        if (method === 'POST') return createBucket(request);
      } else if (rest.length === 1 && method === 'GET') {
        return getBucket(request, rest[0]);
      }
      return storageError(404, '404', 'not_found', 'Route not found');
    }

    if (head === 'object') {
      if (rest[0] === 'public' && (method === 'GET' || method === 'HEAD') && rest.length >= 3) {
        return getPublic(request, rest[1], rest.slice(2).join('/'), url);
      }
      if (rest[0] === 'authenticated' && (method === 'GET' || method === 'HEAD') && rest.length >= 3) {
        return getAuthenticated(request, rest[1], rest.slice(2).join('/'), url);
      }
      if (rest[0] === 'list' && method === 'POST' && rest.length === 2) return list(request, rest[1]);
      if (rest.length === 1 && method === 'DELETE') return removeMany(request, rest[0]);
      if (rest.length >= 2) {
        const bucketId = rest[0];
        const name = rest.slice(1).join('/');
        if (method === 'POST') return upload(request, bucketId, name, request.headers.get('x-upsert') === 'true');
        if (method === 'PUT') return upload(request, bucketId, name, true);
        if (method === 'GET' || method === 'HEAD') return getAuthenticated(request, bucketId, name, url);
        if (method === 'DELETE') return removeOne(request, bucketId, name);
      }
    }
    return storageError(404, '404', 'not_found', 'Route not found');
  }

  return {
    async fetch(request) {
      try {
        return await route(request);
      } catch (error) {
        if (error instanceof HttpError) return error.response;
        console.error('[storage]', error);
        return storageError(500, '500', 'Internal', 'Internal Server Error');
      }
    },
  };
}

// ---------------------------------------------------------------- helpers

/** @param {any} row */
function fileObject(row) {
  return {
    name: row.name,
    bucket_id: row.bucket_id,
    owner: row.owner ?? '',
    id: row.id,
    updated_at: iso(row.updated_at),
    created_at: iso(row.created_at),
    last_accessed_at: iso(row.last_accessed_at),
    metadata: row.metadata ?? {},
  };
}

/** Non-image types that browsers show as data, never run: served as stored (still as downloads). */
const INERT_TYPES = new Set(['text/plain', 'text/csv', 'application/pdf', 'application/json', 'application/octet-stream', 'application/zip']);

/**
 * The image type of the bytes by their magic number (PNG, JPEG, GIF, WebP, AVIF), or null.
 * @param {Uint8Array} bytes
 * @returns {string | null}
 */
export function sniffImageType(bytes) {
  const starts = (/** @type {number[]} */ signature, offset = 0) =>
    bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
  const ascii = (/** @type {string} */ text) => [...text].map((ch) => ch.charCodeAt(0));
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(ascii('GIF87a')) || starts(ascii('GIF89a'))) return 'image/gif';
  if (starts(ascii('RIFF')) && starts(ascii('WEBP'), 8)) return 'image/webp';
  if (starts(ascii('ftyp'), 4) && (starts(ascii('avif'), 8) || starts(ascii('avis'), 8))) return 'image/avif';
  return null;
}

/** A file name safe inside a quoted Content-Disposition: letters, digits, dot, dash, underscore. */
function safeFilename(name) {
  const cleaned = String(name).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 100);
  return cleaned || 'download';
}

/** @param {unknown} value */
function iso(value) {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * storage-js sends "max-age=3600" as a header or "3600" as a form field; stored as "max-age=N".
 * @param {string | null} value
 */
function normaliseCacheControl(value) {
  if (!value) return DEFAULT_CACHE_CONTROL;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return `max-age=${trimmed}`;
  return /^[\x20-\x7e]+$/.test(trimmed) ? trimmed : DEFAULT_CACHE_CONTROL;
}

/**
 * Whether a content type matches a bucket's allowed types (null/empty: any; "image/*" wildcards).
 * @param {string} contentType
 * @param {string[] | null} allowed
 */
function mimeAllowed(contentType, allowed) {
  if (!allowed || allowed.length === 0) return true;
  const type = contentType.toLowerCase();
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase().split(';')[0].trim();
    if (p === '*/*' || p === '*') return true;
    if (p.endsWith('/*')) return type.startsWith(p.slice(0, -1));
    return type === p;
  });
}

/** @param {string | null} header base64 JSON from storage-js */
function decodeMetadataHeader(header) {
  if (!header) return null;
  try {
    return parseObject(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    return null;
  }
}

/** @param {string} text */
function parseObject(text) {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** @param {string} text */
function escapeLike(text) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A bucket size limit: number of bytes, or "10MB"-style strings as storage-js allows; null for none.
 * @param {unknown} value
 * @returns {number | null | undefined} undefined when invalid
 */
function parseSize(value) {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? value : undefined;
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(String(value).trim());
  if (!match) return undefined;
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? 'b').toLowerCase()];
  return Number(match[1]) * /** @type {number} */ (unit);
}

