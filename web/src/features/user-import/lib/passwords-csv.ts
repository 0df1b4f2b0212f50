// The one-time passwords file, made in the browser from the import's answer (never stored anywhere).
import { csvFileName, toCsv } from '@shared/csv.ts';
import type { ImportedUser } from '@shared/user-import.ts';

/** The file's name: `imported-users-passwords-2026-11-25.csv` (every export alike). */
export const passwordsFileName = (now: Date = new Date()) => csvFileName('imported-users-passwords', now);

export const PASSWORDS_HEADER = ['username', 'email', 'name', 'temporary_password'] as const;

export function passwordsCsv(users: readonly ImportedUser[]): string {
  return toCsv(PASSWORDS_HEADER, users.map((user) => [user.username, user.email, user.name, user.temporaryPassword]));
}

/** Hands text to the browser as a file download. */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A file to start from: the header and example rows (organisation, unit and manager are optional:
 * the second row's manager is the first row, by username).
 */
export const TEMPLATE_CSV = toCsv(['username', 'email', 'name', 'role', 'services', 'organisation', 'unit', 'manager'], [
  ['jsmith', 'jane.smith@example.org', 'Jane Smith', 'STUDENT', 'UKAS;MISC', '', '', ''],
  ['abrown', 'alex.brown@example.org', 'Alex Brown', 'STUDENT', 'UKAS', '', '', 'jsmith'],
]);
