// A required item's status as a badge: the words always carry the meaning; the colours (dark enough
// for white text, or light with black text) are at least 4.5:1 (WCAG 2.2 AA).
import { Badge } from '@mantine/core';
import type { TrainingStatus } from '@shared/compliance.ts';
import { useTranslation } from 'react-i18next';
import { labelOf } from '@/lib/i18n/labels';

const STYLES: Record<TrainingStatus, { backgroundColor: string; color: string }> = {
  overdue: { backgroundColor: 'var(--mantine-color-red-9)', color: '#fff' },
  'due-soon': { backgroundColor: 'var(--mantine-color-yellow-3)', color: '#000' },
  'in-progress': { backgroundColor: 'var(--mantine-color-blue-9)', color: '#fff' },
  done: { backgroundColor: 'var(--mantine-color-teal-9)', color: '#fff' },
  recognised: { backgroundColor: 'var(--mantine-color-violet-9)', color: '#fff' },
};

export function TrainingStatusBadge({ status }: { status: TrainingStatus }) {
  useTranslation();
  return (
    <Badge variant="filled" radius="sm" data-status={status} style={{ ...STYLES[status], maxWidth: 'none', minWidth: 'max-content', overflow: 'visible' }}>
      {labelOf('trainingStatus', status)}
    </Badge>
  );
}
