// Certificates tab: every issued certificate, searched on the server by learner name or
// verification code and paged; each with its validity, and Revoke with a reason (recorded in the
// Activity trail). A revoked certificate fails public verification.
import { useState } from 'react';
import { Anchor, Button, Group, Modal, Pagination, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from 'react-router';
import { type AdminCertificate, certificateRevokeSchema, REVOKE_REASON_MESSAGE } from '@shared/certificates.ts';
import { ServiceBadge } from '@/components/ServiceBadge';
import { CertificateStateBadge, validityText } from '@/components/CertificateValidity';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { formatDate } from '@/lib/format';
import { CERTIFICATES_PAGE_SIZE, useAdminCertificates, useReissueCertificate, useRevokeCertificate } from '../api/certificates';

export function CertificatesTab() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  const [revoking, setRevoking] = useState<AdminCertificate | null>(null);
  const [reissuing, setReissuing] = useState<AdminCertificate | null>(null);
  const { data, isPending, isError, error } = useAdminCertificates({ search: debounced, page });

  return (
    <Stack>
      <TextInput
        label="Search certificates"
        placeholder="Learner name or verification code"
        value={search}
        maw={420}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
      />
      {isError ? <Text c="red.8">{errorDescription(error, 'Failed to load certificates')}</Text> : null}
      {isPending ? <Text>Loading certificates…</Text> : null}
      {data && data.items.length === 0 ? (
        <Stack gap={4} py="xl" ta="center">
          <Text fw={600}>No certificates found</Text>
          <Text c="dimmed">{debounced.trim() ? 'Try another name or code.' : 'No certificate has been issued yet.'}</Text>
        </Stack>
      ) : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover aria-label="Certificates">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Learner</Table.Th>
                <Table.Th>Course</Table.Th>
                <Table.Th>Issued</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Verification code</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((c) => (
                <Table.Tr key={c.id} data-code={c.verificationCode}>
                  <Table.Td>
                    <Text fw={500}>{c.learnerName}</Text>
                    {c.learnerUsername ? <Text size="sm" c="dimmed">@{c.learnerUsername}</Text> : null}
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={4} align="flex-start">
                      {c.service ? <ServiceBadge code={c.service} /> : null}
                      <Text size="sm">{c.courseTitle}</Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td>{formatDate(c.issuedAt)}</Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      <CertificateStateBadge state={c.state} />
                      <Text size="sm">{validityText(c)}</Text>
                      {c.revokedReason ? (
                        <Text size="sm" c="dimmed">
                          {c.revokedBy ? `By ${c.revokedBy.name}: ` : ''}
                          {c.revokedReason}
                        </Text>
                      ) : null}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/verify/${c.verificationCode}`} ff="monospace" size="sm">
                      {c.verificationCode}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {c.state === 'revoked' ? null : (
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="default" onClick={() => setReissuing(c)} aria-label={`Reissue ${c.verificationCode}`}>
                          Reissue
                        </Button>
                        <Button size="xs" color="red.9" onClick={() => setRevoking(c)} aria-label={`Revoke ${c.verificationCode}`}>
                          Revoke
                        </Button>
                      </Group>
                    )}
                    {c.reissuedAt ? <Text size="xs" c="dimmed" mt={4}>Reissued {formatDate(c.reissuedAt)}</Text> : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {data && data.total > CERTIFICATES_PAGE_SIZE ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">{data.total} certificates</Text>
          <Pagination
            total={Math.ceil(data.total / CERTIFICATES_PAGE_SIZE)}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        </Group>
      ) : null}
      <RevokeDialog certificate={revoking} onClose={() => setRevoking(null)} />
      <ReissueDialog certificate={reissuing} onClose={() => setReissuing(null)} />
    </Stack>
  );
}

function RevokeDialog({ certificate, onClose }: { certificate: AdminCertificate | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const revoke = useRevokeCertificate();
  const close = () => {
    setReason('');
    setFieldError(null);
    onClose();
  };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={certificate !== null} onClose={close} title="Revoke certificate" centered>
      {certificate ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const parsed = certificateRevokeSchema.safeParse({ reason });
            if (!parsed.success) {
              setFieldError(REVOKE_REASON_MESSAGE);
              return;
            }
            revoke.mutate(
              { id: certificate.id, reason: parsed.data.reason },
              {
                onSuccess: () => {
                  notifySuccess('Certificate revoked', `${certificate.verificationCode} (${certificate.learnerName}) now fails verification.`);
                  close();
                },
                onError: (e) => {
                  if (e instanceof ApiError && e.fields?.reason) setFieldError(e.fields.reason);
                  else notifyFailure('Failed to revoke certificate', errorDescription(e, 'Failed to revoke certificate'));
                },
              },
            );
          }}
        >
          <Stack>
            <Text>
              Revoke the certificate <Text span ff="monospace" fw={600}>{certificate.verificationCode}</Text> of{' '}
              <strong>{certificate.learnerName}</strong> for {certificate.courseTitle}? It will fail verification from now on. This
              cannot be undone.
            </Text>
            <Textarea
              label="Reason"
              description="Recorded in the activity trail and shown to the learner; not shown on the public verification page."
              required
              withAsterisk={false}
              autosize
              minRows={3}
              maxLength={500}
              value={reason}
              error={fieldError}
              onChange={(e) => {
                setReason(e.currentTarget.value);
                setFieldError(null);
              }}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" color="red.9" loading={revoke.isPending}>
                Revoke certificate
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}

/** After a name correction, the same verification code with the learner's name as it is now. */
function ReissueDialog({ certificate, onClose }: { certificate: AdminCertificate | null; onClose: () => void }) {
  const reissue = useReissueCertificate();
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close dialog' }} opened={certificate !== null} onClose={onClose} title="Reissue certificate" centered>
      {certificate ? (
        <Stack>
          <Text>
            Reissue the certificate <Text span ff="monospace" fw={600}>{certificate.verificationCode}</Text> of{' '}
            <strong>{certificate.learnerName}</strong> for {certificate.courseTitle}? It keeps its verification code and dates, and
            takes the learner&apos;s name and the course title as they are now. The reissue is recorded in the activity trail.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              Cancel
            </Button>
            <Button
              loading={reissue.isPending}
              onClick={() =>
                reissue.mutate(certificate.id, {
                  onSuccess: (updated) => {
                    notifySuccess('Certificate reissued', `${updated.verificationCode} now names ${updated.learnerName}.`, { action: 'certificate' });
                    onClose();
                  },
                  onError: (e) => notifyFailure('Failed to reissue certificate', errorDescription(e, 'Failed to reissue certificate'), { action: 'certificate' }),
                })
              }
            >
              Reissue certificate
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
