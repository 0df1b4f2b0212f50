import { Paper, Stack, Text, Title } from '@mantine/core';
import { PageMeta } from '@/lib/page/page-meta';

/** A page whose screen arrives in a later issue: its heading, title and what it will show. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap="md">
      <PageMeta title={title} description={`${title}: coming soon.`} />
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
