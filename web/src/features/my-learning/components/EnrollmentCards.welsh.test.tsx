// The enrolment cards in Welsh: the module count, progress, awaiting approval, the completion date
// in Welsh and the buttons.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import type { Enrollment } from '../api/get-enrollments';
import { CompletedCard, InProgressCard } from './EnrollmentCards';

const base: Enrollment = {
  id: 'e1', userId: 'u1', courseId: 'c1', progress: 40, completed: false, status: 'ACTIVE',
  startedAt: '2026-11-01T09:00:00Z', completedAt: null, lastAccessedModuleId: null, lastActivityAt: null,
  completedModules: 2, cycle: 1, certificateId: null, certificate: null,
  course: { id: 'c1', title: 'Airwave Radio Voice Procedure', description: 'Radio discipline.', service: 'UKPS', duration: 2, modules: 5 },
};

describe('the enrolment cards in Welsh', () => {
  it('an enrolment in progress, and one awaiting approval', async () => {
    await i18n.changeLanguage('cy');
    const { unmount } = renderWithProviders(<InProgressCard enrollment={base} />, { user: makeUser() });
    expect(screen.getByText('5 modiwl')).toBeInTheDocument();
    expect(screen.getByText('Cynnydd')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: "Airwave Radio Voice Procedure: 40% wedi'i gwblhau" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Parhau â'r cwrs" })).toHaveAttribute('href', '/course/c1');
    unmount();
    renderWithProviders(<InProgressCard enrollment={{ ...base, status: 'PENDING', progress: 0 }} onWithdraw={() => {}} />, { user: makeUser() });
    expect(screen.getByText('Yn aros am gymeradwyaeth')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Tynnu'r cais yn ôl: Airwave Radio Voice Procedure" })).toBeInTheDocument();
  });

  it('a completed course, with its date in Welsh and its certificate', async () => {
    await i18n.changeLanguage('cy');
    const done = { ...base, progress: 100, completed: true, completedAt: '2026-11-07T10:00:00Z', certificateId: 'cert-1' };
    renderWithProviders(<CompletedCard enrollment={done} reviewButton />, { user: makeUser() });
    expect(screen.getByText('7 Tachwedd 2026')).toBeInTheDocument();
    expect(screen.getByText(/Wedi'i gwblhau ar/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Gweld y dystysgrif: Airwave Radio Voice Procedure' })).toHaveAttribute('href', '/certificates?id=cert-1');
    expect(screen.getByRole('link', { name: "Adolygu'r cwrs" })).toBeInTheDocument();
  });
});
