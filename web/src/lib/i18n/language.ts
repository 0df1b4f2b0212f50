// The two languages of the product and how a page knows which one to speak: a link's `?lng=`
// first (pages in the other language are reachable by link), then the choice kept in the browser
// (a cookie, which the page renderer on the server reads too), then the browser's own languages.
// A signed-in person's choice is also kept on their profile (useProfileLanguage).
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@shared/language.ts';

export { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language };

/** The query parameter of a link to a page in a given language. */
export const LANGUAGE_PARAM = 'lng';
/** The cookie that keeps the choice in the browser (read by platform/page-render.mjs as well). */
export const LANGUAGE_COOKIE = 'lang';

/** A language tag as a browser or a link writes it (`cy`, `cy-GB`, `en`, `en-US`) as one of ours, or null. */
export function languageOf(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase();
  if (lower === 'cy' || lower.startsWith('cy-')) return 'cy';
  if (lower === 'en' || lower.startsWith('en-')) return 'en-GB';
  return null;
}

/** The language named by a `Cookie` header or document.cookie, or null. */
export function languageOfCookie(cookie: string | null | undefined): Language | null {
  const match = /(?:^|;\s*)lang=([^;]*)/.exec(cookie ?? '');
  const value = match ? decodeURIComponent(match[1]!) : null;
  return isLanguage(value) ? value : null;
}

export interface LanguageSources {
  /** location.search */
  search?: string;
  /** document.cookie, or a request's Cookie header */
  cookie?: string | null;
  /** navigator.languages, or a request's Accept-Language in order */
  preferred?: readonly string[];
}

/** Which language a page is in, and whether a link asked for it. */
export function detectLanguage({ search = '', cookie, preferred = [] }: LanguageSources): { language: Language; fromLink: boolean } {
  const linked = languageOf(new URLSearchParams(search).get(LANGUAGE_PARAM));
  if (linked) return { language: linked, fromLink: true };
  const kept = languageOfCookie(cookie);
  if (kept) return { language: kept, fromLink: false };
  for (const tag of preferred) {
    const language = languageOf(tag);
    if (language) return { language, fromLink: false };
  }
  return { language: DEFAULT_LANGUAGE, fromLink: false };
}

/** The languages of an Accept-Language header, most wanted first. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q) : 1 };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q)
    .map((entry) => entry.tag);
}

/** Keeps the choice in the browser for a year. */
export function rememberLanguage(language: Language): void {
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
}
