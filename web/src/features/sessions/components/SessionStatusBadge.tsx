// A date's state from its own fields: cancelled, booking closed, full, or open with the places left.
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ClassroomSession } from '@shared/sessions.ts';

export function sessionState(s: Pick<ClassroomSession, 'cancelledAt' | 'bookingOpen' | 'placesLeft'>): 'cancelled' | 'closed' | 'full' | 'open' {
  if (s.cancelledAt) return 'cancelled';
  if (!s.bookingOpen) return 'closed';
  return s.placesLeft === 0 ? 'full' : 'open';
}

const COLOURS = { cancelled: 'red.9', closed: 'gray.8', full: 'orange.9', open: 'green.9' } as const;

export function SessionStatusBadge({ session }: { session: Pick<ClassroomSession, 'cancelledAt' | 'bookingOpen' | 'placesLeft'> }) {
  const { t } = useTranslation('sessions');
  const state = sessionState(session);
  return (
    <Badge variant="filled" color={COLOURS[state]}>
      {t(`state.${state}`)}
    </Badge>
  );
}
