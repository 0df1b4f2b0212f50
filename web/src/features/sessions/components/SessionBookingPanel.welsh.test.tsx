// The learner's session dates in Welsh: the heading, a date and its London times in Welsh words, the
// places left (a Welsh plural), a full date's waiting list and the booking's line.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type ModuleSessions, SESSION_DATES_LIMIT } from '@shared/sessions.ts';
import { i18n } from '@/lib/i18n/i18n';
import { sessionKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { SessionBookingPanel } from './SessionBookingPanel';
import { learnerAnswer, makeBooking, makeDate, MODULE } from '../test-fixtures';

describe('the booking panel in Welsh', () => {
  it('speaks Welsh', async () => {
    await i18n.changeLanguage('cy');
    const answer: ModuleSessions = learnerAnswer([
      makeDate({ placesLeft: 2 }),
      makeDate({ id: '20000000-0000-4000-8000-000000000002', startsAt: '2026-12-10T09:00:00.000Z', endsAt: '2026-12-10T12:00:00.000Z', placesLeft: 0 }),
    ], makeBooking({ status: 'waiting', sessionId: '20000000-0000-4000-8000-000000000002' }), true);
    renderWithProviders(<SessionBookingPanel moduleId={MODULE} enrolled />, {
      user: makeUser({ language: 'cy' }), queryData: [[sessionKeys.dates(MODULE, SESSION_DATES_LIMIT.default), answer]],
    });
    expect(await screen.findByRole('heading', { name: 'Dyddiadau' })).toBeInTheDocument();
    expect(screen.getByText('Rydych ar y rhestr aros ar gyfer 10 Rhagfyr 2026, 09:00–12:00.')).toBeInTheDocument();
    expect(screen.getByText('3 Rhagfyr 2026, 09:00–16:30')).toBeInTheDocument();
    expect(screen.getByText('2 le ar ôl')).toBeInTheDocument();
    expect(screen.getByText('Llawn — ymunwch â\'r rhestr aros')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Symud i\'r dyddiad hwn: 3 Rhagfyr 2026, 09:00–16:30' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Gadael y rhestr aros' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dangos dyddiadau diweddarach' })).toBeInTheDocument();
    expect(screen.getByTestId('session-booking-panel').textContent).not.toMatch(/Book|places|waiting|Full|December/);
  });
});
