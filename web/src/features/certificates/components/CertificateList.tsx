// The learner's current certificates as cards (the latest of each course): course, service, date,
// validity (valid until, expiring soon, expired, revoked), verification code and link, a working
// 'Download Certificate' (the PDF) and, when it is expiring or expired, 'Start recertification'.
// `highlightId` marks the one opened from My Courses. CertificateHistory lists the earlier ones.
import { Alert, Anchor, Button, Card, Group, Pagination, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { canRecertify } from '@shared/certificates.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { PageSpinner } from '@/components/PageSpinner';
import { attentionStyle, CertificateStateBadge, CertificateValidityLine, validityText } from '@/components/CertificateValidity';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { type Certificate, CERTIFICATES_PAGE_SIZE, useCertificates } from '../api/get-certificates';
import { useDownloadCertificate } from '@/lib/certificates';
import { formatDate } from '@/lib/format';
import { RecertifyButton } from '@/components/RecertifyButton';

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

function DownloadButton({ certificate: c, compact = false }: { certificate: Certificate; compact?: boolean }) {
  const download = useDownloadCertificate();
  return (
    <Button
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={download.isPending}
      size={compact ? 'xs' : undefined}
      variant={compact ? 'default' : undefined}
      aria-label={`Download Certificate: ${c.courseTitle}${compact ? ` (issued ${formatDate(c.issuedAt)})` : ''}`}
      onClick={() =>
        download.mutate(c.id, {
          onSuccess: () => notifySuccess('Certificate downloaded', `Your certificate for ${c.courseTitle} is downloading.`),
          onError: (error) => notifyFailure('Download failed', errorDescription(error, 'The certificate could not be downloaded.')),
        })
      }
    >
      {compact ? 'Download' : 'Download Certificate'}
    </Button>
  );
}

function CertificateCard({ certificate: c, highlighted, headingOrder }: { certificate: Certificate; highlighted: boolean; headingOrder: 2 | 3 }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // Opened from 'View Certificate': bring this one into view and to the keyboard.
    if (highlighted) {
      ref.current?.scrollIntoView?.({ block: 'center' });
      ref.current?.focus();
    }
  }, [highlighted]);
  const verifyUrl = `${window.location.origin}${c.verifyPath}`;
  const recertifiable = c.current && c.enrolled && !c.recertifying && c.courseId !== null && canRecertify(c.state);
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
      data-state={c.state}
      style={highlighted ? { borderColor: 'var(--mantine-color-blue-7)', borderWidth: 2 } : attentionStyle(c.state)}
    >
      <Stack gap="sm" h="100%">
        {c.service ? <ServiceBadge code={c.service} /> : null}
        <Title order={headingOrder} size="h4">
          {c.courseTitle}
        </Title>
        <CertificateValidityLine certificate={c} />
        <Text size="sm">
          Awarded to <strong>{c.learnerName}</strong> on {formatDate(c.issuedAt)}
        </Text>
        {c.state === 'revoked' && c.revokedReason ? <Text size="sm">Reason: {c.revokedReason}</Text> : null}
        {c.recertifying && c.state !== 'revoked' ? (
          <Text size="sm" c="dimmed">
            Recertification in progress: complete the course again for a new certificate.
          </Text>
        ) : null}
        <Text size="sm">
          Verification code: <Text span ff="monospace" fw={600}>{c.verificationCode}</Text>
        </Text>
        <Anchor component={Link} to={c.verifyPath} size="sm" style={{ wordBreak: 'break-all' }}>
          {verifyUrl}
        </Anchor>
        <Group mt="auto">
          {c.state === 'revoked' ? null : <DownloadButton certificate={c} />}
          {recertifiable ? <RecertifyButton courseId={c.courseId!} courseTitle={c.courseTitle} variant="outline" /> : null}
        </Group>
      </Stack>
    </Card>
  );
}

/** Earlier certificates (superseded by a later one of the same course): the learner's history. */
export function CertificateHistory({ headingOrder = 2 }: { headingOrder?: 2 | 3 }) {
  const [page, setPage] = useState(1);
  const query = useCertificates(page, CERTIFICATES_PAGE_SIZE, 'history');
  if (query.isPending || query.isError || query.data.total === 0) {
    return query.isError ? (
      <Alert color="red" title="Your earlier certificates could not be loaded">
        {errorDescription(query.error, 'Please try again.')}
      </Alert>
    ) : null;
  }
  const { items, total } = query.data;
  const pages = Math.ceil(total / CERTIFICATES_PAGE_SIZE);
  return (
    <Stack gap="sm" component="section" aria-labelledby="certificate-history-heading">
      <Title order={headingOrder} size="h3" id="certificate-history-heading">
        Earlier certificates
      </Title>
      <Text c="dimmed" size="sm">
        Certificates you held before recertifying. They stay in your record.
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Course</Table.Th>
              <Table.Th scope="col">Issued</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Verification code</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((c) => (
              <Table.Tr key={c.id} data-state={c.state}>
                <Table.Td>{c.courseTitle}</Table.Td>
                <Table.Td>{formatDate(c.issuedAt)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <CertificateStateBadge state={c.state} />
                    <Text size="sm">{validityText(c)}</Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={c.verifyPath} ff="monospace" size="sm">
                    {c.verificationCode}
                  </Anchor>
                </Table.Td>
                <Table.Td>{c.state === 'revoked' ? null : <DownloadButton certificate={c} compact />}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? (
        <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': `${control} page of earlier certificates` })} />
      ) : null}
    </Stack>
  );
}
