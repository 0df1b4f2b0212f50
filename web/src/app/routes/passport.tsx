// /passport: the learner's training passport, their credentials and those they hold from other issuers.
import { PassportPage } from '@/features/passport/components/PassportPage';
import { PageSpinner } from '@/components/PageSpinner';
import { useUser } from '@/lib/auth/user';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function PassportRoute() {
  const { t } = useTranslation('pages');
  const { data: user } = useUser();
  return (
    <>
      <PageMeta title={t('passport.title')} description={t('passport.description')} />
      {user ? <PassportPage userId={user.id} /> : <PageSpinner />}
    </>
  );
}
