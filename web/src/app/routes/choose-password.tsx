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

export function ChoosePasswordRoute() {
  const { data: user } = useUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  if (!user) return <PageSpinner label="Loading your account" />;
  if (!user.mustChangePassword) return <Navigate to="/dashboard" replace />;
  const chosen = () => {
    const { mustChangePassword: _done, ...rest } = user;
    queryClient.setQueryData(userKeys.current, rest);
    void navigate('/dashboard', { replace: true });
  };
  return (
    <Stack gap="lg" maw={480}>
      <PageMeta title="Choose a new password" description="Choose your own password to replace the temporary one you were given." />
      <div>
        <Title order={1}>Choose a new password</Title>
        <Text c="dimmed">
          You signed in with a temporary password. Choose your own password to continue.
        </Text>
      </div>
      <Card withBorder padding="lg" radius="md" component="section" aria-label="Choose a new password">
        <PasswordForm onChanged={chosen} currentDescription="The temporary password you were given" />
      </Card>
    </Stack>
  );
}
