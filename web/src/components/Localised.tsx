// Course content in the reader's language: an author may give a course, its modules and its
// questions a Welsh version beside the English. A Welsh reader sees the Welsh where it exists; where
// it does not, the English, marked "Not available in Welsh" and in lang="en-GB" (so a screen reader
// reads it with an English voice). An English reader always sees the English.
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/lib/i18n/i18n';
import type { Language } from '@/lib/i18n/language';

export interface Localised {
  text: string;
  /** The language the text is in. */
  lang: Language;
  /** A Welsh reader is shown the English: no Welsh version exists. */
  fallback: boolean;
}

/** The text to show of an English original and its Welsh version (null or empty when there is none). */
export function localise(english: string, welsh: string | null | undefined, language: Language = currentLanguage()): Localised {
  if (language === 'cy') {
    if (welsh && welsh.trim() !== '') return { text: welsh, lang: 'cy', fallback: false };
    return { text: english, lang: 'en-GB', fallback: true };
  }
  return { text: english, lang: 'en-GB', fallback: false };
}

/** The hook form: re-renders when the language changes. */
export function useLocalise() {
  const { i18n } = useTranslation();
  const language: Language = i18n.language === 'cy' ? 'cy' : 'en-GB';
  return (english: string, welsh: string | null | undefined) => localise(english, welsh, language);
}

/** The marker beside content shown in English to a Welsh reader. */
export function NotInWelsh() {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color="gray.8" radius="sm" tt="none" data-not-in-welsh style={{ minWidth: 'max-content' }}>
      {t('content.notInWelsh')}
    </Badge>
  );
}

/** Stands for a localised text in a message, to be put in by <Interpolated />: t('quiz.title', { title: SLOT }). */
export const SLOT = '\uE000';

/**
 * A message with a course text in it ("Quiz: {{title}}"), the text in its own lang="en-GB" span where a
 * Welsh reader is shown the English; otherwise the plain message.
 */
export function Interpolated({ message, value }: { message: string; value: Localised }) {
  const at = message.indexOf(SLOT);
  if (at < 0) return <>{message}</>;
  if (!value.fallback) return <>{message.replace(SLOT, value.text)}</>;
  return (
    <>
      {message.slice(0, at)}
      <span lang={value.lang}>{value.text}</span>
      {message.slice(at + SLOT.length)}
    </>
  );
}
