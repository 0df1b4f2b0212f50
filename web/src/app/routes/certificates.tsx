// /certificates: the learner's certificates; ?id= highlights the one opened from My Courses.
import { useSearchParams } from 'react-router';
import { CertificatesPage } from '@/features/certificates/components/CertificatesPage';
import { PageMeta } from '@/lib/page/page-meta';

export function CertificatesRoute() {
  const [params] = useSearchParams();
  return (
    <>
      <PageMeta title="Certificates" description="Your course completion certificates, to view, download and share." />
      <CertificatesPage highlightId={params.get('id')} />
    </>
  );
}
