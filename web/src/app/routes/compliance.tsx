// /compliance: admins and instructors only; anyone else gets the 'Access denied' toast and goes to /.
// The API refuses them too (403), whatever the screen does.
import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import { Stack, Text, Title } from '@mantine/core';
import { useUser } from '@/lib/auth/user';
import { ComplianceView } from '@/features/compliance/components/ComplianceView';
import { PageSpinner } from '@/components/PageSpinner';
import { notifyFailure } from '@/lib/notify';
import { PageMeta } from '@/lib/page/page-meta';

export function ComplianceRoute() {
  const { data: user, isPending } = useUser();
  const allowed = user?.role === 'INSTRUCTOR' || user?.role === 'ADMIN';
  const warned = useRef(false);

  useEffect(() => {
    if (!isPending && !allowed && !warned.current) {
      warned.current = true;
      notifyFailure('Access denied', 'Only instructors and administrators can see compliance.');
    }
  }, [isPending, allowed]);

  if (isPending) return <PageSpinner label="Checking your session" />;
  if (!user || !allowed) return <Navigate to="/" replace />;
  const isAdmin = user.role === 'ADMIN';
  return (
    <Stack gap="md">
      <PageMeta title="Compliance" description="Required training compliance across services and teams." />
      <div>
        <Title order={1}>Compliance</Title>
        <Text c="dimmed">
          {isAdmin
            ? 'Required training across every service: who is compliant, due soon or overdue.'
            : 'Required training of the people in your services: who is compliant, due soon or overdue.'}
        </Text>
      </div>
      <ComplianceView isAdmin={isAdmin} services={user.services} />
    </Stack>
  );
}
