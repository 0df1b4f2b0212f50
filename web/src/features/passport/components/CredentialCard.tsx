// One credential in the passport: its achievement, issuer and status, the downloads (JSON and the
// baked badge PNG), "Add to LinkedIn", the page that checks it, and the public share switch with
// its link and a copy button. The switch keeps the focus while its change is saved.
import { Anchor, Button, Card, CopyButton, Group, Loader, Stack, Switch, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { IconBrandLinkedin, IconDownload, IconPhoto } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CertificateStateBadge, CertificateValidityLine } from '@/components/CertificateValidity';
import { errorDescription } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { sharePageUrl } from '@/lib/shared-credential';
import { notifyFailure } from '@/lib/notify';
import { useDownloadBadgePng } from '../api/download-badge';
import { useDownloadCredentialJson } from '../api/download-credential';
import type { PassportCredential } from '../api/get-passport';
import { useUpdateShare } from '../api/update-share';
import { linkedInAddUrl } from '../lib/linkedin';

export function CredentialCard({ credential: c }: { credential: PassportCredential }) {
  const { t } = useTranslation('passport');
  const json = useDownloadCredentialJson();
  const png = useDownloadBadgePng();
  const share = useUpdateShare();
  const headingId = `credential-${c.id}`;
  const name = c.achievementName || c.courseTitle;
  const issuer = c.issuerName || c.issuerId;
  const failed = (error: unknown) => notifyFailure(t('card.downloadFailed'), errorDescription(error, t('card.tryAgain')), { action: 'passport-download' });
  // The link given out opens the page that checks the credential (the JSON itself stays at the API's address).
  const shareLink = c.shareEnabled && c.shareUrl ? sharePageUrl(c.shareUrl) : null;
  const linkedIn = linkedInAddUrl({
    name,
    organisation: issuer,
    issuedAt: c.issuedAt,
    validUntil: c.validUntil,
    certUrl: shareLink ?? c.verifyUrl,
    certId: c.verificationCode,
  });
  return (
    <Card withBorder padding="md" radius="md" component="article" aria-labelledby={headingId} data-credential={c.id} data-status={c.status}>
      <Stack gap="sm">
        <div>
          <Title order={3} size="h4" id={headingId}>{name}</Title>
          {c.courseTitle !== name ? <Text size="sm" c="dimmed">{t('card.course', { course: c.courseTitle })}</Text> : null}
          <Text size="sm">{t('card.issuedBy', { issuer, date: formatDate(c.issuedAt) })}</Text>
        </div>
        {c.status === 'revoked' ? (
          <Group gap="xs" wrap="wrap">
            <CertificateStateBadge state="revoked" />
            <Text size="sm" fw={600}>{t('card.revoked')}</Text>
          </Group>
        ) : (
          <CertificateValidityLine certificate={{ state: c.status, expiresAt: c.validUntil, revokedAt: null }} />
        )}
        {c.signed ? null : <Text size="sm" role="status">{t('card.signing')}</Text>}
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            disabled={!c.signed}
            leftSection={json.isPending ? <Loader size={12} aria-hidden /> : <IconDownload size={14} aria-hidden />}
            aria-busy={json.isPending || undefined}
            onClick={() => !json.isPending && json.mutate(c.id, { onError: failed })}
          >
            {t('card.downloadJson')}
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={!c.signed}
            leftSection={png.isPending ? <Loader size={12} aria-hidden /> : <IconPhoto size={14} aria-hidden />}
            aria-busy={png.isPending || undefined}
            onClick={() => !png.isPending && png.mutate(c.id, { onError: failed })}
          >
            {t('card.downloadBadge')}
          </Button>
          {c.status !== 'revoked' ? (
            <Button
              component="a"
              href={linkedIn}
              target="_blank"
              rel="noopener noreferrer"
              variant="default"
              size="xs"
              leftSection={<IconBrandLinkedin size={14} aria-hidden />}
            >
              {t('card.linkedIn')}
              <VisuallyHidden> {t('card.newWindow')}</VisuallyHidden>
            </Button>
          ) : null}
        </Group>
        <Anchor component={Link} to={`/verify/${encodeURIComponent(c.verificationCode)}`} size="sm">
          {t('card.check', { code: c.verificationCode })}
        </Anchor>
        <Switch
          label={t('card.share')}
          // The hint beside the switch rather than in its label: the switch's name stays "Public link".
          aria-describedby={`${headingId}-share-hint`}
          checked={c.shareEnabled}
          disabled={c.status === 'revoked'}
          aria-busy={share.isPending || undefined}
          onChange={(event) => {
            if (share.isPending) return;
            share.mutate(
              { id: c.id, shareEnabled: event.currentTarget.checked },
              { onError: (error) => notifyFailure(t('card.shareFailed'), errorDescription(error, t('card.tryAgain')), { action: 'passport-share' }) },
            );
          }}
        />
        <Text size="xs" c="dimmed" id={`${headingId}-share-hint`} mt={-8}>{t('card.shareHint')}</Text>
        {shareLink ? (
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput label={t('card.shareLink')} value={shareLink} readOnly style={{ flex: 1, minWidth: 0 }} onFocus={(event) => event.currentTarget.select()} />
            <CopyButton value={shareLink}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy} aria-label={t('card.copyLabel', { name })}>
                  {copied ? t('card.copied') : t('card.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
