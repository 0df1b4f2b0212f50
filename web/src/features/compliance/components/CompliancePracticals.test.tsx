// Practical assessments in compliance: per unit (or organisation) the practicals overdue and due as
// badges, awaiting sign-off and valid; the groups without a name; the empty state; and Welsh.
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompliancePracticalsRow } from '@shared/competence.ts';
import { i18n } from '@/lib/i18n/i18n';
import { complianceKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { CompliancePracticals } from './CompliancePracticals';

const rows: CompliancePracticalsRow[] = [
  { organisationId: 'o1', unitId: 'u1', name: 'Blue Watch', hasUnits: false, people: 2, practicals: 4, valid: 1, due: 0, overdue: 3, awaiting: 0 },
  { organisationId: 'o1', unitId: 'u2', name: 'Red Watch', hasUnits: false, people: 2, practicals: 4, valid: 1, due: 1, overdue: 1, awaiting: 1 },
  { organisationId: 'o1', unitId: null, name: null, hasUnits: false, people: 1, practicals: 1, valid: 1, due: 0, overdue: 0, awaiting: 0 },
];
const admin = () => makeUser({ role: 'ADMIN' });

afterEach(async () => {
  await i18n.changeLanguage('en-GB');
});

describe('CompliancePracticals', () => {
  it('counts the practicals of each unit, overdue and due as badges', () => {
    renderWithProviders(<CompliancePracticals national={false} />, { user: admin(), queryData: [[complianceKeys.practicals({}), { items: rows }]] });
    const table = screen.getByRole('table', { name: 'Practical assessments' });
    for (const heading of ['Unit', 'People', 'Overdue', 'Due', 'Awaiting sign-off', 'Valid']) {
      expect(within(table).getByRole('columnheader', { name: heading })).toBeInTheDocument();
    }
    const red = within(table).getByRole('rowheader', { name: 'Red Watch' }).closest('tr')!;
    expect(red.querySelector('[data-state="overdue"]')).toHaveTextContent('1');
    expect(red.querySelector('[data-state="due"]')).toHaveTextContent('1');
    const blue = within(table).getByRole('rowheader', { name: 'Blue Watch' }).closest('tr')!;
    expect(blue.querySelector('[data-state="overdue"]')).toHaveTextContent('3');
    expect(blue.querySelector('[data-state="due"]')).toBeNull();
    expect(within(table).getByRole('rowheader', { name: 'Not in a unit' })).toBeInTheDocument();
  });

  it('says when there is no practical, in Welsh too', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<CompliancePracticals national={false} />, { user: admin(), queryData: [[complianceKeys.practicals({}), { items: [] }]] });
    expect(screen.getByRole('heading', { name: 'Asesiadau ymarferol' })).toBeInTheDocument();
    expect(screen.getByText('Dim asesiad ymarferol i neb yma eto.')).toBeInTheDocument();
  });

  it('names the columns in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<CompliancePracticals national />, { user: admin(), queryData: [[complianceKeys.practicals({}), { items: rows }]] });
    const table = screen.getByRole('table', { name: 'Asesiadau ymarferol' });
    for (const heading of ['Sefydliad', 'Pobl', 'Yn hwyr', 'Yn ddyledus', 'Yn aros am lofnod', 'Yn ddilys']) {
      expect(within(table).getByRole('columnheader', { name: heading })).toBeInTheDocument();
    }
  });
});
