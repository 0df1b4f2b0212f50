// The session read without supabase-js: the same storage key supabase-js writes, the stored access
// token while it is fresh, the anon key for a visitor.
import { afterEach, describe, expect, it } from 'vitest';
import { accessToken, loadSupabase, readStoredSession, sessionStorageKey, storedUserId, supabaseAnonKey } from './supabase';

afterEach(() => window.localStorage.clear());

function store(expiresInSeconds: number) {
  const session = {
    access_token: 'stored-access-token',
    refresh_token: 'stored-refresh-token',
    token_type: 'bearer',
    expires_in: expiresInSeconds,
    expires_at: Math.floor(Date.now() / 1000) + expiresInSeconds,
    user: { id: '00000000-0000-4000-8000-000000000001' },
  };
  window.localStorage.setItem(sessionStorageKey, JSON.stringify(session));
}

describe('stored session', () => {
  it('uses the storage key supabase-js uses', async () => {
    const supabase = await loadSupabase();
    expect((supabase.auth as unknown as { storageKey: string }).storageKey).toBe(sessionStorageKey);
  });

  it('gives a visitor the anon key', async () => {
    expect(readStoredSession()).toBeNull();
    expect(storedUserId()).toBeNull();
    expect(await accessToken()).toBe(supabaseAnonKey);
  });

  it('reads a fresh access token and the user id from storage', async () => {
    store(3600);
    expect(storedUserId()).toBe('00000000-0000-4000-8000-000000000001');
    expect(await accessToken()).toBe('stored-access-token');
  });

  it('ignores storage it cannot read', async () => {
    window.localStorage.setItem(sessionStorageKey, '{not json');
    expect(readStoredSession()).toBeNull();
    expect(await accessToken()).toBe(supabaseAnonKey);
  });
});
