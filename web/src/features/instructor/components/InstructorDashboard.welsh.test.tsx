// The instructor dashboard in Welsh: heading, welcome, tabs, the Overview's figures (a plural in
// Welsh), a recently updated course with its date and status, and the quick actions.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { instructorKeys } from '@/lib/query-keys';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import type { InstructorStats } from '../api/get-instructor-stats';
import { InstructorDashboard } from './InstructorDashboard';

const instructor = makeUser({ role: 'INSTRUCTOR', services: ['UKPS'] });
const stats: InstructorStats = {
  totalCourses: 3,
  totalStudents: 12,
  averageCompletion: 40,
  totalCourseHours: 9,
  recentlyUpdated: [{ id: 'c1', title: 'Public order', service: 'UKPS', status: 'ACTIVE', updatedAt: '2026-11-22T10:00:00Z' }],
  completionRate: 50,
  averageProgress: 40,
  completedEnrolments: 1,
  totalEnrolments: 2,
  pendingRequests: 2,
};

describe('the instructor dashboard in Welsh', () => {
  it('shows the Overview in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<InstructorDashboard name="Jane Smith" isAdmin={false} requiredTrainingTab={null} />, {
      user: instructor,
      queryData: [[instructorKeys.stats(), stats]],
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Dangosfwrdd Hyfforddwyr' })).toBeInTheDocument();
    expect(screen.getByText('Croeso, Jane Smith. Rheolwch eich cyrsiau a dilynwch gynnydd eich dysgwyr.')).toBeInTheDocument();
    for (const tab of ['Trosolwg', 'Fy Nghyrsiau', 'Dysgwyr', 'Dadansoddeg', 'Hyfforddiant gorfodol']) {
      expect(screen.getByRole('tab', { name: tab })).toBeInTheDocument();
    }
    expect(screen.getByRole('region', { name: 'Cyfanswm y Cyrsiau' })).toHaveTextContent('3');
    expect(screen.getByText("1 o 2 gofrestriad wedi'u cwblhau")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Adolygu a chymeradwyo 2 gais' })).toBeInTheDocument();
    expect(screen.getByText('Diweddarwyd 22 Tachwedd 2026')).toBeInTheDocument();
    expect(screen.getByText("Wedi'i gyhoeddi")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cwrs Newydd' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Gweld Dysgwyr' })).toBeInTheDocument();
  });
});
