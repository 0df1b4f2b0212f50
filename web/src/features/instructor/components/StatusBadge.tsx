// A course's status as people read it (ACTIVE is "Published", the word authors use). Shades chosen so that
// white text keeps at least 4.5:1 contrast (WCAG 2.2 AA).
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CourseStatus } from '@shared/domain.ts';
import { labelOf } from '@/lib/i18n/labels';

const COLOURS: Record<CourseStatus, string> = { ACTIVE: 'blue.8', DRAFT: 'gray.7', ARCHIVED: 'red.9' };

export function StatusBadge({ status }: { status: string }) {
  // Re-rendered when the language changes (labelOf reads the common catalogue).
  useTranslation();
  const known = status in COLOURS ? (status as CourseStatus) : null;
  return (
    <Badge variant="filled" color={known ? COLOURS[known] : 'gray.7'} radius="sm">
      {known ? labelOf('courseStatus', known) : status}
    </Badge>
  );
}
