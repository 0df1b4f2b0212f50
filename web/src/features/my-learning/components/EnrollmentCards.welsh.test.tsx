// The enrolment cards in Welsh: the module count, progress, awaiting approval, the completion date
// in Welsh and the buttons.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import type { Enrollment } from '../api/get-enrollments';
import { enrollmentKeys } from '@/lib/query-keys';
import { CompletedCard, InProgressCard } from './EnrollmentCards';
import { LearnerDashboard } from './LearnerDashboard';

const base: Enrollment = {
  id: 'e1', userId: 'u1', courseId: 'c1', progress: 40, completed: false, status: 'ACTIVE',
  startedAt: '2026-11-01T09:00:00Z', completedAt: null, lastAccessedModuleId: null, lastActivityAt: null,
  completedModules: 2, cycle: 1, certificateId: null, certificate: null,
  course: { id: 'c1', title: 'Airwave Radio Voice Procedure', titleCy: null, description: 'Radio discipline.', service: 'UKPS', duration: 2, modules: 5 },
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

  it('shows a Welsh reader the Welsh title, unmarked (the enrolments carry no Welsh description: none shown)', async () => {
    await i18n.changeLanguage('cy');
    const welsh = { ...base, course: { ...base.course!, titleCy: 'Gweithdrefn Llais Radio Airwave' } };
    const { container } = renderWithProviders(<InProgressCard enrollment={welsh} />, { user: makeUser() });
    expect(screen.getByRole('heading', { name: 'Gweithdrefn Llais Radio Airwave' })).toHaveAttribute('lang', 'cy');
    expect(screen.getByRole('progressbar', { name: "Gweithdrefn Llais Radio Airwave: 40% wedi'i gwblhau" })).toBeInTheDocument();
    expect(screen.queryByText('Radio discipline.')).toBeNull();
    expect(screen.queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
    expect(container.querySelector('[lang="en-GB"]')).toBeNull();
  });

  it('shows a Welsh reader the English title and description where there is no Welsh, in lang="en-GB", marked once', async () => {
    await i18n.changeLanguage('cy');
    const done = { ...base, progress: 100, completed: true, completedAt: '2026-11-07T10:00:00Z', certificateId: 'cert-1' };
    renderWithProviders(<CompletedCard enrollment={done} />, { user: makeUser() });
    expect(screen.getByRole('heading', { name: 'Airwave Radio Voice Procedure' })).toHaveAttribute('lang', 'en-GB');
    expect(screen.getByText('Radio discipline.')).toHaveAttribute('lang', 'en-GB');
    expect(screen.getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(1);
  });

  it('shows an English reader the English title and description only', () => {
    const welsh = { ...base, course: { ...base.course!, titleCy: 'Gweithdrefn Llais Radio Airwave' } };
    renderWithProviders(<InProgressCard enrollment={welsh} />, { user: makeUser() });
    expect(screen.getByRole('heading', { name: 'Airwave Radio Voice Procedure' })).toBeInTheDocument();
    expect(screen.getByText('Radio discipline.')).toBeInTheDocument();
    expect(screen.queryByText(/Gweithdrefn/)).toBeNull();
    expect(screen.queryByText('Not available in Welsh')).toBeNull();
  });

  it('names the courses of the dashboard in the reader\'s language, marking the English ones', async () => {
    await i18n.changeLanguage('cy');
    const user = makeUser();
    const welsh = { ...base, course: { ...base.course!, titleCy: 'Gweithdrefn Llais Radio Airwave' } };
    const english = { ...base, id: 'e2', courseId: 'c2', course: { ...base.course!, id: 'c2', title: 'Major Incident Triage' } };
    renderWithProviders(<LearnerDashboard userId={user.id} name="Jane" certificateCount={0} certificatesPanel={null} requiredTraining={null} />, {
      user,
      queryData: [[enrollmentKeys.forUser(user.id), [welsh, english]]],
    });
    const welshLink = await screen.findByRole('link', { name: 'Gweithdrefn Llais Radio Airwave' });
    expect(welshLink).toHaveAttribute('lang', 'cy');
    const englishLink = screen.getByRole('link', { name: 'Major Incident Triage' });
    expect(englishLink).toHaveAttribute('lang', 'en-GB');
    expect(within(englishLink.closest('li') as HTMLElement).getByText('Ddim ar gael yn Gymraeg')).toBeInTheDocument();
    expect(within(welshLink.closest('li') as HTMLElement).queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
  });
});
