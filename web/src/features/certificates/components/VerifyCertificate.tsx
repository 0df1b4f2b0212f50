// /verify/:code (public): says whether the certificate with this code is valid (until when, or that
// it does not expire), expired (since when) or revoked (on which date; the reason is not published),
// or plainly that none has the code; a form checks another code. While the learner shares the
// certificate's signed Open Badges credential, a link downloads it.
import { Alert, Anchor, Button, Card, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconBan, IconClockExclamation, IconDownload, IconRosetteDiscountCheck } from '@tabler/icons-react';
import { CertificateStateBadge } from '@/components/CertificateValidity';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { TFunction } from 'i18next';
import { Trans, useTranslation } from 'react-i18next';
import { ServiceBadge } from '@/components/ServiceBadge';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { useVerifyCertificate, type VerifiedCertificate } from '../api/verify-certificate';
import { formatDate } from '@/lib/format';
import { NotInWelsh, useLocalise } from '@/components/Localised';

const CODE_PATTERN = /^[A-Za-z0-9]{8,32}$/;

export function VerifyCertificate({ code }: { code: string }) {
  const { t } = useTranslation('certificates');
  const query = useVerifyCertificate(code);
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>{t('verify.heading')}</Title>
      {query.isPending ? (
        <PageSpinner label={t('verify.checking')} />
      ) : query.isError ? (
        <Alert color="red" title={t('verify.checkFailed')}>
          {errorDescription(query.error, t('shared.retryFallback'))}
        </Alert>
      ) : query.data ? (
        <VerifiedCard certificate={query.data} />
      ) : (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title={t('verify.notFoundTitle')}>
          <Trans t={t} i18nKey="verify.notFoundText" values={{ code }} components={{ code: <Text span ff="monospace" fw={600} /> }} />
        </Alert>
      )}
      <VerifyForm initial={code} />
      <Text size="sm">
        {t('verify.credentialHint')} <Anchor component={Link} to="/verify-credential">{t('verify.credentialLink')}</Anchor>
      </Text>
    </Stack>
  );
}

/** Heading, colour and sentence of each state: never only "genuine". */
function verdict(c: VerifiedCertificate, t: TFunction<'certificates'>) {
  switch (c.state) {
    case 'revoked':
      return {
        title: t('verify.revokedTitle'),
        colour: 'red.9',
        Icon: IconBan,
        text: t('verify.revokedText', { date: formatDate(c.revokedAt) }),
      };
    case 'expired':
      return {
        title: t('verify.expiredTitle'),
        colour: 'red.9',
        Icon: IconClockExclamation,
        text: t('verify.expiredText', { date: formatDate(c.expiresAt) }),
      };
    default:
      return {
        title: t('verify.verifiedTitle'),
        colour: 'green.9',
        Icon: IconRosetteDiscountCheck,
        text: c.expiresAt
          ? t('verify.validUntilText', { date: formatDate(c.expiresAt) })
          : t('verify.noExpiryText'),
      };
  }
}

function VerifiedCard({ certificate: c }: { certificate: VerifiedCertificate }) {
  const { t } = useTranslation('certificates');
  const { title, colour, Icon, text } = verdict(c, t);
  const course = useLocalise()(c.courseTitle, c.courseTitleCy);
  return (
    <Card withBorder padding="lg" radius="md" role="region" aria-labelledby="verified-heading" data-state={c.state}>
      <Stack gap="sm">
        <Group gap="xs">
          <Icon size={28} color={`var(--mantine-color-${colour.replace('.', '-')})`} aria-hidden />
          <Title order={2} size="h3" id="verified-heading" c={colour}>
            {title}
          </Title>
          <CertificateStateBadge state={c.state} />
        </Group>
        <Text>{text}</Text>
        <List spacing="xs" listStyleType="none" p={0}>
          <List.Item>
            <Text span c="dimmed">{t('verify.learner')} </Text>
            <strong>{c.learnerName}</strong>
          </List.Item>
          {c.organisationName ? (
            <List.Item>
              <Text span c="dimmed">{t('verify.organisation')} </Text>
              <strong>{c.organisationName}</strong>
            </List.Item>
          ) : null}
          <List.Item>
            <Text span c="dimmed">{t('verify.course')} </Text>
            <strong lang={course.lang}>{course.text}</strong>
            {course.fallback ? (
              <>
                {' '}
                <NotInWelsh />
              </>
            ) : null}
          </List.Item>
          <List.Item>
            <Text span c="dimmed">{t('verify.service')} </Text>
            {c.service ? <ServiceBadge code={c.service} full /> : t('verify.notRecorded')}
          </List.Item>
          <List.Item>
            <Text span c="dimmed">{t('verify.issuedOn')} </Text>
            <strong>{formatDate(c.issuedAt)}</strong>
          </List.Item>
          <List.Item>
            <Text span c="dimmed">{c.state === 'expired' ? t('verify.expiredOn') : t('verify.validUntil')} </Text>
            <strong>{c.expiresAt ? formatDate(c.expiresAt) : t('verify.doesNotExpire')}</strong>
          </List.Item>
          {c.revokedAt ? (
            <List.Item>
              <Text span c="dimmed">{t('verify.revokedOn')} </Text>
              <strong>{formatDate(c.revokedAt)}</strong>
            </List.Item>
          ) : null}
          <List.Item>
            <Text span c="dimmed">{t('verify.verificationCode')} </Text>
            <Text span ff="monospace" fw={600}>{c.verificationCode}</Text>
          </List.Item>
        </List>
        {c.credentialUrl ? (
          <Group gap={6}>
            <IconDownload size={18} aria-hidden />
            <Anchor href={c.credentialUrl}>{t('verify.credentialDownload')}</Anchor>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

function VerifyForm({ initial }: { initial: string }) {
  const { t } = useTranslation('certificates');
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      aria-label={t('verify.formLabel')}
      onSubmit={(event) => {
        event.preventDefault();
        const code = value.trim();
        if (!CODE_PATTERN.test(code)) {
          setError(t('verify.codeInvalid'));
          return;
        }
        setError(null);
        navigate(`/verify/${encodeURIComponent(code.toUpperCase())}`);
      }}
    >
      <Group align="flex-end">
        <TextInput
          label={t('verify.codeLabel')}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={error}
          autoComplete="off"
          style={{ flex: 1 }}
        />
        <Button type="submit" variant="default">
          {t('verify.submit')}
        </Button>
      </Group>
    </form>
  );
}
