import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Full-area spinner with an accessible name, shown while a page or the session loads. */
export function PageSpinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center mih={240} role="status" aria-live="polite">
      {/* role img: an aria-label on a role-less element is not allowed (axe aria-prohibited-attr, serious). */}
      <Loader role="img" aria-label={label ?? t('loading')} />
    </Center>
  );
}
