// A report's required course satisfied by a recognised credential: "Recognised" with its origin
// (the achievement, its issuer, until when) in the person's record on My team.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TeamMemberRecord } from '@shared/team.ts';
import { makeUser, renderWithProviders } from '@/test/render';
import { TeamMemberView } from './TeamMemberView';

const record: TeamMemberRecord = {
  user: { id: 'p1', name: 'Priya Sharma', username: 'paramedic' },
  unit: null,
  direct: true,
  required: [{
    course: { id: 'k1', title: 'Blue Light Driving Standards' }, status: 'recognised', dueAt: '2027-10-23T09:00:00.000Z', progress: 0,
    recognised: { source: 'platform', issuerName: 'Southshire Ambulance Service NHS Trust', achievementName: 'Emergency Driving: Blue Light Response', validUntil: '2027-11-22T09:00:00.000Z' },
  }],
  completions: [],
  certificates: [],
  sessions: [],
  practicals: [],
};

describe('TeamMemberView with a recognised credential', () => {
  it('shows Recognised with where it came from and until when', () => {
    renderWithProviders(<TeamMemberView record={record} />, { user: makeUser() });
    const required = within(screen.getByRole('table', { name: 'Required training' }));
    expect(required.getByText('Recognised')).toBeInTheDocument();
    expect(required.getByText(
      'From Emergency Driving: Blue Light Response (Southshire Ambulance Service NHS Trust), until 22 November 2027. A certificate earned on this platform.',
    )).toBeInTheDocument();
  });
});
