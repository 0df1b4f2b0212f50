// /my-courses: the learner's enrolments, in progress and completed.
import { useUser } from '@/lib/auth/user';
import { MyCoursesPage } from '@/features/my-learning/components/MyCoursesPage';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function MyCoursesRoute() {
  const { t } = useTranslation('pages');
  const { data: user } = useUser();
  if (!user) return <PageSpinner label={t('myCourses.loading')} />;
  return (
    <>
      <PageMeta title={t('myCourses.title')} description={t('myCourses.description')} />
      <MyCoursesPage userId={user.id} />
    </>
  );
}
