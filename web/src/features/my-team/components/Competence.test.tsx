// Maintenance of competence on My team: the figures "Sessions booked", "Practicals due" and
// "Practicals overdue"; each person's next session (the status shown when not yet booked) and their
// practicals as overdue / due / awaiting badges with dates; a report's upcoming sessions and practical
// assessments; all of it in Welsh too, with the English title marked where there is no Welsh.
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TeamMemberRecord, TeamPage } from '@shared/team.ts';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import { TeamView } from './TeamView';
import { TeamMemberView } from './TeamMemberView';
import { noCompetence } from './competence-fixtures';

const course = { id: 'k1', title: 'Breathing apparatus wearer', titleCy: 'Gwisgwr offer anadlu' };
const page: TeamPage = {
  items: [
    {
      user: { id: 'p1', name: 'Fay Firefighter', username: 'fay' },
      unit: { id: 'u1', name: 'Red Watch' },
      direct: true,
      counts: { overdue: 0, dueSoon: 0, inProgress: 1, done: 0 },
      expiringCertificates: 0,
      nextExpiry: null,
      lastActivityAt: null,
      sessionsBooked: 1,
      nextSession: {
        bookingId: 'b1', sessionId: 's1', course, module: { id: 'm2', title: 'Hot fire training day', titleCy: null },
        startsAt: '2026-12-10T09:00:00.000Z', endsAt: '2026-12-10T16:00:00.000Z', status: 'booked',
      },
      practicals: { due: 1, overdue: 0, awaiting: 0, nextDueAt: '2027-01-05T10:00:00.000Z', overdueSince: null },
    },
    {
      user: { id: 'p2', name: 'Gus Grey', username: 'gus' },
      unit: { id: 'u1', name: 'Red Watch' },
      direct: true,
      counts: { overdue: 0, dueSoon: 0, inProgress: 0, done: 1 },
      expiringCertificates: 0,
      nextExpiry: null,
      lastActivityAt: null,
      sessionsBooked: 0,
      nextSession: {
        bookingId: 'b2', sessionId: 's2', course, module: { id: 'm2', title: 'Hot fire training day', titleCy: 'Diwrnod hyfforddi tân poeth' },
        startsAt: '2026-12-20T09:00:00.000Z', endsAt: '2026-12-20T16:00:00.000Z', status: 'waiting',
      },
      practicals: { due: 0, overdue: 2, awaiting: 1, nextDueAt: null, overdueSince: '2026-10-03T09:00:00.000Z' },
    },
    {
      user: { id: 'p3', name: 'Hal Hughes', username: 'hal' },
      unit: null,
      direct: false,
      counts: { overdue: 0, dueSoon: 0, inProgress: 0, done: 0 },
      expiringCertificates: 0,
      nextExpiry: null,
      lastActivityAt: null,
      ...noCompetence,
    },
  ],
  total: 3,
  page: 1,
  pageSize: 20,
  summary: { people: 3, direct: 2, overdue: 0, dueSoon: 0, expiring: 0, sessionsBooked: 1, practicalsDue: 1, practicalsOverdue: 1 },
  units: [{ id: 'u1', name: 'Red Watch' }],
};

const props = {
  data: page, loading: false, error: null, filters: {}, onFilterChange: vi.fn(), search: '', onSearchChange: vi.fn(),
  page: 1, onPageChange: vi.fn(), onExport: vi.fn(), exporting: false,
};

const record: TeamMemberRecord = {
  user: { id: 'p2', name: 'Gus Grey', username: 'gus' },
  unit: { id: 'u1', name: 'Red Watch' },
  direct: true,
  required: [],
  completions: [],
  certificates: [],
  sessions: [
    {
      bookingId: 'b2', sessionId: 's2', course, module: { id: 'm2', title: 'Hot fire training day', titleCy: null },
      startsAt: '2026-12-20T09:00:00.000Z', endsAt: '2026-12-20T16:00:00.000Z', status: 'offered',
      venueName: null, online: true, offeredUntil: '2026-12-01T17:30:00.000Z',
    },
  ],
  practicals: [
    { course, module: { id: 'm1', title: 'BA wearer: annual practical', titleCy: null }, validMonths: 12,
      signedOffAt: '2025-10-03T09:00:00.000Z', validUntil: '2026-10-03T09:00:00.000Z', state: 'overdue' },
    { course, module: { id: 'm3', title: 'BA instructor: two-yearly practical', titleCy: 'Hyfforddwr BA: asesiad ymarferol bob dwy flynedd' },
      validMonths: 24, signedOffAt: null, validUntil: null, state: 'awaiting-sign-off' },
  ],
};

afterEach(async () => {
  await i18n.changeLanguage('en-GB');
});

describe('My team: sessions and practicals', () => {
  it('shows the figures, each person\'s next session and practicals with dates', () => {
    renderWithProviders(<TeamView {...props} />, { user: makeUser() });
    expect(screen.getByTestId('team-figure-sessions-booked')).toHaveTextContent('1');
    expect(screen.getByTestId('team-figure-practicals-due')).toHaveTextContent('1');
    expect(screen.getByTestId('team-figure-practicals-overdue')).toHaveTextContent('1');
    const table = screen.getByRole('table', { name: 'Your team by unit' });
    expect(within(table).getByRole('columnheader', { name: 'Next session' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Practicals' })).toBeInTheDocument();

    const fay = within(table).getByRole('link', { name: 'Fay Firefighter' }).closest('tr')!;
    expect(fay).toHaveTextContent('10 December 2026');
    expect(fay).toHaveTextContent('Hot fire training day');
    expect(within(fay).queryByText('Booked')).toBeNull();
    expect(within(fay).getByText('Due')).toBeInTheDocument();
    expect(fay).toHaveTextContent('1 practical, by 5 January 2027');

    const gus = within(table).getByRole('link', { name: 'Gus Grey' }).closest('tr')!;
    expect(within(gus).getByText('Waiting list')).toBeInTheDocument();
    expect(within(gus).getByText('Overdue')).toBeInTheDocument();
    expect(gus).toHaveTextContent('2 practicals, the first since 3 October 2026');
    expect(within(gus).getByText('Awaiting sign-off')).toBeInTheDocument();

    const hal = within(table).getByRole('link', { name: 'Hal Hughes' }).closest('tr')!;
    expect(hal).toHaveTextContent('None booked');
    expect(hal).toHaveTextContent('None due');
  });

  it('lists a report\'s upcoming sessions and practical assessments', () => {
    renderWithProviders(<TeamMemberView record={record} />, { user: makeUser() });
    const sessions = screen.getByRole('table', { name: 'Upcoming sessions' });
    expect(sessions).toHaveTextContent('20 December 2026');
    expect(sessions).toHaveTextContent('Online');
    expect(within(sessions).getByText('Place offered')).toBeInTheDocument();
    expect(sessions).toHaveTextContent('Held until 1 December 2026');
    const practicals = screen.getByRole('table', { name: 'Practical assessments' });
    const rows = within(practicals).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('BA wearer: annual practical');
    expect(rows[0]).toHaveTextContent('3 October 2025');
    expect(rows[0]).toHaveTextContent('3 October 2026');
    expect(within(rows[0]).getByText('Overdue')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Never signed off');
    expect(within(rows[1]).getByText('Awaiting sign-off')).toBeInTheDocument();
  });

  it('says when a report has no session and no practical', () => {
    renderWithProviders(<TeamMemberView record={{ ...record, sessions: [], practicals: [] }} />, { user: makeUser() });
    expect(screen.getByText('No upcoming session booked.')).toBeInTheDocument();
    expect(screen.getByText('No practical assessment on their courses.')).toBeInTheDocument();
  });

  it('speaks Welsh: figures, badges with plural forms, the record, and English titles marked', async () => {
    await i18n.changeLanguage('cy');
    const { unmount } = renderWithProviders(<TeamView {...props} />, { user: makeUser() });
    expect(screen.getByText("Sesiynau wedi'u harchebu")).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Eich tîm fesul uned' });
    const gus = within(table).getByRole('link', { name: 'Gus Grey' }).closest('tr')!;
    expect(gus).toHaveTextContent('2 asesiad ymarferol, y cyntaf yn hwyr ers 3 Hydref 2026');
    expect(within(gus).getByText('Ar restr aros')).toBeInTheDocument();
    expect(gus).toHaveTextContent('Diwrnod hyfforddi tân poeth');
    const fay = within(table).getByRole('link', { name: 'Fay Firefighter' }).closest('tr')!;
    expect(fay).toHaveTextContent('1 asesiad ymarferol, erbyn 5 Ionawr 2027');
    expect(within(fay).getByText('Hot fire training day')).toHaveAttribute('lang', 'en-GB');
    unmount();
    renderWithProviders(<TeamMemberView record={record} />, { user: makeUser() });
    const practicals = screen.getByRole('table', { name: 'Asesiadau ymarferol' });
    expect(within(practicals).getByText('Yn aros am lofnod')).toBeInTheDocument();
    expect(practicals).toHaveTextContent('Hyfforddwr BA: asesiad ymarferol bob dwy flynedd');
    expect(screen.getByRole('table', { name: 'Sesiynau i ddod' })).toHaveTextContent("Lle wedi'i gynnig");
  });
});
