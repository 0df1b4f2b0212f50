// The 'Required training' tab of the admin dashboard and the instructor area: the rules, and the way
// to the compliance view they feed.
import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { PageSpinner } from '@/components/PageSpinner';
import { RequiredTrainingManager } from './RequiredTrainingManager';

export function RequiredTrainingTab() {
  const { data: user } = useUser();
  if (!user) return <PageSpinner label="Loading required training" />;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed">Courses that roles and services must complete, and by when.</Text>
        <Button component={Link} to="/compliance" variant="default">
          View compliance
        </Button>
      </Group>
      <RequiredTrainingManager user={user} />
    </Stack>
  );
}
