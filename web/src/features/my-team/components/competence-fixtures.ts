// Test data: a team member with no session booked and no practical due (the fields Competence.tsx reads).
import type { TeamMember } from '@shared/team.ts';

export const noCompetence: Pick<TeamMember, 'sessionsBooked' | 'nextSession' | 'practicals'> = {
  sessionsBooked: 0,
  nextSession: null,
  practicals: { due: 0, overdue: 0, awaiting: 0, nextDueAt: null, overdueSince: null },
};
