import { Paper, Stack, Text, Title } from '@mantine/core';
import { PRODUCT_NAME } from '@shared/domain.ts';

/** A page whose screen arrives in a later issue: its heading, title and what it will show. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap="md">
      <title>{`${title} | ${PRODUCT_NAME}`}</title>
      <Title order={1}>{title}</Title>
      <Paper withBorder p="lg">
        <Text>{description}</Text>
        <Text c="dimmed" mt="xs" size="sm">
          This page is coming soon.
        </Text>
      </Paper>
    </Stack>
  );
}
