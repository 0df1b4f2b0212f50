// /auth/forgot: "Forgot password?" from the sign-in screen. Auth emails a link to
// /auth/reset, valid once for 1 hour.
import { Card, Center, Stack, Text, Title } from '@mantine/core';
import { ForgotPasswordForm } from '@/features/auth/components/ForgotPasswordForm';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function ForgotPasswordRoute() {
  const { t } = useTranslation('pages');
  return (
    <Center py="lg">
      <Stack w="100%" maw={440} gap="md">
        <PageMeta title={t('forgotPassword.title')} description={t('forgotPassword.description')} />
        <Title order={1} ta="center" size="h2">
          {t('forgotPassword.heading')}
        </Title>
        <Card withBorder padding="lg">
          <Text mb="md">{t('forgotPassword.intro')}</Text>
          <ForgotPasswordForm />
        </Card>
      </Stack>
    </Center>
  );
}
