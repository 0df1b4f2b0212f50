// A row's problems as a short list; or "Ready" when it has none. Text, not colour alone, says which.
import { Badge, List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImportProblem } from '@shared/user-import.ts';

/** Alert titles in the body text colour: the light alerts' own title colours fall below 4.5:1. */
export const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

export function ProblemList({ problems }: { problems: ImportProblem[] }) {
  const { t } = useTranslation('user-import');
  if (problems.length === 0) {
    return (
      <Badge variant="filled" color="teal.9" radius="sm">
        {t('problemList.ready')}
      </Badge>
    );
  }
  return (
    <List size="sm" spacing={2} listStyleType="none" withPadding={false}>
      {problems.map((problem, index) => (
        <List.Item key={index}>
          <Text span size="sm" c="red.9">
            <Text span fw={600} size="sm">{t(`columns.${problem.field}`)}:</Text> {problem.message}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
