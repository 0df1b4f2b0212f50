// The language switch in the header, before sign-in too: a link to this page in the other language
// (`?lng=cy`, which works opened in a new tab or shared), followed in place when clicked. It reads
// "Cymraeg" on English pages and "English" on Welsh ones, each in its own language (lang), as
// Welsh public services write it. A signed-in person's choice is kept on their profile; on signing
// in, the profile's language is the page's.
import { useEffect } from 'react';
import { Anchor } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { CurrentUser } from '@shared/domain.ts';
import { useUser } from '@/lib/auth/user';
import { applyLanguage, saveLanguage } from '@/lib/i18n/choose-language';
import { currentLanguage } from '@/lib/i18n/i18n';
import { LANGUAGE_PARAM, isLanguage, type Language } from '@/lib/i18n/language';
import { notifyFailure } from '@/lib/notify';
import { userKeys } from '@/lib/query-keys';

/**
 * Set when the language was chosen on this page before anyone signed in (the switch, or a link's
 * ?lng=): signing in then keeps that choice on the profile. Otherwise the profile's language is the page's.
 */
let chosenSignedOut = false;
export function markLanguageChosen(chosen = true) {
  chosenSignedOut = chosen;
}

/** The language kept on the signed-in person's profile. */
function profileLanguage(user: CurrentUser | null | undefined): Language | null {
  return isLanguage(user?.language) ? user.language : null;
}

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { data: user } = useUser();
  const queryClient = useQueryClient();
  const location = useLocation();
  const other: Language = currentLanguage() === 'cy' ? 'en-GB' : 'cy';
  const saved = profileLanguage(user);
  const userId = user?.id;

  // Signed in: the profile's language is the page's, unless it was chosen here before signing in.
  useEffect(() => {
    if (!userId || !saved) return;
    const language = currentLanguage();
    if (saved === language) return;
    if (chosenSignedOut) {
      chosenSignedOut = false;
      void saveLanguage(language).then((updated) => queryClient.setQueryData(userKeys.current, updated), () => {});
    } else {
      void applyLanguage(saved);
    }
  }, [userId, saved, queryClient]);

  const params = new URLSearchParams(location.search);
  params.set(LANGUAGE_PARAM, other);
  const href = `${location.pathname}?${params.toString()}${location.hash}`;

  async function choose(event: React.MouseEvent) {
    // A new tab or window follows the link itself.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    await applyLanguage(other);
    if (!userId) markLanguageChosen();
    else {
      try {
        const updated = await saveLanguage(other);
        queryClient.setQueryData(userKeys.current, updated);
      } catch {
        notifyFailure(t('language.saveFailed'), t('language.saveFailedDetail'));
      }
    }
  }

  return (
    <Anchor href={href} hrefLang={other} lang={other} onClick={choose} fw={600} size="sm" data-language-switch>
      {t('language.switchTo')}
    </Anchor>
  );
}
