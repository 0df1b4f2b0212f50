// The 'Required training' tab of the admin dashboard and the instructor area: the rules, and the way
// to the compliance view they feed.
import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useUser } from '@/lib/auth/user';
import { PageSpinner } from '@/components/PageSpinner';
import { RequiredTrainingManager } from './RequiredTrainingManager';

export function RequiredTrainingTab() {
  const { t } = useTranslation('required-training');
  const { data: user } = useUser();
  if (!user) return <PageSpinner label={t('requiredTrainingTab.loading')} />;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed">{t('requiredTrainingTab.intro')}</Text>
        <Button component={Link} to="/compliance" variant="default">
          {t('requiredTrainingTab.viewCompliance')}
        </Button>
      </Group>
      <RequiredTrainingManager user={user} />
    </Stack>
  );
}
