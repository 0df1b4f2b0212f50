// /auth/forgot: "Forgot password?" from the sign-in screen. Auth emails a link to
// /auth/reset, valid once for 1 hour.
import { Card, Center, Stack, Text, Title } from '@mantine/core';
import { ForgotPasswordForm } from '@/features/auth/components/ForgotPasswordForm';
import { PageMeta } from '@/lib/page/page-meta';

export function ForgotPasswordRoute() {
  return (
    <Center py="lg">
      <Stack w="100%" maw={440} gap="md">
        <PageMeta title="Forgot password" description="Ask for a link to choose a new password for your account." />
        <Title order={1} ta="center" size="h2">
          Forgot your password?
        </Title>
        <Card withBorder padding="lg">
          <Text mb="md">Enter the email address of your account and we will send you a link to choose a new password.</Text>
          <ForgotPasswordForm />
        </Card>
      </Stack>
    </Center>
  );
}
