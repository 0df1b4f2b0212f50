import { ComingSoon } from '@/components/ComingSoon';

export function DashboardRoute() {
  return <ComingSoon title="Learner Dashboard" description="An overview of your learning: courses in progress, completed courses and certificates." />;
}
