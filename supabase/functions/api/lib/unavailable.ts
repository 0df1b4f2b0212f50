// The database is out of reach (stopped, restarting, network gone): the request could not be
// served, and nothing about it was the caller's fault. Answered as 503 with a message a person can
// act on, never as a 500 with a driver's error text. postgres.js reconnects by itself on the next
// query once the database is back, so nothing here needs resetting.

/** Codes postgres.js and the socket layer use when the connection itself failed. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
]);

/** SQLSTATEs a server sends when it cannot serve anyone right now (class 08, 53300, 57P01-57P03). */
const UNAVAILABLE_STATES = /^(08...|53300|57P0[1-3])$/;

export const DATABASE_UNAVAILABLE = 'The service is temporarily unavailable. Please try again in a moment.';

/** Seconds a client is asked to wait before retrying. */
export const RETRY_AFTER_SECONDS = 5;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    // Deno's own network errors (when the socket layer is not Node's) carry the kind in the name.
    const name = (e as { name?: unknown }).name;
    if (name === 'ConnectionRefused' || name === 'ConnectionReset' || name === 'ConnectionAborted') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
