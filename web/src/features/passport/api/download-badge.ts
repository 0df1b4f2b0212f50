// GET /api/passport/:credentialId/badge.png: the badge image with the credential baked in (Open
// Badges 3.0 baking: an iTXt chunk with keyword openbadgecredential).
import { useMutation } from '@tanstack/react-query';
import { downloadFromApi } from '@/lib/download';

export function downloadBadgePng(id: string): Promise<string> {
  return downloadFromApi(`/passport/${encodeURIComponent(id)}/badge.png`, 'image/png', 'badge.png');
}

export function useDownloadBadgePng() {
  return useMutation({ mutationFn: downloadBadgePng });
}
