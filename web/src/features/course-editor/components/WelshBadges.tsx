// The Welsh status an author sees: a course wholly in Welsh or English only (availableInWelsh, kept
// by the server), and a module or question with no Welsh version yet.
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** White on this green keeps 4.5:1 or more (WCAG 2.2 AA), the same as the Published status. */
const AVAILABLE_BACKGROUND = '#1b5e20';

export function CourseWelshBadge({ availableInWelsh }: { availableInWelsh: boolean }) {
  const { t } = useTranslation('course-editor');
  return availableInWelsh ? (
    <Badge variant="filled" style={{ backgroundColor: AVAILABLE_BACKGROUND, color: '#fff' }}>
      {t('welsh.available')}
    </Badge>
  ) : (
    <Badge variant="outline" color="gray.8">
      {t('welsh.englishOnly')}
    </Badge>
  );
}

export function MissingWelshBadge() {
  const { t } = useTranslation('course-editor');
  return (
    <Badge variant="outline" color="red.9">
      {t('welsh.missing')}
    </Badge>
  );
}
