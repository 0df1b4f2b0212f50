// /choose-password: a person who signed in with a temporary password (added or imported
// by an admin) chooses their own before anything else; every other page and API route waits.
import { Card, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { useUser } from '@/lib/auth/user';
import { userKeys } from '@/lib/query-keys';
import { PasswordForm } from '@/features/profile/components/PasswordForm';
import { PageSpinner } from '@/components/PageSpinner';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function ChoosePasswordRoute() {
  const { t } = useTranslation('pages');
  const { data: user } = useUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  if (!user) return <PageSpinner label={t('choosePassword.loading')} />;
  if (!user.mustChangePassword) return <Navigate to="/dashboard" replace />;
  const chosen = () => {
    const { mustChangePassword: _done, ...rest } = user;
    queryClient.setQueryData(userKeys.current, rest);
    void navigate('/dashboard', { replace: true });
  };
  return (
    <Stack gap="lg" maw={480}>
      <PageMeta title={t('choosePassword.title')} description={t('choosePassword.description')} />
      <div>
        <Title order={1}>{t('choosePassword.heading')}</Title>
        <Text c="dimmed">
          {t('choosePassword.intro')}
        </Text>
      </div>
      <Card withBorder padding="lg" radius="md" component="section" aria-label={t('choosePassword.sectionLabel')}>
        <PasswordForm onChanged={chosen} currentDescription={t('choosePassword.currentDescription')} />
      </Card>
    </Stack>
  );
}
