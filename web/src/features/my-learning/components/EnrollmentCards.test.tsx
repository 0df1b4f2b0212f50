// The enrolment cards of My Courses and the dashboard: progress, awaiting approval, completion date
// ('Unknown' without one) and where 'View Certificate' leads.
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeUser, renderWithProviders } from '@/test/render';
import type { Enrollment } from '../api/get-enrollments';
import { CompletedCard, InProgressCard } from './EnrollmentCards';

const base: Enrollment = {
  id: 'e1', userId: 'u1', courseId: 'c1', progress: 40, completed: false, status: 'ACTIVE',
  startedAt: '2026-11-01T09:00:00Z', completedAt: null, lastAccessedModuleId: null, lastActivityAt: null,
  completedModules: 2, certificateId: null,
  course: { id: 'c1', title: 'Airwave Radio Voice Procedure', description: 'Radio discipline.', service: 'UKPS', duration: 2, modules: 5 },
};

describe('InProgressCard', () => {
  it('shows the service, module count, progress and Continue Course to the course', () => {
    renderWithProviders(<InProgressCard enrollment={base} />, { user: makeUser() });
    expect(screen.getByText('UKPS')).toBeInTheDocument();
    expect(screen.getByText('5 modules')).toBeInTheDocument();
    expect(screen.getByText('40%')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue Course' })).toHaveAttribute('href', '/course/c1');
  });

  it('shows a pending enrolment as awaiting approval, with a way to withdraw it', async () => {
    const onWithdraw = vi.fn();
    const pending = { ...base, status: 'PENDING' as const, progress: 0 };
    const { user } = renderWithProviders(<InProgressCard enrollment={pending} onWithdraw={onWithdraw} />, { user: makeUser() });
    expect(screen.getByText('Awaiting approval')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Continue Course' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Withdraw request: Airwave Radio Voice Procedure' }));
    expect(onWithdraw).toHaveBeenCalledWith(pending);
  });
});

describe('CompletedCard', () => {
  it('shows the completion date in en-GB and links View Certificate to the certificate', () => {
    const done = { ...base, progress: 100, completed: true, completedAt: '2026-11-07T10:00:00Z', certificateId: 'cert-1' };
    renderWithProviders(<CompletedCard enrollment={done} />, { user: makeUser() });
    expect(screen.getByText('7 November 2026')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /View Certificate/ })).toHaveAttribute('href', '/certificates?id=cert-1');
  });

  it("says 'Unknown' without a completion date and falls back to the course page", () => {
    const done = { ...base, progress: 100, completed: true };
    renderWithProviders(<CompletedCard enrollment={done} />, { user: makeUser() });
    expect(screen.getByText('Unknown')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /View Certificate/ })).toHaveAttribute('href', '/course/c1');
  });
});
