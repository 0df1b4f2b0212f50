// /learning-record: the learner's learning record; ?user=<id> is an admin viewing a learner's (read-only).
import { useSearchParams } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { LearningRecordPage } from '@/features/learning-record/components/LearningRecordPage';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function LearningRecordRoute() {
  const { t } = useTranslation('pages');
  const [params] = useSearchParams();
  const { data: user } = useUser();
  if (!user) return <PageSpinner label={t('learningRecord.loading')} />;
  const requested = params.get('user');
  const userId = requested && requested !== user.id ? requested : null;
  return (
    <>
      <PageMeta title={userId ? t('learningRecord.titleOther') : t('learningRecord.titleOwn')} description={t('learningRecord.description')} />
      <LearningRecordPage key={userId ?? 'me'} userId={userId} />
    </>
  );
}
