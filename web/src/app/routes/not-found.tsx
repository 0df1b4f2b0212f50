import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '@shared/domain.ts';

export function NotFoundRoute() {
  return (
    <Stack gap="md" align="flex-start">
      <title>{`Page not found | ${PRODUCT_NAME}`}</title>
      <Title order={1}>404 Page Not Found</Title>
      <Text>The page you are looking for does not exist or has moved.</Text>
      <Anchor component={Link} to="/">
        Return to home page
      </Anchor>
    </Stack>
  );
}
