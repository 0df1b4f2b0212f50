// The compliance view in Welsh: the filters, the table's headings, its counts' names and the empty
// state come from the compliance catalogue, the service names from the common one.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ComplianceSummaryRow } from '@shared/compliance.ts';
import { i18n } from '@/lib/i18n/i18n';
import { complianceKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { ComplianceView } from './ComplianceView';

const row: ComplianceSummaryRow = {
  service: 'UKAS',
  course: { id: 'c1', title: 'Manual Handling' },
  people: 12,
  compliant: 8,
  dueSoon: 2,
  overdue: 1,
  inProgress: 1,
};
const page = (items: ComplianceSummaryRow[]) => ({ items, total: items.length, page: 1, pageSize: 50 });

describe('ComplianceView in Welsh', () => {
  it('names the filters, the columns and the counts in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<ComplianceView isAdmin={false} services={['UKAS']} />, {
      user: makeUser({ role: 'INSTRUCTOR', services: ['UKAS'] }),
      queryData: [[complianceKeys.summary({}, 1), page([row])]],
    });
    expect(screen.getByRole('combobox', { name: 'Gwasanaeth' })).toHaveAttribute('placeholder', 'Pob gwasanaeth');
    expect(screen.getByRole('combobox', { name: 'Rôl' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Allforio CSV' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Cydymffurfiaeth fesul gwasanaeth a chwrs' });
    for (const heading of ['Gwasanaeth', 'Cwrs gorfodol', 'Pobl', 'Yn cydymffurfio', 'Yn ddyledus cyn bo hir', 'Yn hwyr', 'Ar y gweill']) {
      expect(within(table).getByRole('columnheader', { name: heading })).toBeInTheDocument();
    }
    const where = 'Gwasanaeth Ambiwlans y Deyrnas Unedig, Manual Handling';
    expect(within(table).getByRole('button', { name: `Dangos y 12 o bobl i gyd: ${where}` })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: `Dangos 1 sy'n hwyr: ${where}` })).toBeInTheDocument();
    expect(screen.queryByText(/Compliant|Overdue|Export/)).toBeNull();
  });

  it('says in Welsh when nothing is required', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<ComplianceView isAdmin={false} services={['UKAS']} />, {
      user: makeUser({ role: 'INSTRUCTOR', services: ['UKAS'] }),
      queryData: [[complianceKeys.summary({}, 1), page([])]],
    });
    expect(screen.getByText("Dim i'w adrodd")).toBeInTheDocument();
    expect(screen.getByText('Nid oes cwrs yn orfodol eto i unrhyw un y gallwch ei weld.')).toBeInTheDocument();
  });
});
