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
  completedModules: 2, cycle: 1, certificateId: null, certificate: null,
  course: { id: 'c1', title: 'Airwave Radio Voice Procedure', titleCy: null, description: 'Radio discipline.', service: 'UKPS', duration: 2, modules: 5 },
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

  it('shows the certificate valid until its date, with no recertification while it is valid', () => {
    const certificate = { id: 'cert-1', cycle: 1, issuedAt: '2026-11-07T10:00:00Z', expiresAt: '2027-11-07T10:00:00Z', revokedAt: null, state: 'valid' as const };
    const done = { ...base, progress: 100, completed: true, completedAt: '2026-11-07T10:00:00Z', certificateId: 'cert-1', certificate };
    renderWithProviders(<CompletedCard enrollment={done} />, { user: makeUser() });
    expect(screen.getByText('Valid until 7 November 2027')).toBeInTheDocument();
    expect(screen.getByText('Valid').closest('[data-certificate-state]')).toHaveAttribute('data-certificate-state', 'valid');
    expect(screen.queryByRole('button', { name: /Start recertification/ })).toBeNull();
  });

  it('highlights an expiring certificate, still with its date, and offers Start recertification', () => {
    const certificate = { id: 'cert-1', cycle: 1, issuedAt: '2025-12-01T10:00:00Z', expiresAt: '2026-12-01T10:00:00Z', revokedAt: null, state: 'expiring' as const };
    const done = { ...base, progress: 100, completed: true, completedAt: '2025-12-01T10:00:00Z', certificateId: 'cert-1', certificate };
    renderWithProviders(<CompletedCard enrollment={done} />, { user: makeUser() });
    expect(screen.getByText('Expiring soon')).toBeInTheDocument();
    expect(screen.getByText('Valid until 1 December 2026')).toBeInTheDocument();
    expect(screen.getByRole('article')).toHaveStyle({ borderWidth: '2px' });
    expect(screen.getByRole('button', { name: 'Start recertification: Airwave Radio Voice Procedure' })).toBeInTheDocument();
  });

  it('says since when a certificate expired and when one was revoked; a revoked one is not renewed', () => {
    const expired = { id: 'cert-1', cycle: 1, issuedAt: '2024-11-01T10:00:00Z', expiresAt: '2025-11-01T10:00:00Z', revokedAt: null, state: 'expired' as const };
    const done = { ...base, progress: 100, completed: true, completedAt: '2024-11-01T10:00:00Z', certificateId: 'cert-1', certificate: expired };
    const { unmount } = renderWithProviders(<CompletedCard enrollment={done} />, { user: makeUser() });
    expect(screen.getByText('Expired on 1 November 2025')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Start recertification/ })).toBeInTheDocument();
    unmount();
    const revoked = { ...expired, revokedAt: '2026-11-20T10:00:00Z', state: 'revoked' as const };
    renderWithProviders(<CompletedCard enrollment={{ ...done, certificate: revoked }} />, { user: makeUser() });
    expect(screen.getByText('Revoked on 20 November 2026')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Start recertification/ })).toBeNull();
  });
});

describe('a recertification in progress', () => {
  it('shows the course as recertifying with the certificate it renews', () => {
    const certificate = { id: 'cert-1', cycle: 1, issuedAt: '2024-11-01T10:00:00Z', expiresAt: '2025-11-01T10:00:00Z', revokedAt: null, state: 'expired' as const };
    renderWithProviders(<InProgressCard enrollment={{ ...base, progress: 0, cycle: 2, certificateId: 'cert-1', certificate }} />, { user: makeUser() });
    expect(screen.getByText('Recertifying')).toBeInTheDocument();
    expect(screen.getByText('Expired on 1 November 2025')).toBeInTheDocument();
    expect(screen.getByText('0%')).toBeInTheDocument();
  });
});
