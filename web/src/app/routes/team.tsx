// /team: a line manager's "My team", for anyone signed in. A person with no reports sees
// an empty team; the server decides who is on it.
import { Stack, Text, Title } from '@mantine/core';
import { TeamPage } from '@/features/my-team/components/TeamPage';
import { PageMeta } from '@/lib/page/page-meta';

export function TeamRoute() {
  return (
    <Stack gap="md">
      <PageMeta title="My team" description="The required training, certificates and last activity of the people who report to you." />
      <div>
        <Title order={1}>My team</Title>
        <Text c="dimmed">
          The people who report to you, directly or through your team: their required training, certificates expiring
          and last activity.
        </Text>
      </div>
      <TeamPage />
    </Stack>
  );
}
