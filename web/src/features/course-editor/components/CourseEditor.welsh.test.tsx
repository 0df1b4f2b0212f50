// The course editor in Welsh: the create screen's heading, tabs, status and cover card, and the
// Basic Information form's labels and buttons come from the Welsh catalogue.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Course } from '@shared/catalogue.ts';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import { BasicInfoForm } from './BasicInfoForm';
import { CourseEditor } from './CourseEditor';

const admin = makeUser({ role: 'ADMIN', services: ['UKAS'] });

describe('the course editor in Welsh', () => {
  it('shows the create screen in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<CourseEditor user={admin} />, { user: admin });
    expect(await screen.findByRole('heading', { level: 1, name: 'Creu Cwrs Newydd' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Gwybodaeth Sylfaenol' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Modiwlau a Chwisiau/ })).toBeInTheDocument();
    expect(screen.getByText('Cadwch y cwrs yn gyntaf')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Delwedd y Clawr' })).toBeInTheDocument();
    expect(screen.getByText('Drafft: dim ond chi a gweinyddwyr sy\'n gallu gweld y cwrs hwn.')).toBeInTheDocument();
    expect(screen.getByLabelText('Teitl y Cwrs')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Cadw'r Cwrs" })).toBeInTheDocument();
  });

  it("shows a saved course's form in Welsh, its service and level named in Welsh", async () => {
    await i18n.changeLanguage('cy');
    const course: Course = {
      id: 'c1', title: 'Manual handling', description: 'Lifting and moving people safely, every year.', service: 'UKAS',
      titleCy: null, descriptionCy: null, availableInWelsh: false,
      coverImage: null, authorId: admin.id, author: null, duration: 2, level: 'BEGINNER', featured: false, requiresEnrollment: true,
      status: 'DRAFT', modules: 0, certificateValidMonths: 12, createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z', enrollment: null,
    };
    renderWithProviders(<BasicInfoForm user={admin} course={course} onCreated={() => {}} onStatusChange={() => {}} />, { user: admin });
    expect(screen.getByRole('form', { name: 'Gwybodaeth Sylfaenol' })).toBeInTheDocument();
    expect(screen.getByLabelText('Tystysgrif yn ddilys am (misoedd)')).toHaveValue('12');
    expect(screen.getAllByLabelText('Lefel Anhawster')[0]).toHaveValue('Dechreuwr');
    expect(screen.getAllByLabelText('Gwasanaeth')[0]).toHaveValue('Gwasanaeth Ambiwlans y Deyrnas Unedig (UKAS)');
    expect(screen.getAllByLabelText('Cymeradwyo cofrestriadau')[0]).toHaveValue('Defnyddio gosodiad y safle');
    expect(screen.getByRole('button', { name: "Diweddaru'r Cwrs" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Canslo' })).toBeInTheDocument();
  });
});
