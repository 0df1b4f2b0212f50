// /my-courses: the learner's enrolments, in progress and completed.
import { PRODUCT_NAME } from '@shared/domain.ts';
import { useUser } from '@/features/auth/api/get-user';
import { MyCoursesPage } from '@/features/my-learning/components/MyCoursesPage';
import { PageSpinner } from '@/components/PageSpinner';

export function MyCoursesRoute() {
  const { data: user } = useUser();
  if (!user) return <PageSpinner label="Loading your courses" />;
  return (
    <>
      <title>{`My Courses | ${PRODUCT_NAME}`}</title>
      <MyCoursesPage userId={user.id} />
    </>
  );
}
