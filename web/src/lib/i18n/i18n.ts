// The web app's translations: one i18next instance, its message catalogues in web/src/locales/<language>/<namespace>.json.
// Each catalogue is a chunk of its own, loaded when a screen first asks for its namespace, and only in
// the page's language: a Welsh reader never downloads the English, nor an English reader the Welsh.
// Plurals follow Intl.PluralRules (Welsh has six forms: _zero, _one, _two, _few, _many, _other).
// The build-time and on-request render (web/src/prerender.tsx) gives the catalogues up front instead.
import i18next, { type BackendModule, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, isLanguage, type Language } from './language';

export const i18n = i18next.createInstance();

/** The namespace every screen shares: the frame, shared components, common words. */
export const COMMON_NAMESPACE = 'common';

type Catalogue = { default: Record<string, unknown> };
const catalogues = import.meta.glob<Catalogue>('../../locales/*/*.json');

const lazyCatalogues: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = catalogues[`../../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No catalogue ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (catalogue) => callback(null, catalogue.default),
      (error: Error) => callback(error, false),
    );
  },
};

const options = (language: Language) => ({
  lng: language,
  supportedLngs: [...LANGUAGES],
  // No fallback language: a missing Welsh message is a failing test (web/src/locales/catalogues.test.ts),
  // and a fallback would load the English catalogues beside the Welsh.
  fallbackLng: false as const,
  load: 'currentOnly' as const,
  ns: [COMMON_NAMESPACE],
  defaultNS: COMMON_NAMESPACE,
  // React escapes what it renders.
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: true },
});

/** Starts translations in the browser, with the common catalogue of `language` loaded. */
export async function startTranslations(language: Language): Promise<void> {
  if (i18n.isInitialized) return;
  i18n.use(lazyCatalogues).use(initReactI18next);
  await i18n.init(options(language));
}

/** Starts translations with every catalogue given (the server's render, and the unit tests). */
export function startTranslationsWith(language: Language, resources: Resource): void {
  if (i18n.isInitialized) return;
  i18n.use(initReactI18next);
  void i18n.init({ ...options(language), resources, initAsync: false, partialBundledLanguages: false });
}

/** The language the app speaks now. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}
