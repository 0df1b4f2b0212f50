// The languages a person reads the platform in (profiles.language): English and Welsh (Cymraeg).
// The web app's switch and everything the server writes for a person (emails, certificates, the
// learning record, CSV headers) follow the person's choice.
// No zod here: the web app's first page reads these, and zod is not part of it.

export const LANGUAGES = ['en-GB', 'cy'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en-GB';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** A stored or sent value as a language: anything unknown reads as English. */
export function toLanguage(value: unknown): Language {
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

/**
 * A BCP 47 tag from elsewhere (SCIM's preferredLanguage, an Accept-Language entry) as one of ours:
 * Welsh in any region (`cy`, `cy-GB`, `CY_gb`) is Welsh, anything else English.
 */
export function languageFromTag(tag: unknown): Language {
  return typeof tag === 'string' && /^cy(?:[-_][a-z0-9]+)*$/i.test(tag.trim()) ? 'cy' : DEFAULT_LANGUAGE;
}

export const LANGUAGE_MESSAGE = 'Language must be en-GB or cy';
