// Importing users in Welsh: the page's heading and guidance (the CSV's column names stay as the file
// writes them), the preview's summary, filter, columns and pages, and what the import did.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult } from '@shared/user-import.ts';
import { i18n } from '@/lib/i18n/i18n';
import { renderWithProviders } from '@/test/render';
import { ImportPreviewTable } from './ImportPreviewTable';
import { ImportResultView } from './ImportResultView';
import { ImportUsersPage } from './ImportUsersPage';

const rows: ImportPreview['rows'] = Array.from({ length: 120 }, (_, i) => ({
  line: i + 2, username: `crew${i}`, email: `crew${i}@example.test`, name: `Crew ${i}`, role: 'STUDENT', services: ['UKFRS'],
  organisation: '', unit: '', manager: '',
  problems: i === 0 ? [{ field: 'email' as const, message: 'Invalid email address' }] : [],
}));
const preview: ImportPreview = { total: 120, valid: 119, invalid: 1, rows };

describe('user import in Welsh', () => {
  it('explains the file in Welsh, the column names as the file writes them', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<ImportUsersPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Mewnforio defnyddwyr' })).toBeInTheDocument();
    expect(screen.getByText(/Mae'r llinell gyntaf yn enwi'r colofnau/)).toHaveTextContent('Hyd at 10,000 o ddefnyddwyr a 2 MB ym mhob ffeil.');
    expect(screen.getAllByText('username')[0]!.tagName).toBe('STRONG');
    expect(screen.getByRole('button', { name: 'Lawrlwytho templed' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Yn ôl at y defnyddwyr' })).toHaveAttribute('href', '/admin?tab=users');
  });

  it('shows the preview in Welsh', async () => {
    await i18n.changeLanguage('cy');
    const { user } = renderWithProviders(<ImportPreviewTable preview={preview} />);
    expect(screen.getByTestId('import-summary')).toHaveTextContent('120 rhes: 119 yn barod i\'w mewnforio, 1 â phroblemau');
    const table = screen.getByRole('table', { name: 'Rhesi\'r ffeil' });
    expect(within(table).getByRole('columnheader', { name: 'Enw defnyddiwr' })).toBeInTheDocument();
    expect(within(table).getByText('E-bost:')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Y cyfan (120)' }));
    expect(screen.getByText('1–50 o 120 rhes')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tudalen 3' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Rhesi\'r ffeil' })).getAllByText('Dysgwr')).toHaveLength(50);
    expect(within(screen.getByRole('table', { name: 'Rhesi\'r ffeil' })).getAllByText('Yn barod')).toHaveLength(49);
  });

  it('says what the import did in Welsh', async () => {
    await i18n.changeLanguage('cy');
    const result: ImportResult = {
      created: [
        { id: 'u1', line: 2, username: 'ann', email: 'ann@example.test', name: 'Ann', role: 'STUDENT', services: ['UKAS'], temporaryPassword: 'Abc123!xyz' },
        { id: 'u2', line: 3, username: 'bob', email: 'bob@example.test', name: 'Bob', role: 'INSTRUCTOR', services: ['UKAS'], temporaryPassword: 'Def456!xyz' },
      ],
      skipped: [],
    };
    renderWithProviders(<ImportResultView result={result} skippedBefore={[]} notSent={3} error="The server stopped" />);
    expect(screen.getByRole('heading', { name: 'Mewnforio wedi stopio' })).toBeInTheDocument();
    expect(screen.getByTestId('import-outcome')).toHaveTextContent('Wedi creu 2 ddefnyddiwr, wedi hepgor 0, heb anfon 3.');
    expect(screen.getByRole('button', { name: 'Lawrlwytho\'r cyfrineiriau (CSV)' })).toBeInTheDocument();
    const created = screen.getByRole('table', { name: 'Defnyddwyr a grëwyd' });
    expect(within(created).getByRole('columnheader', { name: 'Cyfrinair dros dro' })).toBeInTheDocument();
    expect(within(created).getByText('Hyfforddwr')).toBeInTheDocument();
  });
});
