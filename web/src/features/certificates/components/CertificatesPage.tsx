// /certificates: the learner's current certificates (validity, download, verification details,
// recertification) and, below, their earlier certificates.
import { Stack, Text, Title } from '@mantine/core';
import { CertificateHistory, CertificateList } from './CertificateList';

export function CertificatesPage({ highlightId }: { highlightId?: string | null }) {
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Certificates</Title>
        <Text c="dimmed">Download your certificates, check when they expire and share their verification links.</Text>
      </div>
      <CertificateList highlightId={highlightId} />
      <CertificateHistory />
    </Stack>
  );
}
