// GET /api/passport/:credentialId/credential.json: the signed credential as a file.
import { useMutation } from '@tanstack/react-query';
import { downloadFromApi } from '@/lib/download';

export function downloadCredentialJson(id: string): Promise<string> {
  return downloadFromApi(`/passport/${encodeURIComponent(id)}/credential.json`, 'application/json', 'credential.json');
}

export function useDownloadCredentialJson() {
  return useMutation({ mutationFn: downloadCredentialJson });
}
