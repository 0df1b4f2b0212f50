import { ComingSoon } from '@/components/ComingSoon';

export function CourseManagerRoute() {
  return <ComingSoon title="Course Manager" description="Create, edit and delete courses (instructors and administrators)." />;
}
