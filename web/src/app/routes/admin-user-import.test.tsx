// The import screen without a server: admins only (others are sent away), a labelled file input,
// files refused in the browser before upload (too big, not UTF-8), the preview table's counts,
// filter and paging, and the result with its one-time passwords and reasons for skipped rows.
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ImportPreview, ImportPreviewRow, ImportResult } from '@shared/user-import.ts';
import { routes } from '@/app/routes';
import { makeUser, renderWithProviders } from '@/test/render';
import { passwordsCsv } from '@/features/user-import/lib/passwords-csv';
import { ImportPreviewTable } from '@/features/user-import/components/ImportPreviewTable';
import { ImportResultView } from '@/features/user-import/components/ImportResultView';

function row(line: number, problems: ImportPreviewRow['problems'] = []): ImportPreviewRow {
  return {
    line, username: `user${line}`, email: `user${line}@example.test`, name: `User ${line}`, role: 'STUDENT', services: ['UKAS'],
    organisation: '', unit: '', manager: '', problems,
  };
}

function previewOf(rows: ImportPreviewRow[]): ImportPreview {
  const invalid = rows.filter((r) => r.problems.length > 0).length;
  return { rows, total: rows.length, valid: rows.length - invalid, invalid };
}

describe('/admin/users/import', () => {
  it('sends a non-admin home', async () => {
    const { router } = renderWithProviders(null, { routes, route: '/admin/users/import', user: makeUser({ role: 'INSTRUCTOR' }) });
    await screen.findByRole('heading', { level: 1 });
    expect(router.state.location.pathname).toBe('/');
  });

  it('gives an admin a labelled file input and refuses a file over 2 MB or not in UTF-8 before any upload', async () => {
    renderWithProviders(null, { routes, route: '/admin/users/import', user: makeUser({ role: 'ADMIN' }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Import users' })).toBeInTheDocument();
    expect(document.title).toMatch(/^Import users/);
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(screen.getByRole('button', { name: /CSV file/ })).toBeInTheDocument();

    const big = new File(['x'.repeat(2 * 1024 * 1024 + 1)], 'big.csv', { type: 'text/csv' });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('The file is larger than 2 MB. Split it into smaller files.')).toBeInTheDocument();

    const latin1 = new File([new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x52, 0x65, 0x6e, 0xe9])], 'latin1.csv', { type: 'text/csv' });
    fireEvent.change(input, { target: { files: [latin1] } });
    expect(await screen.findByText(/The file is not UTF-8 text/)).toBeInTheDocument();
    expect(screen.queryByText('Checking the file…')).not.toBeInTheDocument();
  });
});

describe('ImportPreviewTable', () => {
  it('counts the rows, opens on the rows with problems, and pages a long file', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => row(i + 2, i === 3 ? [{ field: 'email', message: 'Invalid email address' }] : []));
    const { user } = renderWithProviders(<ImportPreviewTable preview={previewOf(rows)} />);
    expect(screen.getByTestId('import-summary')).toHaveTextContent('120 rows: 119 ready to import, 1 with problems');
    const table = screen.getByRole('table', { name: 'Rows of the file' });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).getByText('Invalid email address')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'All (120)' }));
    expect(within(screen.getByRole('table', { name: 'Rows of the file' })).getAllByRole('row')).toHaveLength(51);
    expect(screen.getByText('1–50 of 120 rows')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(screen.getByText('101–120 of 120 rows')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Rows of the file' })).getAllByText('Ready')).toHaveLength(20);
  });
});

describe('ImportResultView', () => {
  const result: ImportResult = {
    created: [
      { line: 2, id: 'a', username: 'ann', email: 'ann@example.test', name: 'Ann', role: 'STUDENT', services: ['UKAS'], temporaryPassword: 'Abc123!xyzXYZ789qwer' },
    ],
    skipped: [{ line: 4, username: 'bob', email: 'bob@example.test', problems: [{ field: 'username', message: 'Username is already taken' }] }],
  };

  it('shows what was created with its password, and every skipped row (from the preview and the server) with why', () => {
    renderWithProviders(
      <ImportResultView
        result={result}
        skippedBefore={[{ line: 3, username: 'x', email: 'bad', problems: [{ field: 'email', message: 'Invalid email address' }] }]}
        notSent={0}
        error={null}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Import finished' })).toBeInTheDocument();
    expect(screen.getByTestId('import-outcome')).toHaveTextContent('1 user created, 2 skipped.');
    expect(within(screen.getByRole('table', { name: 'Users created' })).getByText('Abc123!xyzXYZ789qwer')).toBeInTheDocument();
    const skipped = within(screen.getByRole('table', { name: 'Rows skipped' })).getAllByRole('row').slice(1);
    expect(skipped.map((r) => r.textContent)).toEqual([
      '3xbadEmail: Invalid email address',
      '4bobbob@example.testUsername: Username is already taken',
    ]);
    expect(screen.getByRole('button', { name: 'Download passwords (CSV)' })).toBeInTheDocument();
  });

  it('says when the import stopped part-way and how many rows were not sent', () => {
    renderWithProviders(<ImportResultView result={{ created: [], skipped: [] }} skippedBefore={[]} notSent={500} error="503: Database unavailable" />);
    expect(screen.getByRole('heading', { name: 'Import stopped' })).toBeInTheDocument();
    expect(screen.getByTestId('import-outcome')).toHaveTextContent('0 users created, 0 skipped, 500 not sent.');
    expect(screen.queryByRole('button', { name: 'Download passwords (CSV)' })).not.toBeInTheDocument();
  });

  it('writes the passwords file with a header and each password exactly as given', () => {
    expect(passwordsCsv(result.created)).toBe('\uFEFFusername,email,name,temporary_password\r\nann,ann@example.test,Ann,Abc123!xyzXYZ789qwer\r\n');
  });
});
