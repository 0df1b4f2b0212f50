// POST /api/register -> 201 { user, session }; signs the new user in like a login.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@shared/domain.ts';
import type { RegisterInput } from '@shared/schemas.ts';
import { api } from '@/lib/api-client';
import { currentLanguage } from '@/lib/i18n/i18n';
import { loadSupabase } from '@/lib/supabase';
import { userKeys } from '@/lib/query-keys';
import type { AuthAnswer } from './login';

export async function register(input: RegisterInput): Promise<AuthAnswer> {
  // The new profile speaks the language of the page the person registered on.
  const answer = await api.post<AuthAnswer>('/register', { ...input, language: input.language ?? currentLanguage() });
  const { error } = await (await loadSupabase()).auth.setSession(answer.session);
  if (error) throw error;
  return answer;
}

export function useRegister(options: { onSuccess?: (user: User) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: ({ user }) => {
      void userKeys.signedIn(queryClient);
      queryClient.setQueryData(userKeys.current, user);
      options.onSuccess?.(user);
    },
    onError: options.onError,
  });
}
