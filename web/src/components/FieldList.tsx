// A record shown as a card on a phone: its fields as a description list (label above value), so
// every column of the wide table is still there, each one named.
import { SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function FieldList({ children, cols = 2 }: { children: ReactNode; cols?: number }) {
  return (
    <SimpleGrid component="dl" cols={cols} spacing="sm" verticalSpacing="xs" m={0}>
      {children}
    </SimpleGrid>
  );
}

export function Field({ label, children, span = false, testId }: { label: string; children: ReactNode; span?: boolean; testId?: string }) {
  return (
    <div style={span ? { gridColumn: '1 / -1' } : undefined} data-field={testId}>
      <Text component="dt" size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text component="dd" size="sm" m={0}>
        {children}
      </Text>
    </div>
  );
}
