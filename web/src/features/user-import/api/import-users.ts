// POST /api/admin/users/import, one part at a time: the valid rows of the preview go in parts of
// IMPORT_CHUNK_SIZE, each its own request and transaction, so progress can be shown and a failure
// costs at most the part in flight (which the server rolls back whole).
import { useCallback, useRef, useState } from 'react';
import { IMPORT_CHUNK_SIZE, type ImportPreviewRow, type ImportResult, type RawImportRow } from '@shared/user-import.ts';
import { api, errorDescription } from '@/lib/api-client';

export const importPart = (body: { importId: string; part: number; rows: RawImportRow[] }) =>
  api.post<ImportResult>('/admin/users/import', body);

/** The preview's values as an import request carries them (services as one `;`-separated cell). */
export function toRawRow(row: ImportPreviewRow): RawImportRow {
  return { line: row.line, username: row.username, email: row.email, name: row.name, role: row.role, services: row.services.join(';') };
}

export interface ImportRun {
  status: 'idle' | 'running' | 'done' | 'failed';
  /** Rows sent so far (created or skipped by the server). */
  done: number;
  total: number;
  result: ImportResult;
  /** Why the run stopped early; the rows after `done` were not sent. */
  error: string | null;
}

const initial: ImportRun = { status: 'idle', done: 0, total: 0, result: { created: [], skipped: [] }, error: null };

export function useChunkedImport(onFinished?: () => void) {
  const [run, setRun] = useState<ImportRun>(initial);
  const busy = useRef(false);

  const start = useCallback(async (rows: ImportPreviewRow[]) => {
    if (busy.current) return;
    busy.current = true;
    const importId = crypto.randomUUID();
    const result: ImportResult = { created: [], skipped: [] };
    setRun({ status: 'running', done: 0, total: rows.length, result, error: null });
    let done = 0;
    try {
      for (let part = 1; done < rows.length; part += 1) {
        const slice = rows.slice(done, done + IMPORT_CHUNK_SIZE);
        const answer = await importPart({ importId, part, rows: slice.map(toRawRow) });
        result.created.push(...answer.created);
        result.skipped.push(...answer.skipped);
        done += slice.length;
        setRun({ status: 'running', done, total: rows.length, result: { ...result }, error: null });
      }
      setRun({ status: 'done', done, total: rows.length, result: { ...result }, error: null });
    } catch (error) {
      setRun({ status: 'failed', done, total: rows.length, result: { ...result }, error: errorDescription(error, 'The import stopped') });
    } finally {
      busy.current = false;
      onFinished?.();
    }
  }, [onFinished]);

  const reset = useCallback(() => setRun(initial), []);
  return { run, start, reset };
}
