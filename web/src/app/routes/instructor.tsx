import { ComingSoon } from '@/components/ComingSoon';

export function InstructorRoute() {
  return <ComingSoon title="Instructor Dashboard" description="Your courses, quick actions and recently updated courses." />;
}
