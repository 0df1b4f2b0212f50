// /verify/:code (public): says whether the certificate with this code is valid (until when, or that
// it does not expire), expired (since when) or revoked (on which date; the reason is not published),
// or plainly that none has the code; a form checks another code.
import { Alert, Button, Card, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconBan, IconClockExclamation, IconRosetteDiscountCheck } from '@tabler/icons-react';
import { CertificateStateBadge } from '@/components/CertificateValidity';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ServiceBadge } from '@/components/ServiceBadge';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { useVerifyCertificate, type VerifiedCertificate } from '../api/verify-certificate';
import { formatDate } from '@/lib/format';

const CODE_PATTERN = /^[A-Za-z0-9]{8,32}$/;

export function VerifyCertificate({ code }: { code: string }) {
  const query = useVerifyCertificate(code);
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>Certificate verification</Title>
      {query.isPending ? (
        <PageSpinner label="Checking the certificate" />
      ) : query.isError ? (
        <Alert color="red" title="The certificate could not be checked">
          {errorDescription(query.error, 'Please try again.')}
        </Alert>
      ) : query.data ? (
        <VerifiedCard certificate={query.data} />
      ) : (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Certificate not found">
          No certificate has the code <Text span ff="monospace" fw={600}>{code}</Text>. Check the code and try again.
        </Alert>
      )}
      <VerifyForm initial={code} />
    </Stack>
  );
}

/** Heading, colour and sentence of each state: never only "genuine". */
function verdict(c: VerifiedCertificate) {
  switch (c.state) {
    case 'revoked':
      return {
        title: 'Certificate revoked',
        colour: 'red.9',
        Icon: IconBan,
        text: `This certificate was issued by this platform but was revoked on ${formatDate(c.revokedAt)}. It is no longer valid.`,
      };
    case 'expired':
      return {
        title: 'Certificate expired',
        colour: 'red.9',
        Icon: IconClockExclamation,
        text: `This certificate was issued by this platform but expired on ${formatDate(c.expiresAt)}. It is no longer valid.`,
      };
    default:
      return {
        title: 'Certificate verified',
        colour: 'green.9',
        Icon: IconRosetteDiscountCheck,
        text: c.expiresAt
          ? `This certificate was issued by this platform and is valid until ${formatDate(c.expiresAt)}.`
          : 'This certificate was issued by this platform and does not expire.',
      };
  }
}

function VerifiedCard({ certificate: c }: { certificate: VerifiedCertificate }) {
  const { title, colour, Icon, text } = verdict(c);
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
            <Text span c="dimmed">Learner: </Text>
            <strong>{c.learnerName}</strong>
          </List.Item>
          {c.organisationName ? (
            <List.Item>
              <Text span c="dimmed">Organisation: </Text>
              <strong>{c.organisationName}</strong>
            </List.Item>
          ) : null}
          <List.Item>
            <Text span c="dimmed">Course: </Text>
            <strong>{c.courseTitle}</strong>
          </List.Item>
          <List.Item>
            <Text span c="dimmed">Service: </Text>
            {c.service ? <ServiceBadge code={c.service} full /> : 'Not recorded'}
          </List.Item>
          <List.Item>
            <Text span c="dimmed">Issued on: </Text>
            <strong>{formatDate(c.issuedAt)}</strong>
          </List.Item>
          <List.Item>
            <Text span c="dimmed">{c.state === 'expired' ? 'Expired on: ' : 'Valid until: '}</Text>
            <strong>{c.expiresAt ? formatDate(c.expiresAt) : 'Does not expire'}</strong>
          </List.Item>
          {c.revokedAt ? (
            <List.Item>
              <Text span c="dimmed">Revoked on: </Text>
              <strong>{formatDate(c.revokedAt)}</strong>
            </List.Item>
          ) : null}
          <List.Item>
            <Text span c="dimmed">Verification code: </Text>
            <Text span ff="monospace" fw={600}>{c.verificationCode}</Text>
          </List.Item>
        </List>
      </Stack>
    </Card>
  );
}

function VerifyForm({ initial }: { initial: string }) {
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      aria-label="Check another certificate"
      onSubmit={(event) => {
        event.preventDefault();
        const code = value.trim();
        if (!CODE_PATTERN.test(code)) {
          setError('Enter the 8 to 32 letters and digits of the verification code');
          return;
        }
        setError(null);
        navigate(`/verify/${encodeURIComponent(code.toUpperCase())}`);
      }}
    >
      <Group align="flex-end">
        <TextInput
          label="Verification code"
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={error}
          autoComplete="off"
          style={{ flex: 1 }}
        />
        <Button type="submit" variant="default">
          Verify
        </Button>
      </Group>
    </form>
  );
}
