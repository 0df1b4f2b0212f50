// The profile's email preferences list every notice kind, the classroom session and assessment
// notices among them: each can be switched off (none is mandatory) in English and in Welsh, and
// saving sends the choice.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_KINDS, type NotificationPreferences } from '@shared/notifications.ts';
import { i18n } from '@/lib/i18n/i18n';
import { fakeApi } from '@/test/fake-api';
import { renderWithProviders } from '@/test/render';
import { NotificationPreferencesForm } from './NotificationPreferencesForm';

const allOn = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, true])) as NotificationPreferences['email'];

afterEach(() => vi.restoreAllMocks());

describe('notification preferences: session and assessment notices', () => {
  it('offers a switch for each, on and enabled, and sends the one switched off', async () => {
    await i18n.changeLanguage('en-GB');
    const api = fakeApi({
      'GET /me/notification-preferences': { body: { language: 'en-GB', email: allOn } },
      'PUT /me/notification-preferences': (request) => ({ body: request.body }),
    });
    const { user } = renderWithProviders(<NotificationPreferencesForm userId="u1" />);
    const names = [
      'A place booked for me on a classroom session',
      "I am on a classroom session's waiting list",
      'A place on a classroom session offered to me',
      'A classroom session I am booked on changed',
      'A classroom session I am booked on cancelled',
      'Reminders of my classroom sessions (7 days and 1 day before)',
      'Someone I manage asks to book a classroom session',
      'A classroom session booking of mine declined',
      'An assessment of mine recorded',
      'A learner asks to be reassessed',
    ];
    for (const name of names) {
      const toggle = await screen.findByRole('switch', { name });
      expect(toggle).toBeChecked();
      expect(toggle).toBeEnabled();
    }
    await user.click(screen.getByRole('switch', { name: 'Reminders of my classroom sessions (7 days and 1 day before)' }));
    await user.click(screen.getByRole('button', { name: 'Save preferences' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = api.requests.find((r) => r.method === 'PUT')!.body as NotificationPreferences;
    expect(put.email['session-reminder']).toBe(false);
    expect(put.email['session-booked']).toBe(true);
    expect(api.unanswered).toEqual([]);
  });

  it('names them in Welsh', async () => {
    await i18n.changeLanguage('cy');
    fakeApi({ 'GET /me/notification-preferences': { body: { language: 'en-GB', email: allOn } } });
    renderWithProviders(<NotificationPreferencesForm userId="u1" />);
    for (const name of [
      "Lle wedi'i archebu i mi ar sesiwn ystafell ddosbarth",
      'Nodiadau atgoffa am fy sesiynau ystafell ddosbarth (7 diwrnod ac 1 diwrnod ymlaen llaw)',
      "Asesiad i mi wedi'i gofnodi",
      'Mae dysgwr yn gofyn am ailasesiad',
    ]) {
      expect(await screen.findByRole('switch', { name })).toBeEnabled();
    }
  });
});
