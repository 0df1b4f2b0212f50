// /certificates: the learner's certificates; ?id= highlights the one opened from My Courses.
import { useSearchParams } from 'react-router';
import { CertificatesPage } from '@/features/certificates/components/CertificatesPage';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function CertificatesRoute() {
  const { t } = useTranslation('pages');
  const [params] = useSearchParams();
  return (
    <>
      <PageMeta title={t('certificates.title')} description={t('certificates.description')} />
      <CertificatesPage highlightId={params.get('id')} />
    </>
  );
}
