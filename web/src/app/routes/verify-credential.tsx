// /verify-credential (public): anyone checks an Open Badges 3.0 credential from any issuer.
import { VerifyCredentialPage } from '@/features/credential-verify/components/VerifyCredentialPage';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function VerifyCredentialRoute() {
  const { t } = useTranslation('pages');
  return (
    <>
      <PageMeta title={t('verifyCredential.title')} description={t('verifyCredential.description')} />
      <VerifyCredentialPage />
    </>
  );
}
