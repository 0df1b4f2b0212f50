// The header's language switch: a link to the page in the other language, followed in place; the
// choice kept in the browser and, signed in, on the profile; a signed-in person's profile decides.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { markLanguageChosen } from '@/app/layout/LanguageSwitch';
import { routes } from '@/app/routes';
import { i18n } from '@/lib/i18n/i18n';
import { detectLanguage } from '@/lib/i18n/language';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';

afterEach(() => {
  markLanguageChosen(false);
  document.cookie = 'lang=; path=/; max-age=0';
  document.documentElement.lang = 'en-GB';
});

describe('language switch', () => {
  it('links to the page in Welsh, and switches the page in place, kept in a cookie', async () => {
    const { user } = renderWithProviders(null, { routes, route: '/?service=UKAS', user: null });
    await screen.findByRole('link', { name: 'Skip to main content' });
    const cymraeg = screen.getByRole('link', { name: 'Cymraeg' });
    expect(cymraeg).toHaveAttribute('href', '/?service=UKAS&lng=cy');
    expect(cymraeg).toHaveAttribute('lang', 'cy');
    await user.click(cymraeg);
    await screen.findByRole('link', { name: "Neidio i'r prif gynnwys" });
    expect(document.documentElement.lang).toBe('cy');
    expect(document.cookie).toContain('lang=cy');
    const english = screen.getByRole('link', { name: 'English' });
    expect(english).toHaveAttribute('lang', 'en-GB');
    expect(english).toHaveAttribute('href', '/?service=UKAS&lng=en-GB');
  });

  it('keeps a signed-in person’s choice on their profile', async () => {
    const person = makeUser();
    const api = fakeApi({ 'PUT /profile/language': ({ body }) => ({ body: { ...person, language: (body as { language: string }).language } }) });
    const { user } = renderWithProviders(null, { routes, route: '/dashboard', user: person });
    await user.click(await screen.findByRole('link', { name: 'Cymraeg' }));
    await waitFor(() => expect(api.requests).toContainEqual({ method: 'PUT', path: '/profile/language', body: { language: 'cy' } }));
    expect(i18n.language).toBe('cy');
  });

  it('speaks the language on a signed-in person’s profile', async () => {
    renderWithProviders(null, { routes, route: '/', user: makeUser({ language: 'cy' }) });
    await screen.findByRole('link', { name: "Neidio i'r prif gynnwys" });
    expect(document.documentElement.lang).toBe('cy');
  });

  it('follows a link’s ?lng= first, then the kept choice, then the browser’s languages', () => {
    expect(detectLanguage({ search: '?lng=cy', cookie: 'lang=en-GB', preferred: ['en-GB'] })).toEqual({ language: 'cy', fromLink: true });
    expect(detectLanguage({ search: '', cookie: 'a=b; lang=cy', preferred: ['en-GB'] })).toEqual({ language: 'cy', fromLink: false });
    expect(detectLanguage({ search: '', cookie: '', preferred: ['fr-FR', 'cy-GB', 'en'] })).toEqual({ language: 'cy', fromLink: false });
    expect(detectLanguage({ search: '?lng=xx', cookie: 'lang=xx', preferred: ['fr'] })).toEqual({ language: 'en-GB', fromLink: false });
  });
});
