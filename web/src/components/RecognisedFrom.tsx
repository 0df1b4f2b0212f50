// Where a required course counts as done through a recognised credential of another issuer: the
// achievement, its issuer, whether it came from the person's upload or from their certificate of
// another organisation here, and until when it counts (compliance, My team, the learner's list).
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RecognisedOrigin } from '@shared/recognition.ts';
import { formatDate } from '@/lib/format';

export function RecognisedFrom({ origin }: { origin: RecognisedOrigin }) {
  const { t } = useTranslation();
  const values = { achievement: origin.achievementName, issuer: origin.issuerName, date: formatDate(origin.validUntil) };
  return (
    <Text size="xs" data-recognised-from={origin.source} mt={2}>
      {origin.validUntil ? t('recognisedFrom.until', values) : t('recognisedFrom.noExpiry', values)}
      {' '}
      {t(`recognisedFrom.${origin.source}`)}
    </Text>
  );
}
