// /team/:personId: one report's record, with a way back to the team. Anyone who is not the
// caller's report is "not in your team" (the server answers 404 for them).
import { Anchor, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ApiError, errorDescription } from '@/lib/api-client';
import { PageMeta } from '@/lib/page/page-meta';
import { useTeamMember } from '../api/team';
import { TeamMemberView } from './TeamMemberView';

export function TeamMemberPage({ personId }: { personId: string }) {
  const member = useTeamMember(personId);
  const notFound = member.error instanceof ApiError && member.error.status === 404;
  return (
    <Stack gap="md">
      <PageMeta title={member.data ? member.data.user.name : 'Team member'} description="A report's required training, completed courses and certificates." />
      <Anchor component={Link} to="/team" c="blue.9" size="sm">
        <IconArrowLeft size={14} aria-hidden="true" style={{ verticalAlign: 'middle' }} /> Back to My team
      </Anchor>
      {member.isPending && (
        <>
          <Title order={1}>Team member</Title>
          <Center py="xl">
            <Loader aria-label="Loading their record" />
          </Center>
        </>
      )}
      {member.isError && (
        <>
          <Title order={1}>{notFound ? 'Not in your team' : 'Team member'}</Title>
          <Text c={notFound ? undefined : 'red.9'}>
            {notFound
              ? 'This person does not report to you, so their record is not shown.'
              : errorDescription(member.error, 'Could not load their record.')}
          </Text>
        </>
      )}
      {member.data && (
        <>
          <Title order={1}>{member.data.user.name}</Title>
          <TeamMemberView record={member.data} />
        </>
      )}
    </Stack>
  );
}
