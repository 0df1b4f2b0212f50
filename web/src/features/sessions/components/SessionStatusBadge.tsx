// A date's state from its own fields: cancelled, booking closed, full, or open with the places left.
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ClassroomSession } from '@shared/sessions.ts';

export function sessionState(s: Pick<ClassroomSession, 'cancelledAt' | 'bookingOpen' | 'placesLeft'>): 'cancelled' | 'closed' | 'full' | 'open' {
  if (s.cancelledAt) return 'cancelled';
  if (!s.bookingOpen) return 'closed';
  return s.placesLeft === 0 ? 'full' : 'open';
}

// Each with text of at least 4.5:1 on its background (as TrainingStatusBadge's).
const STYLES = {
  cancelled: { backgroundColor: 'var(--mantine-color-red-9)', color: '#fff' },
  closed: { backgroundColor: 'var(--mantine-color-gray-8)', color: '#fff' },
  full: { backgroundColor: 'var(--mantine-color-yellow-3)', color: '#000' },
  open: { backgroundColor: 'var(--mantine-color-teal-9)', color: '#fff' },
} as const;

export function SessionStatusBadge({ session }: { session: Pick<ClassroomSession, 'cancelledAt' | 'bookingOpen' | 'placesLeft'> }) {
  const { t } = useTranslation('sessions');
  const state = sessionState(session);
  return (
    <Badge variant="filled" style={STYLES[state]}>
      {t(`state.${state}`)}
    </Badge>
  );
}
