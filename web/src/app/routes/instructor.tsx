// /instructor: instructors and admins only; anyone else gets the 'Access denied' toast and goes to /
// (specification §2, §8). The API refuses them too (403), whatever the screen does.
import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { InstructorDashboard } from '@/features/instructor/components/InstructorDashboard';
import { PageSpinner } from '@/components/PageSpinner';
import { notifyFailure } from '@/lib/notify';

export function InstructorRoute() {
  const { data: user, isPending } = useUser();
  const allowed = user?.role === 'INSTRUCTOR' || user?.role === 'ADMIN';
  const warned = useRef(false);

  useEffect(() => {
    if (!isPending && !allowed && !warned.current) {
      warned.current = true;
      notifyFailure('Access denied', "You don't have instructor permissions.");
    }
  }, [isPending, allowed]);

  if (isPending) return <PageSpinner label="Checking your session" />;
  if (!user || !allowed) return <Navigate to="/" replace />;
  return <InstructorDashboard name={user.name} isAdmin={user.role === 'ADMIN'} />;
}
