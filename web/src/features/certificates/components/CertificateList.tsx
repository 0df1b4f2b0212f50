// The learner's certificates as cards: course, service, date, verification code and link, and a
// working 'Download Certificate' (the PDF). `highlightId` marks the one opened from My Courses.
import { Alert, Anchor, Button, Card, Group, Pagination, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ServiceBadge } from '@/components/ServiceBadge';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { type Certificate, CERTIFICATES_PAGE_SIZE, useCertificates } from '../api/get-certificates';
import { useDownloadCertificate } from '../api/download-certificate';
import { formatDate } from '@/lib/format';

export function CertificateList({ highlightId, headingOrder = 2 }: { highlightId?: string | null; headingOrder?: 2 | 3 }) {
  const [page, setPage] = useState(1);
  const query = useCertificates(page);

  if (query.isPending) return <PageSpinner label="Loading your certificates" />;
  if (query.isError) {
    return (
      <Alert color="red" title="Your certificates could not be loaded">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorDescription(query.error, 'Please try again.')}</Text>
          <Button size="xs" variant="default" onClick={() => query.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  const { items, total } = query.data;
  if (total === 0) {
    return (
      <Card withBorder padding="xl" radius="md">
        <Stack align="center" gap="sm">
          <Title order={headingOrder} size="h4">
            No certificates yet
          </Title>
          <Text c="dimmed">Complete a course to earn your first certificate.</Text>
          <Button component={Link} to="/">
            Browse Courses
          </Button>
        </Stack>
      </Card>
    );
  }
  const pages = Math.ceil(total / CERTIFICATES_PAGE_SIZE);
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {items.map((certificate) => (
          <CertificateCard key={certificate.id} certificate={certificate} highlighted={certificate.id === highlightId} headingOrder={headingOrder} />
        ))}
      </SimpleGrid>
      {pages > 1 ? (
        <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
      ) : null}
    </Stack>
  );
}

function CertificateCard({ certificate: c, highlighted, headingOrder }: { certificate: Certificate; highlighted: boolean; headingOrder: 2 | 3 }) {
  const download = useDownloadCertificate();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // Opened from 'View Certificate': bring this one into view and to the keyboard.
    if (highlighted) {
      ref.current?.scrollIntoView?.({ block: 'center' });
      ref.current?.focus();
    }
  }, [highlighted]);
  const verifyUrl = `${window.location.origin}${c.verifyPath}`;
  return (
    <Card
      ref={ref}
      withBorder
      padding="lg"
      radius="md"
      component="article"
      aria-label={`Certificate: ${c.courseTitle}`}
      tabIndex={highlighted ? -1 : undefined}
      data-highlighted={highlighted || undefined}
      style={highlighted ? { borderColor: 'var(--mantine-color-blue-7)', borderWidth: 2 } : undefined}
    >
      <Stack gap="sm" h="100%">
        {c.service ? <ServiceBadge code={c.service} /> : null}
        <Title order={headingOrder} size="h4">
          {c.courseTitle}
        </Title>
        <Text size="sm">
          Awarded to <strong>{c.learnerName}</strong> on {formatDate(c.issuedAt)}
        </Text>
        <Text size="sm">
          Verification code: <Text span ff="monospace" fw={600}>{c.verificationCode}</Text>
        </Text>
        <Anchor component={Link} to={c.verifyPath} size="sm" style={{ wordBreak: 'break-all' }}>
          {verifyUrl}
        </Anchor>
        <Group mt="auto">
          <Button
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={download.isPending}
            aria-label={`Download Certificate: ${c.courseTitle}`}
            onClick={() =>
              download.mutate(c.id, {
                onSuccess: () => notifySuccess('Certificate downloaded', `Your certificate for ${c.courseTitle} is downloading.`),
                onError: (error) => notifyFailure('Download failed', errorDescription(error, 'The certificate could not be downloaded.')),
              })
            }
          >
            Download Certificate
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
