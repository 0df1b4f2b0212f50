// /team/:personId: one report's record, with a way back to the team. Anyone who is not the
// caller's report is "not in your team" (the server answers 404 for them).
import { Anchor, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError, errorDescription } from '@/lib/api-client';
import { PageMeta } from '@/lib/page/page-meta';
import { useTeamMember } from '../api/team';
import { TeamMemberView } from './TeamMemberView';

export function TeamMemberPage({ personId }: { personId: string }) {
  const { t } = useTranslation('my-team');
  const member = useTeamMember(personId);
  const notFound = member.error instanceof ApiError && member.error.status === 404;
  return (
    <Stack gap="md">
      <PageMeta title={member.data ? member.data.user.name : t('teamMemberPage.title')} description={t('teamMemberPage.description')} />
      <Anchor component={Link} to="/team" c="blue.9" size="sm">
        <IconArrowLeft size={14} aria-hidden="true" style={{ verticalAlign: 'middle' }} /> {t('teamMemberPage.back')}
      </Anchor>
      {member.isPending && (
        <>
          <Title order={1}>{t('teamMemberPage.title')}</Title>
          <Center py="xl">
            <Loader aria-label={t('teamMemberPage.loading')} />
          </Center>
        </>
      )}
      {member.isError && (
        <>
          <Title order={1}>{notFound ? t('teamMemberPage.notInTeam') : t('teamMemberPage.title')}</Title>
          <Text c={notFound ? undefined : 'red.9'}>
            {notFound ? t('teamMemberPage.notInTeamText') : errorDescription(member.error, t('teamMemberPage.loadFailed'))}
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
