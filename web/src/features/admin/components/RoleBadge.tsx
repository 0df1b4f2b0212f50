// A user's role as people read it; filled shades keep white text at 4.5:1 or more (WCAG 2.2 AA).
import { Badge } from '@mantine/core';
import type { Role } from '@shared/domain.ts';
import { useTranslation } from 'react-i18next';
import { labelOf } from '@/lib/i18n/labels';

const COLOURS: Record<Role, string> = { ADMIN: 'red.9', INSTRUCTOR: 'blue.8', STUDENT: 'gray.7' };

export function RoleBadge({ role }: { role: Role }) {
  // Re-renders when the language changes.
  useTranslation('admin');
  return (
    <Badge variant="filled" color={COLOURS[role] ?? 'gray.7'} radius="sm">
      {labelOf('role', role)}
    </Badge>
  );
}
