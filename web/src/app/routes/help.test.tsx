// /help: short help for the people who use the platform, in English and in Welsh, with the site's
// contact email (from the site settings) when there is one.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PublicSettings } from '@shared/admin.ts';
import { routes } from '@/app/routes';
import { i18n } from '@/lib/i18n/i18n';
import { settingsKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';

const user = makeUser();
const settings = {
  siteName: 'Northshire Learning',
  courseAccess: 'public-login',
  certificateTemplate: 'standard',
  footerText: '© Northshire',
  enableAnalytics: false,
  autoEnrollment: false,
  dueSoonDays: [30, 7],
  expiryWarningDays: [30],
  overdueRepeatDays: 7,
  escalationDays: 14,
  scormMaxUploadMb: 50,
  sessionOfferHours: 48,
  updatedAt: '2026-11-01T00:00:00.000Z',
  contactEmail: 'learning@northshire.example',
} satisfies PublicSettings;

const withSettings = (contactEmail: string | null) => ({
  routes,
  route: '/help',
  user,
  queryData: [[settingsKeys.forCaller(user.id), { ...settings, contactEmail }]] as const,
});

describe('/help', () => {
  it('answers each question under its own heading, with the site contact email', async () => {
    renderWithProviders(null, withSettings('learning@northshire.example'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Help with Northshire Learning' })).toBeInTheDocument();
    for (const name of [
      'Signing in',
      'Finding and enrolling on courses',
      'Working through modules and quizzes',
      'Certificates and checking one',
      'Required training and due dates',
      'Changing language',
      'Contact us',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
    expect(screen.getByText(/Sign in with your organisation/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'sign-in page' })).toHaveAttribute('href', '/auth');
    expect(within(screen.getByTestId('help-contact')).getByRole('link', { name: 'learning@northshire.example' }))
      .toHaveAttribute('href', 'mailto:learning@northshire.example');
    expect(document.title).toMatch(/^Help and support/);
  });

  it('sends people to their training administrator when the site has no contact email', async () => {
    renderWithProviders(null, withSettings(null));
    await screen.findByRole('heading', { level: 1, name: 'Help with Northshire Learning' });
    expect(screen.getByTestId('help-contact')).toHaveTextContent('contact your training administrator');
  });

  it('reads in Welsh', async () => {
    await i18n.changeLanguage('cy');
    // A Welsh speaker: signed in, the profile's language is the page's.
    renderWithProviders(null, { ...withSettings('learning@northshire.example'), user: makeUser({ language: 'cy' }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Help gyda Northshire Learning' })).toBeInTheDocument();
    for (const name of ['Mewngofnodi', 'Dod o hyd i gyrsiau a chofrestru arnynt', 'Tystysgrifau a\'u gwirio', 'Hyfforddiant gorfodol a dyddiadau dyledus', 'Newid iaith', 'Cysylltu â ni']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
    expect(screen.getByText(/Mewngofnodi gyda'ch sefydliad/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'dudalen fewngofnodi' })).toHaveAttribute('href', '/auth');
    expect(screen.getByTestId('help-contact')).toHaveTextContent("anfonwch e-bost at learning@northshire.example");
    expect(document.title).toMatch(/^Help a chymorth/);
  });
});
