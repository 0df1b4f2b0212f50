// /certificates: every certificate of the learner, with download and verification details.
import { Stack, Text, Title } from '@mantine/core';
import { CertificateList } from './CertificateList';

export function CertificatesPage({ highlightId }: { highlightId?: string | null }) {
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Certificates</Title>
        <Text c="dimmed">Download your certificates and share their verification links.</Text>
      </div>
      <CertificateList highlightId={highlightId} />
    </Stack>
  );
}
