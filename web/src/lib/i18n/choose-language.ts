// Changing the page's language: the catalogues of the new language, <html lang>, the choice kept in
// the browser and, for a signed-in person, on their profile (PUT /api/profile/language), so their
// emails, certificates and records follow it too.
import type { CurrentUser } from '@shared/domain.ts';
import { api } from '@/lib/api-client';
import { i18n } from './i18n';
import { rememberLanguage, type Language } from './language';

/** Speaks `language` from now on in this browser (the page's text follows without a reload). */
export async function applyLanguage(language: Language): Promise<void> {
  rememberLanguage(language);
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

/** Keeps the choice on the person's profile. */
export async function saveLanguage(language: Language): Promise<CurrentUser> {
  return await api.put<CurrentUser>('/profile/language', { language });
}
