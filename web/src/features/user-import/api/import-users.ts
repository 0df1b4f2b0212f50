// POST /api/admin/users/import, part by part: the valid rows of the preview go in parts of
// IMPORT_CHUNK_SIZE, each its own request and transaction, so progress can be shown and a failure
// costs at most the parts in flight (which the server rolls back whole).
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IMPORT_CHUNK_SIZE, type ImportPreviewRow, type ImportResult, type RawImportRow } from '@shared/user-import.ts';
import { api, errorDescription } from '@/lib/api-client';

export const importPart = (body: { importId: string; part: number; rows: RawImportRow[] }) =>
  api.post<ImportResult>('/admin/users/import', body);

/** The preview's values as an import request carries them (services as one `;`-separated cell). */
export function toRawRow(row: ImportPreviewRow): RawImportRow {
  return {
    line: row.line,
    username: row.username,
    email: row.email,
    name: row.name,
    role: row.role,
    services: row.services.join(';'),
    organisation: row.organisation ?? '',
    unit: row.unit ?? '',
    manager: row.manager ?? '',
  };
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

/** Parts sent at once. */
export const IMPORT_PARALLEL_PARTS = 2;

/**
 * A row whose manager is another row of the file goes after that row (a manager's own
 * manager first, and so on), so that across parts the manager already exists when their people are
 * created. Otherwise the file's order.
 */
export function managersFirst(rows: ImportPreviewRow[]): { rows: ImportPreviewRow[]; chained: boolean } {
  const byKey = new Map<string, ImportPreviewRow>();
  for (const row of rows) {
    byKey.set(row.username.toLowerCase(), row);
    byKey.set(row.email.toLowerCase(), row);
  }
  const depth = new Map<ImportPreviewRow, number>();
  const depthOf = (row: ImportPreviewRow, seen: Set<ImportPreviewRow>): number => {
    const known = depth.get(row);
    if (known !== undefined) return known;
    const manager = row.manager ? byKey.get(row.manager.toLowerCase()) : undefined;
    const d = manager && manager !== row && !seen.has(manager) ? depthOf(manager, new Set([...seen, row])) + 1 : 0;
    depth.set(row, d);
    return d;
  };
  const ordered = rows.map((row, index) => ({ row, index, depth: depthOf(row, new Set()) }))
    .sort((a, b) => a.depth - b.depth || a.index - b.index)
    .map((entry) => entry.row);
  return { rows: ordered, chained: ordered.some((row) => (depth.get(row) ?? 0) > 0) };
}

const initial: ImportRun = { status: 'idle', done: 0, total: 0, result: { created: [], skipped: [] }, error: null };

export function useChunkedImport(onFinished?: () => void) {
  const { t } = useTranslation('user-import');
  const [run, setRun] = useState<ImportRun>(initial);
  const busy = useRef(false);

  const start = useCallback(async (given: ImportPreviewRow[]) => {
    if (busy.current) return;
    busy.current = true;
    // Managers of the file before their people; then one part at a time, so each part's managers
    // are committed before it is sent.
    const { rows, chained } = managersFirst(given);
    const parallel = chained ? 1 : IMPORT_PARALLEL_PARTS;
    const importId = crypto.randomUUID();
    const result: ImportResult = { created: [], skipped: [] };
    const parts: ImportPreviewRow[][] = [];
    for (let i = 0; i < rows.length; i += IMPORT_CHUNK_SIZE) parts.push(rows.slice(i, i + IMPORT_CHUNK_SIZE));
    const snapshot = () => ({
      created: [...result.created].sort((a, b) => a.line - b.line),
      skipped: [...result.skipped].sort((a, b) => a.line - b.line),
    });
    setRun({ status: 'running', done: 0, total: rows.length, result: snapshot(), error: null });
    let next = 0;
    let done = 0;
    let error: string | null = null;
    // Two parts in flight: on Postgres each runs on its own core (the password hashing is most of
    // the work); each part is still its own transaction, all or nothing.
    const worker = async () => {
      while (error === null && next < parts.length) {
        const index = next;
        next += 1;
        try {
          const answer = await importPart({ importId, part: index + 1, rows: parts[index].map(toRawRow) });
          result.created.push(...answer.created);
          result.skipped.push(...answer.skipped);
          done += parts[index].length;
          setRun({ status: 'running', done, total: rows.length, result: snapshot(), error: null });
        } catch (failure) {
          error ??= errorDescription(failure, t('importUsersPage.importStopped'));
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(parallel, parts.length) }, worker));
      setRun({ status: error === null ? 'done' : 'failed', done, total: rows.length, result: snapshot(), error });
    } finally {
      busy.current = false;
      onFinished?.();
    }
  }, [onFinished, t]);

  const reset = useCallback(() => setRun(initial), []);
  return { run, start, reset };
}
