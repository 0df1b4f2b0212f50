// The fragment Auth's recovery link leaves on /auth/reset: a session, Auth's error, or nothing.
import { describe, expect, it } from 'vitest';
import { readRecoveryFragment } from './recovery';

describe('readRecoveryFragment', () => {
  it('reads a recovery session', () => {
    expect(readRecoveryFragment('#access_token=a.b.c&expires_at=1&expires_in=3600&refresh_token=r1&token_type=bearer&type=recovery'))
      .toEqual({ kind: 'session', accessToken: 'a.b.c', refreshToken: 'r1' });
  });

  it('reads Auth\'s error for a used or expired link', () => {
    expect(readRecoveryFragment('#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired'))
      .toEqual({ kind: 'error', description: 'Email link is invalid or has expired' });
  });

  it('takes nothing else for a recovery session', () => {
    expect(readRecoveryFragment('')).toEqual({ kind: 'none' });
    expect(readRecoveryFragment('#access_token=a&refresh_token=r&type=signup')).toEqual({ kind: 'none' });
    expect(readRecoveryFragment('#type=recovery&access_token=a')).toEqual({ kind: 'none' });
  });
});
