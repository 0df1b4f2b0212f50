// /verify/:code (public): confirms a certificate by its code, or says plainly that none has it; a
// form checks another code.
import { Alert, Button, Card, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconRosetteDiscountCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ServiceBadge } from '@/components/ServiceBadge';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { useVerifyCertificate } from '../api/verify-certificate';
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
        <Card withBorder padding="lg" radius="md" role="region" aria-labelledby="verified-heading">
          <Stack gap="sm">
            <Group gap="xs">
              <IconRosetteDiscountCheck size={28} color="var(--mantine-color-green-8)" aria-hidden />
              <Title order={2} size="h3" id="verified-heading" c="green.9">
                Certificate verified
              </Title>
            </Group>
            <Text>This certificate is genuine and was issued by this platform.</Text>
            <List spacing="xs" listStyleType="none" p={0}>
              <List.Item>
                <Text span c="dimmed">Learner: </Text>
                <strong>{query.data.learnerName}</strong>
              </List.Item>
              <List.Item>
                <Text span c="dimmed">Course: </Text>
                <strong>{query.data.courseTitle}</strong>
              </List.Item>
              <List.Item>
                <Text span c="dimmed">Service: </Text>
                {query.data.service ? <ServiceBadge code={query.data.service} full /> : 'Not recorded'}
              </List.Item>
              <List.Item>
                <Text span c="dimmed">Issued on: </Text>
                <strong>{formatDate(query.data.issuedAt)}</strong>
              </List.Item>
              <List.Item>
                <Text span c="dimmed">Verification code: </Text>
                <Text span ff="monospace" fw={600}>{query.data.verificationCode}</Text>
              </List.Item>
            </List>
          </Stack>
        </Card>
      ) : (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Certificate not found">
          No certificate has the code <Text span ff="monospace" fw={600}>{code}</Text>. Check the code and try again.
        </Alert>
      )}
      <VerifyForm initial={code} />
    </Stack>
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
