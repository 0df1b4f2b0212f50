import { ComingSoon } from '@/components/ComingSoon';

export function CertificatesRoute() {
  return <ComingSoon title="Certificates" description="Certificates for the courses you have completed." />;
}
