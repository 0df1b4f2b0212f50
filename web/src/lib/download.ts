// Downloads from the api function: fetched with the session's token (a plain link could not send it)
// and handed to the browser as a file under the server's file name. Errors become ApiError.
import { ApiError, apiBaseUrl } from './api-client';
import { accessToken, supabaseAnonKey } from './supabase';
import { i18n } from './i18n/i18n';
import { loadMessages, translateMessage } from './i18n/messages';

/** GETs `path` (below /api) and saves the answer; resolves to the file name used. */
export async function downloadFromApi(path: string, accept: string, fallbackName: string): Promise<string> {
  const token = await accessToken();
  const response = await fetch(`${apiBaseUrl}${path}`, {
    headers: {
      apikey: supabaseAnonKey,
      Authorization: `Bearer ${token}`,
      Accept: accept,
    },
  });
  if (!response.ok) {
    let message = response.statusText || i18n.t('request.downloadFailed', { ns: 'common' });
    try {
      message = ((await response.json()) as { message?: string }).message || message;
    } catch {
      // Not JSON: keep the status text.
    }
    await loadMessages();
    throw new ApiError(response.status, translateMessage(message));
  }
  const blob = await response.blob();
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Give the browser time to start the download before the blob goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}
