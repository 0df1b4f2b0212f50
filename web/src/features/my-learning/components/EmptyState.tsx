// Empty list: a heading, a line of text and 'Browse Courses' to the catalogue.
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

export function EmptyState({ title, text, headingOrder = 2 }: { title: string; text: string; headingOrder?: 2 | 3 | 4 }) {
  const { t } = useTranslation('my-learning');
  return (
    <Paper withBorder p="xl" radius="md">
      <Stack align="center" gap="sm">
        <Title order={headingOrder} size="h4">
          {title}
        </Title>
        <Text c="dimmed">{text}</Text>
        <Button component={Link} to="/">
          {t('shared.browseCourses')}
        </Button>
      </Stack>
    </Paper>
  );
}
