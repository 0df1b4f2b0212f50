// "My team": the summary, the labelled filters, the people grouped by unit with their
// status badges, expiring certificates and last activity as `22 November 2026`, the link to each
// person's record, Export CSV, paging, the cards on a phone and the empty state; and one report's
// record (required training, completions, certificates; nothing else).
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TeamMemberRecord, TeamPage } from '@shared/team.ts';
import { noCompetence } from './competence-fixtures';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import { TeamView, type TeamViewProps } from './TeamView';
import { TeamMemberView } from './TeamMemberView';

const page: TeamPage = {
  items: [
    {
      user: { id: 'p1', name: 'Connie Constable', username: 'connie' },
      unit: { id: 'u1', name: 'Response Team 1' },
      direct: false,
      counts: { overdue: 1, dueSoon: 0, inProgress: 1, done: 0 },
      expiringCertificates: 0,
      nextExpiry: null,
      lastActivityAt: '2026-11-22T10:00:00.000Z',
      ...noCompetence,
    },
    {
      user: { id: 'p2', name: 'Sam Sergeant', username: 'sam' },
      unit: { id: 'u1', name: 'Response Team 1' },
      direct: true,
      counts: { overdue: 0, dueSoon: 0, inProgress: 0, done: 0 },
      expiringCertificates: 0,
      nextExpiry: null,
      lastActivityAt: null,
      ...noCompetence,
    },
    {
      user: { id: 'p3', name: 'Colin Constable', username: 'colin' },
      unit: null,
      direct: false,
      counts: { overdue: 0, dueSoon: 1, inProgress: 0, done: 2 },
      expiringCertificates: 1,
      nextExpiry: '2026-12-15T09:00:00.000Z',
      lastActivityAt: '2026-11-01T09:00:00.000Z',
      ...noCompetence,
    },
  ],
  total: 45,
  page: 1,
  pageSize: 20,
  summary: { people: 45, direct: 4, overdue: 7, dueSoon: 3, expiring: 2, sessionsBooked: 0, practicalsDue: 0, practicalsOverdue: 0 },
  units: [{ id: 'u1', name: 'Response Team 1' }, { id: 'u2', name: 'Response Team 2' }],
};

function props(overrides: Partial<TeamViewProps> = {}): TeamViewProps {
  return {
    data: page, loading: false, error: null, filters: {}, onFilterChange: vi.fn(), search: '', onSearchChange: vi.fn(),
    page: 1, onPageChange: vi.fn(), onExport: vi.fn(), exporting: false, ...overrides,
  };
}

function asPhone() {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    matches: query.includes('max-width: 47.99em'), media: query, onchange: null, addListener: () => {}, removeListener: () => {},
    addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = original;
  };
}

describe('TeamView', () => {
  it('shows the summary, the people by unit with their statuses, expiring certificates and last activity', async () => {
    const p = props();
    const { user } = renderWithProviders(<TeamView {...p} />, { user: makeUser() });
    expect(screen.getByTestId('team-figure-people')).toHaveTextContent('45');
    expect(screen.getByTestId('team-figure-overdue')).toHaveTextContent('7');
    expect(screen.getByTestId('team-figure-due-soon')).toHaveTextContent('3');
    expect(screen.getByText('4 reporting to you directly')).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Your team by unit' });
    const [teamOne, noUnit] = within(table).getAllByRole('rowgroup').slice(1);
    expect(within(teamOne).getByRole('columnheader', { name: 'Response Team 1' })).toBeInTheDocument();
    expect(within(noUnit).getByRole('columnheader', { name: 'No unit' })).toBeInTheDocument();

    const connie = within(table).getByRole('link', { name: 'Connie Constable' }).closest('tr')!;
    expect(within(connie).getByRole('link', { name: 'Connie Constable' })).toHaveAttribute('href', '/team/p1');
    expect(connie).toHaveTextContent('@connie · Reports through your team');
    expect(within(connie).getByText('Overdue')).toBeInTheDocument();
    expect(within(connie).getByText('In progress')).toBeInTheDocument();
    expect(within(connie).queryByText('Done')).toBeNull();
    expect(connie).toHaveTextContent('22 November 2026');
    expect(connie).toHaveTextContent('None');

    const sam = within(table).getByRole('link', { name: 'Sam Sergeant' }).closest('tr')!;
    expect(sam).toHaveTextContent('Reports to you');
    expect(sam).toHaveTextContent('Nothing required');
    expect(sam).toHaveTextContent('No activity yet');

    const colin = within(table).getByRole('link', { name: 'Colin Constable' }).closest('tr')!;
    expect(colin).toHaveTextContent('1, the first on 15 December 2026');
    expect(within(colin).getByText('2 courses')).toBeInTheDocument();

    expect(screen.getByText('45 people, page 1 of 3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(p.onExport).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: '2' }));
    expect(p.onPageChange).toHaveBeenCalledWith(2);
    // The previous and next arrows are named (axe button-name failed on them in the organisations journey).
    expect(screen.getByRole('button', { name: 'previous page' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'next page' }));
    expect(p.onPageChange).toHaveBeenCalledWith(2);
  });

  it('has labelled filters that report their changes', async () => {
    const p = props();
    const { user } = renderWithProviders(<TeamView {...p} />, { user: makeUser() });
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Overdue' }));
    expect(p.onFilterChange).toHaveBeenCalledWith('status', 'overdue');
    await user.click(screen.getByRole('combobox', { name: 'Unit' }));
    await user.click(await screen.findByRole('option', { name: 'Response Team 2' }));
    expect(p.onFilterChange).toHaveBeenCalledWith('unitId', 'u2');
    await user.type(screen.getByLabelText('Search'), 'c');
    expect(p.onSearchChange).toHaveBeenCalledWith('c');
  });

  it('says when the filters match no one, and when nobody reports to the person', () => {
    const none = { ...page, items: [], total: 0 };
    const { unmount } = renderWithProviders(<TeamView {...props({ data: none, filters: { status: 'done' } })} />, { user: makeUser() });
    expect(screen.getByText('No one in your team matches these filters.')).toBeInTheDocument();
    unmount();
    const empty = { ...none, units: [], summary: { people: 0, direct: 0, overdue: 0, dueSoon: 0, expiring: 0, sessionsBooked: 0, practicalsDue: 0, practicalsOverdue: 0 } };
    renderWithProviders(<TeamView {...props({ data: empty })} />, { user: makeUser() });
    expect(screen.getByRole('heading', { name: 'Nobody reports to you yet' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('on a phone shows each person as a card under their unit, with every field', () => {
    const restore = asPhone();
    try {
      renderWithProviders(<TeamView {...props()} />, { user: makeUser() });
      expect(screen.queryByRole('table')).toBeNull();
      expect(screen.getByRole('heading', { name: 'Response Team 1' })).toBeInTheDocument();
      const [connie] = within(screen.getByRole('list', { name: 'People in Response Team 1' })).getAllByRole('listitem');
      const field = (label: string) => within(connie).getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
      expect(field('Required training')).toHaveTextContent('Overdue');
      expect(field('Certificates expiring')).toHaveTextContent('None');
      expect(field('Last activity')).toHaveTextContent('22 November 2026');
      expect(within(connie).getByRole('link', { name: 'Connie Constable' })).toHaveAttribute('href', '/team/p1');
    } finally {
      restore();
    }
  });
});

describe('TeamMemberView', () => {
  const record: TeamMemberRecord = {
    user: { id: 'p1', name: 'Connie Constable', username: 'connie' },
    unit: { id: 'u1', name: 'Response Team 1' },
    direct: false,
    required: [{ course: { id: 'k1', title: 'JESIP' }, status: 'overdue', dueAt: '2026-11-02T09:00:00.000Z', progress: 40, recognised: null }],
    completions: [{ course: { id: 'k2', title: 'Airwave' }, completedAt: '2026-10-01T09:00:00.000Z' }],
    certificates: [{ id: 'c1', course: { id: 'k2', title: 'Airwave' }, issuedAt: '2026-10-01T09:00:00.000Z', expiresAt: null, state: 'valid' }],
    sessions: [],
    practicals: [],
  };

  it('shows the person\'s required training, completions and certificates', () => {
    renderWithProviders(<TeamMemberView record={record} />, { user: makeUser() });
    expect(screen.getByText('@connie · Response Team 1 · Reports through your team')).toBeInTheDocument();
    const required = screen.getByRole('table', { name: 'Required training' });
    expect(required).toHaveTextContent('JESIP');
    expect(within(required).getByText('Overdue')).toBeInTheDocument();
    expect(required).toHaveTextContent('2 November 2026');
    expect(required).toHaveTextContent('40%');
    expect(screen.getByRole('table', { name: 'Completed courses' })).toHaveTextContent('1 October 2026');
    const certificates = screen.getByRole('table', { name: 'Certificates' });
    expect(certificates).toHaveTextContent('Never');
    expect(within(certificates).getByText('Valid')).toBeInTheDocument();
    expect(screen.queryByText(/CPD|reflection/i)).toBeNull();
  });

  it('says when there is nothing in a section', () => {
    renderWithProviders(<TeamMemberView record={{ ...record, required: [], completions: [], certificates: [] }} />, { user: makeUser() });
    expect(screen.getByText('No course is required of them.')).toBeInTheDocument();
    expect(screen.getByText('No course completed yet.')).toBeInTheDocument();
    expect(screen.getByText('No certificate yet.')).toBeInTheDocument();
  });
});

describe('My team in Welsh', () => {
  it('shows the summary, the table, the counts and the dates in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<TeamView {...props()} />, { user: makeUser() });
    expect(screen.getByText('4 yn adrodd i chi\'n uniongyrchol')).toBeInTheDocument();
    expect(screen.getByTestId('team-figure-overdue')).toHaveTextContent('7');
    expect(screen.getByText('Yn hwyr', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Statws' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Allforio CSV' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Eich tîm fesul uned' });
    for (const heading of ['Unigolyn', 'Hyfforddiant gorfodol', "Tystysgrifau'n dod i ben", 'Gweithgarwch diwethaf', 'Dim uned']) {
      expect(within(table).getByRole('columnheader', { name: heading })).toBeInTheDocument();
    }
    const connie = within(table).getByRole('link', { name: 'Connie Constable' }).closest('tr')!;
    expect(connie).toHaveTextContent('@connie · Yn adrodd drwy eich tîm');
    expect(connie).toHaveTextContent('22 Tachwedd 2026');
    const colin = within(table).getByRole('link', { name: 'Colin Constable' }).closest('tr')!;
    expect(colin).toHaveTextContent('1, y gyntaf ar 15 Rhagfyr 2026');
    expect(within(colin).getByText('2 gwrs')).toBeInTheDocument();
    expect(screen.getByText('45 o bobl, tudalen 1 o 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'tudalen nesaf' })).toBeInTheDocument();
  });

  it('shows a report\'s record in Welsh', async () => {
    await i18n.changeLanguage('cy');
    const record: TeamMemberRecord = {
      user: { id: 'p1', name: 'Connie Constable', username: 'connie' },
      unit: null,
      direct: true,
      required: [{ course: { id: 'k1', title: 'JESIP' }, status: 'overdue', dueAt: null, progress: 40, recognised: null }],
      completions: [],
      certificates: [{ id: 'c1', course: { id: 'k2', title: 'Airwave' }, issuedAt: '2026-10-01T09:00:00.000Z', expiresAt: null, state: 'valid' }],
      sessions: [],
      practicals: [],
    };
    renderWithProviders(<TeamMemberView record={record} />, { user: makeUser() });
    expect(screen.getByText('@connie · Dim uned · Yn adrodd i chi')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Hyfforddiant gorfodol' })).toHaveTextContent('Ddim yn ddyledus');
    expect(screen.getByText("Dim cwrs wedi'i gwblhau eto.")).toBeInTheDocument();
    const certificates = screen.getByRole('table', { name: 'Tystysgrifau' });
    expect(certificates).toHaveTextContent('1 Hydref 2026');
    expect(certificates).toHaveTextContent('Byth');
    expect(within(certificates).getByRole('columnheader', { name: 'Dyddiad cyhoeddi' })).toBeInTheDocument();
  });
});
