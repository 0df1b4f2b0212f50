// A course's status as people read it (ACTIVE is "Published", the word authors use). Shades chosen so that
// white text keeps at least 4.5:1 contrast (WCAG 2.2 AA).
import { Badge } from '@mantine/core';
import { COURSE_STATUS_LABELS, type CourseStatus } from '@shared/domain.ts';

const COLOURS: Record<CourseStatus, string> = { ACTIVE: 'blue.8', DRAFT: 'gray.7', ARCHIVED: 'red.9' };

export function StatusBadge({ status }: { status: string }) {
  const known = status in COLOURS ? (status as CourseStatus) : null;
  return (
    <Badge variant="filled" color={known ? COLOURS[known] : 'gray.7'} radius="sm">
      {known ? COURSE_STATUS_LABELS[known] : status}
    </Badge>
  );
}
