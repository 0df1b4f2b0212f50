// /verify/:code (public): anyone confirms a certificate by its verification code.
import { useParams } from 'react-router';
import { VerifyCertificate } from '@/features/certificates/components/VerifyCertificate';
import { PageMeta } from '@/lib/page/page-meta';

export function VerifyRoute() {
  const { code = '' } = useParams();
  return (
    <>
      <PageMeta title="Verify certificate" description="Check that a course completion certificate is genuine and still valid." />
      <VerifyCertificate key={code} code={code} />
    </>
  );
}
