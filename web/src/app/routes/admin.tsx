import { ComingSoon } from '@/components/ComingSoon';

export function AdminRoute() {
  return <ComingSoon title="Admin Dashboard" description="Manage users, courses, role and service permissions, and system settings." />;
}
