// /course-manager: instructors (their own courses) and admins (every course); anyone else sees
// 'Access Denied'. The API and RLS refuse them anyway.
import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SERVICE_CODES } from '@shared/services.ts';
import { useUser } from '@/lib/auth/user';
import { CourseManager } from '@/features/course-manager/components/CourseManager';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';

export function CourseManagerRoute() {
  const { data: user, isPending } = useUser();
  if (isPending) return <PageSpinner label="Checking your session" />;
  if (user?.role !== 'ADMIN' && user?.role !== 'INSTRUCTOR') {
    return (
      <Stack align="center" py="xl" gap="md">
        <PageMeta title="Access Denied" description="You do not have permission to access the course manager." />
        <Title order={1}>Access Denied</Title>
        <Text>You do not have permission to access the course manager.</Text>
        <Button component={Link} to="/">
          Return to Home
        </Button>
      </Stack>
    );
  }
  const isAdmin = user.role === 'ADMIN';
  // Instructors create courses only in their services (enforced by RLS); admins in any.
  return <CourseManager isAdmin={isAdmin} services={isAdmin ? SERVICE_CODES : user.services} />;
}
