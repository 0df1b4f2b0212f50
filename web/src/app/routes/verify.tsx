// /verify/:code (public): anyone confirms a certificate by its verification code.
import { useParams } from 'react-router';
import { VerifyCertificate } from '@/features/certificates/components/VerifyCertificate';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function VerifyRoute() {
  const { t } = useTranslation('pages');
  const { code = '' } = useParams();
  return (
    <>
      <PageMeta title={t('verify.title')} description={t('verify.description')} />
      <VerifyCertificate key={code} code={code} />
    </>
  );
}
