// The way from a finished course to its certificate: 'View certificate' (the card on
// /certificates) and 'Download PDF', on the last module, the course page and the completion toast.
// The download button stays enabled while it works (a disabled button would drop the keyboard
// focus to the page); a second press while it runs does nothing.
import { Button, Group, Loader, type MantineSize } from '@mantine/core';
import { IconCertificate, IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure } from '@/lib/notify';
import { certificatePath, useDownloadCertificate } from '@/lib/certificates';
import { useTranslation } from 'react-i18next';

export function CertificateLinks({ certificateId, size = 'sm' }: { certificateId: string; size?: MantineSize }) {
  const { t } = useTranslation();
  const download = useDownloadCertificate();
  return (
    <Group gap="sm" data-testid="certificate-links">
      <Button component={Link} to={certificatePath(certificateId)} size={size} leftSection={<IconCertificate size={16} aria-hidden />}>
        {t('certificateLinks.view')}
      </Button>
      <Button
        variant="default"
        size={size}
        leftSection={download.isPending ? <Loader size={14} aria-hidden /> : <IconDownload size={16} aria-hidden />}
        aria-busy={download.isPending || undefined}
        onClick={() => {
          if (download.isPending) return;
          download.mutate(certificateId, {
            onError: (error) => notifyFailure(t('certificateLinks.downloadFailed'), errorDescription(error, t('certificateLinks.downloadFailedDetail'))),
          });
        }}
      >
        {t('certificateLinks.download')}
      </Button>
    </Group>
  );
}
