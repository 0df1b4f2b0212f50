// An organisation's sign-in through its own identity provider: GET/PUT /api/organisations/:id/sign-in
// (its domains, settings and latest test sign-ins), POST …/sign-in/switch (on, and whether its
// people may still use a password), POST/DELETE /api/organisations/:id/domains (national
// administrators). Every write answers the whole sign-in again, which replaces the cached one.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrganisationSignIn, SignInSettingsInput, SignInSwitchInput } from '@shared/sign-in.ts';
import { api } from '@/lib/api-client';
import { organisationKeys } from '@/lib/query-keys';

export const useOrganisationSignIn = (organisationId: string) =>
  useQuery({
    queryKey: organisationKeys.signIn(organisationId),
    queryFn: () => api.get<OrganisationSignIn>(`/organisations/${organisationId}/sign-in`),
  });

function useSignInWrite<T>(organisationId: string, write: (input: T) => Promise<OrganisationSignIn>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (answer) => queryClient.setQueryData(organisationKeys.signIn(organisationId), answer),
  });
}

export const useSaveSignInSettings = (organisationId: string) =>
  useSignInWrite(organisationId, (input: SignInSettingsInput) =>
    api.put<OrganisationSignIn>(`/organisations/${organisationId}/sign-in`, input));

export const useSwitchSignIn = (organisationId: string) =>
  useSignInWrite(organisationId, (input: SignInSwitchInput) =>
    api.post<OrganisationSignIn>(`/organisations/${organisationId}/sign-in/switch`, input));

export const useAddDomain = (organisationId: string) =>
  useSignInWrite(organisationId, (domain: string) =>
    api.post<OrganisationSignIn>(`/organisations/${organisationId}/domains`, { domain }));

export const useRemoveDomain = (organisationId: string) =>
  useSignInWrite(organisationId, (domain: string) =>
    api.delete<OrganisationSignIn>(`/organisations/${organisationId}/domains/${encodeURIComponent(domain)}`));
