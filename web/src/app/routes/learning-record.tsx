// /learning-record: the learner's learning record; ?user=<id> is an admin viewing a learner's (read-only).
import { useSearchParams } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { LearningRecordPage } from '@/features/learning-record/components/LearningRecordPage';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';

export function LearningRecordRoute() {
  const [params] = useSearchParams();
  const { data: user } = useUser();
  if (!user) return <PageSpinner label="Loading your learning record" />;
  const requested = params.get('user');
  const userId = requested && requested !== user.id ? requested : null;
  return (
    <>
      <PageMeta title={userId ? 'Learning record' : 'My learning record'} description="Every course started and completed, with dates and certificates." />
      <LearningRecordPage key={userId ?? 'me'} userId={userId} />
    </>
  );
}
