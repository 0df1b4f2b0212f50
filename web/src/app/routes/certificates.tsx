// /certificates: the learner's certificates; ?id= highlights the one opened from My Courses.
import { useSearchParams } from 'react-router';
import { PRODUCT_NAME } from '@shared/domain.ts';
import { CertificatesPage } from '@/features/certificates/components/CertificatesPage';

export function CertificatesRoute() {
  const [params] = useSearchParams();
  return (
    <>
      <title>{`Certificates | ${PRODUCT_NAME}`}</title>
      <CertificatesPage highlightId={params.get('id')} />
    </>
  );
}
