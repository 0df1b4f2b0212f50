// "Forgot password?" through Supabase Auth's recovery flow: supabase-js asks Auth to email
// a link (POST /recover); the link signs the person in and lands on /auth/reset with the session in
// the URL fragment (the app's client does not read it itself: detectSessionInUrl is off), and
// PUT /api/profile/password/recovery sets the new password from that session.
import { useMutation } from '@tanstack/react-query';
import type { PasswordRecoveryInput } from '@shared/profile.ts';
import { api } from '@/lib/api-client';
import { loadSupabase } from '@/lib/supabase';

/** Where the emailed link leads (Auth allows only the site's own origin). */
export const RESET_PATH = '/auth/reset';

/** Asks Auth to email a reset link. Auth answers alike whether or not the address has an account. */
export async function requestPasswordReset(email: string): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: `${window.location.origin}${RESET_PATH}` });
  if (error) throw error;
}

/** What the link put in the URL fragment: a recovery session, Auth's error, or nothing. */
export type RecoveryFragment =
  | { kind: 'session'; accessToken: string; refreshToken: string }
  | { kind: 'error'; description: string }
  | { kind: 'none' };

export function readRecoveryFragment(hash: string): RecoveryFragment {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (params.get('error') || params.get('error_code')) {
    return { kind: 'error', description: params.get('error_description') ?? 'Email link is invalid or has expired' };
  }
  const accessToken = params.get('access_token');
  const refreshToken = params.get('refresh_token');
  if (params.get('type') === 'recovery' && accessToken && refreshToken) return { kind: 'session', accessToken, refreshToken };
  return { kind: 'none' };
}

/** Keeps the link's session as the app keeps any other (as a sign-in through /api/login does). */
export async function startRecoverySession(fragment: Extract<RecoveryFragment, { kind: 'session' }>): Promise<void> {
  const supabase = await loadSupabase();
  const { error } = await supabase.auth.setSession({ access_token: fragment.accessToken, refresh_token: fragment.refreshToken });
  if (error) throw error;
}

export function useRequestPasswordReset(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  return useMutation({ mutationFn: requestPasswordReset, onSuccess: options.onSuccess, onError: options.onError });
}

export function useSetRecoveredPassword(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  return useMutation({
    mutationFn: (input: PasswordRecoveryInput) => api.put<void>('/profile/password/recovery', input),
    onSuccess: options.onSuccess,
    onError: options.onError,
  });
}
