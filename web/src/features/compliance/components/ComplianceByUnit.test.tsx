import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComplianceUnitRow } from '@shared/compliance.ts';
import { compliantShare } from '@shared/compliance.ts';
import { i18n } from '@/lib/i18n/i18n';
import { renderWithProviders } from '@/test/render';
import { ComplianceByUnit, groupUnitRows } from './ComplianceByUnit';

const org = 'a0000000-0000-4000-a000-000000000001';
const station = 'a1000000-0000-4000-a000-000000000002';
const harbour = 'a1000000-0000-4000-a000-000000000004';
const handling = { id: 'c0000000-0000-4000-a000-000000000001', title: 'Manual Handling' };
const safeguarding = { id: 'c0000000-0000-4000-a000-000000000002', title: 'Safeguarding' };
const row = (unitId: string | null, name: string | null, course: { id: string; title: string }, people: number, compliant: number, hasUnits = false): ComplianceUnitRow => ({
  organisationId: org, unitId, name, hasUnits, course, people, compliant, dueSoon: 0, overdue: people - compliant, inProgress: 0,
});

const rows: ComplianceUnitRow[] = [
  row(station, 'Central Station', handling, 8, 6, true),
  row(station, 'Central Station', safeguarding, 4, 1, true),
  row(harbour, 'Harbour Station', handling, 3, 3),
  row(null, null, handling, 2, 0),
];

describe('ComplianceByUnit', () => {
  it('computes the share compliant from the counts, per course and over all courses', () => {
    expect(compliantShare(6, 8)).toBe(75);
    expect(compliantShare(1, 3)).toBe(33);
    expect(compliantShare(0, 0)).toBe(0);
    const { groups, courses } = groupUnitRows(rows, 'unit');
    expect(courses.map((c) => c.title)).toEqual(['Manual Handling', 'Safeguarding']);
    expect(groups.map((g) => [g.name, g.people, g.compliant])).toEqual([
      ['Central Station', 12, 7], ['Harbour Station', 3, 3], ['Not in a unit', 2, 0],
    ]);
  });

  it('shows one row per unit with the share per course, opens a unit with units below it and lists its people', async () => {
    const onOpen = vi.fn();
    const onPeople = vi.fn();
    renderWithProviders(<ComplianceByUnit rows={rows} level="unit" onOpen={onOpen} onPeople={onPeople} />);
    const table = screen.getByRole('table', { name: /compliance by unit/i });
    expect(within(table).getByRole('columnheader', { name: 'Manual Handling' })).toBeInTheDocument();
    const central = within(table).getByRole('row', { name: /Central Station/ });
    expect(within(central).getByText('75%')).toBeInTheDocument(); // 6 of 8
    expect(within(central).getByText('25%')).toBeInTheDocument(); // 1 of 4
    expect(within(central).getByText('58%')).toBeInTheDocument(); // 7 of 12 over both courses
    const harbourRow = within(table).getByRole('row', { name: /Harbour Station/ });
    expect(within(harbourRow).getByText('Not required')).toBeInTheDocument();
    // Only a unit with units below it opens; the people of no unit are not listed by unit.
    expect(within(harbourRow).queryByRole('button', { name: /its units/ })).toBeNull();
    expect(within(within(table).getByRole('row', { name: /Not in a unit/ })).queryByRole('button')).toBeNull();

    const user = userEvent.setup();
    await user.click(within(central).getByRole('button', { name: 'Open Central Station: its units' }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ unitId: station }));
    await user.tab();
    await user.keyboard('{Enter}'); // the People button is next, by keyboard
    expect(onPeople).toHaveBeenCalledWith(expect.objectContaining({ unitId: station, name: 'Central Station' }));
  });

  it('says so when nobody is required', () => {
    renderWithProviders(<ComplianceByUnit rows={[]} level="organisation" onOpen={() => {}} onPeople={() => {}} />);
    expect(screen.getByText('No required training for anyone here yet.')).toBeInTheDocument();
  });
});

describe('ComplianceByUnit in Welsh', () => {
  it('names the table, its columns, the groups without a name and the actions in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<ComplianceByUnit rows={rows} level="unit" onOpen={() => {}} onPeople={() => {}} />);
    const table = screen.getByRole('table', { name: "Cydymffurfiaeth fesul uned: cyfran y bobl sy'n cydymffurfio fesul cwrs" });
    expect(within(table).getByRole('columnheader', { name: 'Uned' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Pob cwrs' })).toBeInTheDocument();
    const central = within(table).getByRole('row', { name: /Central Station/ });
    expect(within(central).getByText('(6 o 8)')).toBeInTheDocument();
    expect(within(central).getByRole('button', { name: 'Agor unedau Central Station' })).toHaveTextContent('Unedau');
    expect(within(central).getByRole('button', { name: 'Dangos pobl Central Station' })).toHaveTextContent('Pobl');
    expect(within(within(table).getByRole('row', { name: /Harbour Station/ })).getByText('Ddim yn orfodol')).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: 'Ddim mewn uned' })).toBeInTheDocument();
  });
});
