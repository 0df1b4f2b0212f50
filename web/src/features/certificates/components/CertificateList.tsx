// The learner's current certificates as cards (the latest of each course): course, service, date,
// validity (valid until, expiring soon, expired, revoked), verification code and link, a working
// 'Download Certificate' (the PDF) and, when it is expiring or expired, 'Start recertification'.
// `highlightId` marks the one opened from My Courses. CertificateHistory lists the earlier ones.
import { Alert, Anchor, Button, Card, Group, Pagination, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
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
import { NotInWelsh, useLocalise } from '@/components/Localised';

export function CertificateList({ highlightId, headingOrder = 2 }: { highlightId?: string | null; headingOrder?: 2 | 3 }) {
  const { t } = useTranslation('certificates');
  const [page, setPage] = useState(1);
  const query = useCertificates(page);

  if (query.isPending) return <PageSpinner label={t('certificateList.loading')} />;
  if (query.isError) {
    return (
      <Alert color="red" title={t('certificateList.loadFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorDescription(query.error, t('shared.retryFallback'))}</Text>
          <Button size="xs" variant="default" onClick={() => query.refetch()}>
            {t('shared.tryAgain')}
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
            {t('certificateList.emptyTitle')}
          </Title>
          <Text c="dimmed">{t('certificateList.emptyText')}</Text>
          <Button component={Link} to="/">
            {t('shared.browseCourses')}
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
        <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })} />
      ) : null}
    </Stack>
  );
}

/** A certificate's course title in the reader's language: the Welsh title as issued where there is one. */
function useCertificateTitle() {
  const localise = useLocalise();
  return (c: Certificate) => localise(c.courseTitle, c.courseTitleCy);
}

function DownloadButton({ certificate: c, compact = false }: { certificate: Certificate; compact?: boolean }) {
  const { t } = useTranslation('certificates');
  const download = useDownloadCertificate();
  const title = useCertificateTitle()(c).text;
  return (
    <Button
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={download.isPending}
      size={compact ? 'xs' : undefined}
      variant={compact ? 'default' : undefined}
      aria-label={compact ? t('download.labelIssued', { course: title, date: formatDate(c.issuedAt) }) : t('download.label', { course: title })}
      onClick={() =>
        download.mutate(c.id, {
          onSuccess: () => notifySuccess(t('download.successTitle'), t('download.successMessage', { course: title })),
          onError: (error) => notifyFailure(t('download.failedTitle'), errorDescription(error, t('download.failedFallback'))),
        })
      }
    >
      {compact ? t('download.compact') : t('download.full')}
    </Button>
  );
}

function CertificateCard({ certificate: c, highlighted, headingOrder }: { certificate: Certificate; highlighted: boolean; headingOrder: 2 | 3 }) {
  const { t } = useTranslation('certificates');
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // Opened from 'View Certificate': bring this one into view and to the keyboard.
    if (highlighted) {
      ref.current?.scrollIntoView?.({ block: 'center' });
      ref.current?.focus();
    }
  }, [highlighted]);
  const title = useCertificateTitle()(c);
  const verifyUrl = `${window.location.origin}${c.verifyPath}`;
  const recertifiable = c.current && c.enrolled && !c.recertifying && c.courseId !== null && canRecertify(c.state);
  return (
    <Card
      ref={ref}
      withBorder
      padding="lg"
      radius="md"
      component="article"
      aria-label={t('certificateCard.label', { course: title.text })}
      tabIndex={highlighted ? -1 : undefined}
      data-highlighted={highlighted || undefined}
      data-state={c.state}
      style={highlighted ? { borderColor: 'var(--mantine-color-blue-7)', borderWidth: 2 } : attentionStyle(c.state)}
    >
      <Stack gap="sm" h="100%">
        {c.service ? <ServiceBadge code={c.service} /> : null}
        <Title order={headingOrder} size="h4" lang={title.lang}>
          {title.text}
        </Title>
        {title.fallback ? (
          <div>
            <NotInWelsh />
          </div>
        ) : null}
        <CertificateValidityLine certificate={c} />
        <Text size="sm">
          <Trans
            t={t}
            i18nKey="certificateCard.awardedTo"
            values={{ name: c.learnerName, date: formatDate(c.issuedAt) }}
            components={{ strong: <strong /> }}
          />
        </Text>
        {c.state === 'revoked' && c.revokedReason ? <Text size="sm">{t('certificateCard.reason', { reason: c.revokedReason })}</Text> : null}
        {c.recertifying && c.state !== 'revoked' ? (
          <Text size="sm" c="dimmed">
            {t('certificateCard.recertifying')}
          </Text>
        ) : null}
        <Text size="sm">
          <Trans
            t={t}
            i18nKey="certificateCard.verificationCode"
            values={{ code: c.verificationCode }}
            components={{ code: <Text span ff="monospace" fw={600} /> }}
          />
        </Text>
        <Anchor component={Link} to={c.verifyPath} size="sm" style={{ wordBreak: 'break-all' }}>
          {verifyUrl}
        </Anchor>
        <Group mt="auto">
          {c.state === 'revoked' ? null : <DownloadButton certificate={c} />}
          {recertifiable ? <RecertifyButton courseId={c.courseId!} courseTitle={title.text} variant="outline" /> : null}
        </Group>
      </Stack>
    </Card>
  );
}

/** Earlier certificates (superseded by a later one of the same course): the learner's history. */
export function CertificateHistory({ headingOrder = 2 }: { headingOrder?: 2 | 3 }) {
  const { t } = useTranslation('certificates');
  const [page, setPage] = useState(1);
  const query = useCertificates(page, CERTIFICATES_PAGE_SIZE, 'history');
  const titleOf = useCertificateTitle();
  if (query.isPending || query.isError || query.data.total === 0) {
    return query.isError ? (
      <Alert color="red" title={t('certificateHistory.loadFailed')}>
        {errorDescription(query.error, t('shared.retryFallback'))}
      </Alert>
    ) : null;
  }
  const { items, total } = query.data;
  const pages = Math.ceil(total / CERTIFICATES_PAGE_SIZE);
  return (
    <Stack gap="sm" component="section" aria-labelledby="certificate-history-heading">
      <Title order={headingOrder} size="h3" id="certificate-history-heading">
        {t('certificateHistory.heading')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('certificateHistory.intro')}
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('certificateHistory.course')}</Table.Th>
              <Table.Th scope="col">{t('certificateHistory.issued')}</Table.Th>
              <Table.Th scope="col">{t('certificateHistory.status')}</Table.Th>
              <Table.Th scope="col">{t('certificateHistory.verificationCode')}</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('certificateHistory.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((c) => (
              <Table.Tr key={c.id} data-state={c.state}>
                <Table.Td>
                  <span lang={titleOf(c).lang}>{titleOf(c).text}</span>
                  {titleOf(c).fallback ? (
                    <>
                      {' '}
                      <NotInWelsh />
                    </>
                  ) : null}
                </Table.Td>
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
        <Pagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': t(`historyPagination.${control}`) })} />
      ) : null}
    </Stack>
  );
}
