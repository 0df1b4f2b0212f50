// POST /api/login -> { user, session }; the session is handed to supabase-js, the user cached.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthSession, User } from '@shared/domain.ts';
import type { LoginInput } from '@shared/schemas.ts';
import { api } from '@/lib/api-client';
import { loadSupabase } from '@/lib/supabase';
import { userKeys } from '@/lib/query-keys';

export interface AuthAnswer {
  user: User;
  session: AuthSession;
  /** This browser's known-device token (sign-in only). */
  device?: string;
}

/** Where the browser keeps its known-device token: its own failed sign-ins are then counted apart,
 * so nobody guessing at the account elsewhere can lock its owner out here. */
const DEVICE_KEY = 'esl-sign-in-device';

function storedDevice(): string | undefined {
  try {
    return localStorage.getItem(DEVICE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export async function login(input: LoginInput): Promise<AuthAnswer> {
  const device = storedDevice();
  const answer = await api.post<AuthAnswer>('/login', device ? { ...input, device } : input);
  const { error } = await (await loadSupabase()).auth.setSession(answer.session);
  if (error) throw error;
  try {
    if (answer.device) localStorage.setItem(DEVICE_KEY, answer.device);
  } catch {
    // Storage refused (private mode): the sign-in still works, only without the exemption.
  }
  return answer;
}

export function useLogin(options: { onSuccess?: (user: User) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => {
      void userKeys.signedIn(queryClient);
      queryClient.setQueryData(userKeys.current, user);
      options.onSuccess?.(user);
    },
    onError: options.onError,
  });
}
