// Certificates tab: every issued certificate, searched on the server by learner name or
// verification code and paged; each with its validity, and Revoke with a reason (recorded in the
// Activity trail). A revoked certificate fails public verification.
import { useState } from 'react';
import { Anchor, Button, Group, Modal, Pagination, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from 'react-router';
import { type AdminCertificate, certificateRevokeSchema } from '@shared/certificates.ts';
import { Trans, useTranslation } from 'react-i18next';
import { ServiceBadge } from '@/components/ServiceBadge';
import { CertificateStateBadge, validityText } from '@/components/CertificateValidity';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { formatDate } from '@/lib/format';
import { CERTIFICATES_PAGE_SIZE, useAdminCertificates, useReissueCertificate, useRevokeCertificate } from '../api/certificates';
import { pagerControlLabel } from './UsersTab';

export function CertificatesTab() {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  const [revoking, setRevoking] = useState<AdminCertificate | null>(null);
  const [reissuing, setReissuing] = useState<AdminCertificate | null>(null);
  const { data, isPending, isError, error } = useAdminCertificates({ search: debounced, page });

  return (
    <Stack>
      <TextInput
        label={t('certificatesTab.search')}
        placeholder={t('certificatesTab.searchPlaceholder')}
        value={search}
        maw={420}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
      />
      {isError ? <Text c="red.8">{errorDescription(error, t('certificatesTab.loadFailed'))}</Text> : null}
      {isPending ? <Text>{t('certificatesTab.loading')}</Text> : null}
      {data && data.items.length === 0 ? (
        <Stack gap={4} py="xl" ta="center">
          <Text fw={600}>{t('certificatesTab.noCertificates')}</Text>
          <Text c="dimmed">{debounced.trim() ? t('certificatesTab.tryAnother') : t('certificatesTab.noneIssued')}</Text>
        </Stack>
      ) : null}
      {data && data.items.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover aria-label={t('certificatesTab.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('certificatesTab.columns.learner')}</Table.Th>
                <Table.Th>{t('certificatesTab.columns.course')}</Table.Th>
                <Table.Th>{t('certificatesTab.columns.issued')}</Table.Th>
                <Table.Th>{t('certificatesTab.columns.status')}</Table.Th>
                <Table.Th>{t('certificatesTab.columns.code')}</Table.Th>
                <Table.Th>{t('certificatesTab.columns.actions')}</Table.Th>
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
                          {c.revokedBy ? t('certificatesTab.revokedBy', { name: c.revokedBy.name, reason: c.revokedReason }) : c.revokedReason}
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
                        <Button size="xs" variant="default" onClick={() => setReissuing(c)} aria-label={t('certificatesTab.reissueCode', { code: c.verificationCode })}>
                          {t('certificatesTab.reissue')}
                        </Button>
                        <Button size="xs" color="red.9" onClick={() => setRevoking(c)} aria-label={t('certificatesTab.revokeCode', { code: c.verificationCode })}>
                          {t('certificatesTab.revoke')}
                        </Button>
                      </Group>
                    )}
                    {c.reissuedAt ? <Text size="xs" c="dimmed" mt={4}>{t('certificatesTab.reissuedOn', { date: formatDate(c.reissuedAt) })}</Text> : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {data && data.total > CERTIFICATES_PAGE_SIZE ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">{t('certificatesTab.total', { count: data.total })}</Text>
          <Pagination
            total={Math.ceil(data.total / CERTIFICATES_PAGE_SIZE)}
            value={page}
            onChange={setPage}
            getControlProps={pagerControlLabel(t)}
          />
        </Group>
      ) : null}
      <RevokeDialog certificate={revoking} onClose={() => setRevoking(null)} />
      <ReissueDialog certificate={reissuing} onClose={() => setReissuing(null)} />
    </Stack>
  );
}

function RevokeDialog({ certificate, onClose }: { certificate: AdminCertificate | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const revoke = useRevokeCertificate();
  const close = () => {
    setReason('');
    setFieldError(null);
    onClose();
  };
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('userDialogs.closeDialog') }}
      opened={certificate !== null}
      onClose={close}
      title={t('certificatesTab.revokeTitle')}
      centered
    >
      {certificate ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const parsed = certificateRevokeSchema.safeParse({ reason });
            if (!parsed.success) {
              setFieldError(t('certificatesTab.reasonRequired'));
              return;
            }
            revoke.mutate(
              { id: certificate.id, reason: parsed.data.reason },
              {
                onSuccess: () => {
                  notifySuccess(t('certificatesTab.revoked'), t('certificatesTab.revokedMessage', { code: certificate.verificationCode, learner: certificate.learnerName }));
                  close();
                },
                onError: (e) => {
                  if (e instanceof ApiError && e.fields?.reason) setFieldError(e.fields.reason);
                  else notifyFailure(t('certificatesTab.revokeFailed'), errorDescription(e, t('certificatesTab.revokeFailed')));
                },
              },
            );
          }}
        >
          <Stack>
            <Text>
              <Trans
                t={t}
                i18nKey="certificatesTab.revokeConfirm"
                values={{ code: certificate.verificationCode, learner: certificate.learnerName, course: certificate.courseTitle }}
                components={[<Text key="code" span ff="monospace" fw={600} />, <strong key="learner" />]}
              />
            </Text>
            <Textarea
              label={t('certificatesTab.reason')}
              description={t('certificatesTab.reasonDescription')}
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
                {t('userDialogs.cancel')}
              </Button>
              <Button type="submit" color="red.9" loading={revoke.isPending}>
                {t('certificatesTab.revokeTitle')}
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
  const { t } = useTranslation('admin');
  const reissue = useReissueCertificate();
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('userDialogs.closeDialog') }}
      opened={certificate !== null}
      onClose={onClose}
      title={t('certificatesTab.reissueTitle')}
      centered
    >
      {certificate ? (
        <Stack>
          <Text>
            <Trans
              t={t}
              i18nKey="certificatesTab.reissueConfirm"
              values={{ code: certificate.verificationCode, learner: certificate.learnerName, course: certificate.courseTitle }}
              components={[<Text key="code" span ff="monospace" fw={600} />, <strong key="learner" />]}
            />
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              {t('userDialogs.cancel')}
            </Button>
            <Button
              loading={reissue.isPending}
              onClick={() =>
                reissue.mutate(certificate.id, {
                  onSuccess: (updated) => {
                    notifySuccess(t('certificatesTab.reissued'), t('certificatesTab.reissuedMessage', { code: updated.verificationCode, learner: updated.learnerName }), { action: 'certificate' });
                    onClose();
                  },
                  onError: (e) => notifyFailure(t('certificatesTab.reissueFailed'), errorDescription(e, t('certificatesTab.reissueFailed')), { action: 'certificate' }),
                })
              }
            >
              {t('certificatesTab.reissueTitle')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
