// A figure of My team's summary (people, overdue, sessions booked...): a label, the number and a
// line of detail; `name` makes its ids (`team-figure-<name>`), the same in every language.
import { Paper, Text } from '@mantine/core';

export function Figure({ name, label, value, detail }: { name: string; label: string; value: number; detail?: string }) {
  const id = `team-figure-${name}`;
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed" id={id}>{label}</Text>
      <Text fz={28} fw={700} aria-labelledby={id} data-testid={id}>{value}</Text>
      {detail && <Text size="sm" c="dimmed">{detail}</Text>}
    </Paper>
  );
}
