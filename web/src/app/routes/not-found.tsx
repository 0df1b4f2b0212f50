import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function NotFoundRoute() {
  const { t } = useTranslation('pages');
  return (
    <Stack gap="md" align="flex-start">
      <PageMeta title={t('notFound.title')} description={t('notFound.description')} />
      <Title order={1}>{t('notFound.heading')}</Title>
      <Text>{t('notFound.description')}</Text>
      <Anchor component={Link} to="/">
        {t('shared.returnHome')}
      </Anchor>
    </Stack>
  );
}
