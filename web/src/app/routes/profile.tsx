import { ComingSoon } from '@/components/ComingSoon';

export function ProfileRoute() {
  return <ComingSoon title="Profile" description="Your account details." />;
}
