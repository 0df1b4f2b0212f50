// /profile: the signed-in user's account details, password and notification preferences.
import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useUser } from '@/lib/auth/user';
import { userKeys } from '@/lib/query-keys';
import { PasswordForm } from '@/features/profile/components/PasswordForm';
import { ProfileForm } from '@/features/profile/components/ProfileForm';
import { LinkOrganisationSignIn } from '@/features/profile/components/LinkOrganisationSignIn';
import { NotificationPreferencesForm } from '@/features/notifications/components/NotificationPreferencesForm';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function ProfileRoute() {
  const { t } = useTranslation('pages');
  const { data: user } = useUser();
  const queryClient = useQueryClient();
  if (!user) return <PageSpinner label={t('profile.loading')} />;
  return (
    <Stack gap="lg">
      <PageMeta title={t('profile.title')} description={t('profile.description')} />
      <div>
        <Title order={1}>{t('profile.title')}</Title>
        <Text c="dimmed">{t('profile.intro')}</Text>
      </div>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="account-heading">
          <Title order={2} size="h3" id="account-heading" mb="md">
            {t('profile.accountDetails')}
          </Title>
          <ProfileForm user={user} onSaved={(saved) => queryClient.setQueryData(userKeys.current, saved)} />
        </Card>
        <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="password-heading">
          <Title order={2} size="h3" id="password-heading" mb="md">
            {t('profile.changePassword')}
          </Title>
          <PasswordForm />
        </Card>
      </SimpleGrid>
      <LinkOrganisationSignIn email={user.email} />
      <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="notifications-preferences-heading">
        <Title order={2} size="h3" id="notifications-preferences-heading" mb="md">
          {t('profile.notifications')}
        </Title>
        <NotificationPreferencesForm userId={user.id} />
      </Card>
    </Stack>
  );
}
