// POST /api/login -> { user, session }; the session is handed to supabase-js, the user cached.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthSession, User } from '@shared/domain.ts';
import type { LoginInput } from '@shared/schemas.ts';
import { api } from '@/lib/api-client';
import { loadSupabase } from '@/lib/supabase';
import { userQueryOptions } from './get-user';

export interface AuthAnswer {
  user: User;
  session: AuthSession;
}

export async function login(input: LoginInput): Promise<AuthAnswer> {
  const answer = await api.post<AuthAnswer>('/login', input);
  const { error } = await (await loadSupabase()).auth.setSession(answer.session);
  if (error) throw error;
  return answer;
}

export function useLogin(options: { onSuccess?: (user: User) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => {
      queryClient.setQueryData(userQueryOptions().queryKey, user);
      options.onSuccess?.(user);
    },
    onError: options.onError,
  });
}
