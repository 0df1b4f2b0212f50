import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageMeta } from '@/lib/page/page-meta';

export function NotFoundRoute() {
  return (
    <Stack gap="md" align="flex-start">
      <PageMeta title="Page not found" description="The page you are looking for does not exist or has moved." />
      <Title order={1}>404 Page Not Found</Title>
      <Text>The page you are looking for does not exist or has moved.</Text>
      <Anchor component={Link} to="/">
        Return to home page
      </Anchor>
    </Stack>
  );
}
