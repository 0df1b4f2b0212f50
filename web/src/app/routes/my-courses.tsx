// /my-courses: the learner's enrolments, in progress and completed.
import { useUser } from '@/lib/auth/user';
import { MyCoursesPage } from '@/features/my-learning/components/MyCoursesPage';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';

export function MyCoursesRoute() {
  const { data: user } = useUser();
  if (!user) return <PageSpinner label="Loading your courses" />;
  return (
    <>
      <PageMeta title="My Courses" description="The courses you are enrolled on and your progress in each." />
      <MyCoursesPage userId={user.id} />
    </>
  );
}
