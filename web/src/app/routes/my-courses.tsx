import { ComingSoon } from '@/components/ComingSoon';

export function MyCoursesRoute() {
  return <ComingSoon title="My Courses" description="Your enrolled courses, in progress and completed, with your progress in each." />;
}
