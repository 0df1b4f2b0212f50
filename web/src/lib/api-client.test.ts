import { describe, expect, it } from 'vitest';
import { ApiError, apiBaseUrl, errorDescription } from './api-client';

describe('api client errors', () => {
  it('formats the message as <status>: <message> and keeps status and fields', () => {
    const error = new ApiError(409, 'Username already taken', { username: 'Username already taken' });
    expect(error.message).toBe('409: Username already taken');
    expect(error.status).toBe(409);
    expect(error.fields).toEqual({ username: 'Username already taken' });
    expect(errorDescription(error, 'fallback')).toBe('Username already taken');
  });

  it('falls back when there is no server message', () => {
    expect(errorDescription(new ApiError(500, ''), 'Please try again')).toBe('Please try again');
    expect(errorDescription('weird', 'Please try again')).toBe('Please try again');
  });

  it('calls the api function under the Supabase URL', () => {
    expect(apiBaseUrl).toBe(`${window.location.origin}/functions/v1/api`);
  });
});
