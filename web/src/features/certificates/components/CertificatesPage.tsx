// /certificates: the learner's current certificates (validity, download, verification details,
// recertification) and, below, their earlier certificates.
import { Stack, Text, Title } from '@mantine/core';
import { CertificateHistory, CertificateList } from './CertificateList';
import { useTranslation } from 'react-i18next';

export function CertificatesPage({ highlightId }: { highlightId?: string | null }) {
  const { t } = useTranslation('certificates');
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('certificatesPage.heading')}</Title>
        <Text c="dimmed">{t('certificatesPage.intro')}</Text>
      </div>
      <CertificateList highlightId={highlightId} />
      <CertificateHistory />
    </Stack>
  );
}
