// The single API client for the api function (see docs/ARCHITECTURE.md): JSON in and out (a form or a
// file may go out as it is), the session's access token as bearer (else the anon key), and every
// non-2xx answer turned into an ApiError whose message is `<status>: <message>`, the form the toasts show,
// in the reader's language (lib/i18n/messages.ts).
import type { ApiErrorBody } from '@shared/domain.ts';
import { accessToken, supabaseAnonKey, supabaseUrl } from './supabase';
import { i18n } from './i18n/i18n';
import { loadMessages, translateFields, translateMessage } from './i18n/messages';

export const apiBaseUrl = `${supabaseUrl.replace(/\/+$/, '')}/functions/v1/api`;

export class ApiError extends Error {
  readonly status: number;
  readonly fields?: Record<string, string>;
  /** The server's own message, without the status prefix. */
  readonly serverMessage: string;
  /** Why the server refused, where it names a reason (an offline item no longer valid). */
  readonly reason?: string;

  constructor(status: number, serverMessage: string, fields?: Record<string, string>, reason?: string) {
    super(`${status}: ${serverMessage}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.fields = fields;
    this.reason = reason;
  }
}

/**
 * The server could not be reached (no connection): what needs the server says so, in the reader's
 * language; what the learner may do offline is queued instead (web/src/lib/offline/queue.ts).
 */
export class OfflineError extends ApiError {
  constructor() {
    super(0, i18n.t('offline.needsConnection', { ns: 'common' }));
    this.name = 'OfflineError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    apikey: supabaseAnonKey,
    Authorization: `Bearer ${await accessToken()}`,
  };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body instanceof Blob) {
    // A file sent as it is (a SCORM package): its own type, and a Content-Length the server checks first.
    headers['Content-Type'] = options.body.type || 'application/octet-stream';
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl}${path}`, { method, headers, body, signal: options.signal });
  } catch (error) {
    // fetch rejects with a TypeError when the network fails (an abort is a DOMException, passed on).
    if (error instanceof TypeError) throw new OfflineError();
    throw error;
  }
  const payload = await readBody(response);

  if (!response.ok) {
    const errorBody = (payload && typeof payload === 'object' ? payload : {}) as Partial<ApiErrorBody>;
    const message =
      errorBody.message || (typeof payload === 'string' && payload.trim()) || response.statusText || i18n.t('request.failed', { ns: 'common' });
    // In the reader's language (the API writes English): the messages catalogue loads with the first error.
    await loadMessages();
    const reason = typeof (payload as { reason?: unknown } | undefined)?.reason === 'string' ? (payload as { reason: string }).reason : undefined;
    throw new ApiError(response.status, translateMessage(message), translateFields(errorBody.fields), reason);
  }
  return payload as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

/**
 * The server's message for a toast description, without the status prefix. An ApiError's is already
 * in the reader's language; any other error's (Supabase Auth's, through supabase-js) is English,
 * given in the reader's language when the messages catalogue knows it.
 */
export function errorDescription(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage || fallback;
  if (error instanceof Error && error.message) return translateMessage(error.message);
  return fallback;
}
