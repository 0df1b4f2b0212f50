// POST /api/admin/users/import/preview: the chosen file's text, read and checked by the server
// (sent as JSON {csv} through the one API client). Nothing is written.
import { useMutation } from '@tanstack/react-query';
import type { ImportPreview } from '@shared/user-import.ts';
import { api } from '@/lib/api-client';

export const previewImport = (csv: string) => api.post<ImportPreview>('/admin/users/import/preview', { csv });

export const usePreviewImport = () => useMutation({ mutationFn: previewImport });
