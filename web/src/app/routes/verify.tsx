// /verify/:code (public): anyone confirms a certificate by its verification code.
import { useParams } from 'react-router';
import { PRODUCT_NAME } from '@shared/domain.ts';
import { VerifyCertificate } from '@/features/certificates/components/VerifyCertificate';

export function VerifyRoute() {
  const { code = '' } = useParams();
  return (
    <>
      <title>{`Verify certificate | ${PRODUCT_NAME}`}</title>
      <VerifyCertificate key={code} code={code} />
    </>
  );
}
