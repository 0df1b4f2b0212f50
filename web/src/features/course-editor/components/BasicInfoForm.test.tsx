// The course editor's 'Certificate valid for (months)': empty means the certificate never expires;
// a value outside 1..120 is refused in the form with the shared message, before anything is sent. The
// switch for line managers' approval of classroom session bookings shows the course's setting and
// sends the change.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CERTIFICATE_VALIDITY_MESSAGE } from '@shared/certificates.ts';
import { courseEditorSchema } from '@shared/authoring.ts';
import type { Course } from '@shared/catalogue.ts';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { BasicInfoForm } from './BasicInfoForm';

const admin = makeUser({ role: 'ADMIN', services: ['UKAS'] });
const course: Course = {
  id: 'c1', title: 'Manual handling', description: 'Lifting and moving people safely, every year.', service: 'UKAS',
  titleCy: null, descriptionCy: null, availableInWelsh: false,
  coverImage: null, authorId: admin.id, author: null, duration: 2, level: 'BEGINNER', featured: false, requiresEnrollment: true,
  status: 'DRAFT', modules: 0, certificateValidMonths: 12, createdAt: '2026-11-01T00:00:00Z', updatedAt: '2026-11-01T00:00:00Z', enrollment: null,
};

describe("the course editor's certificate validity", () => {
  it("shows the course's months and refuses 0 and 121 with the shared message", async () => {
    const { user } = renderWithProviders(<BasicInfoForm user={admin} course={course} onCreated={() => {}} onStatusChange={() => {}} />, { user: admin });
    const field = screen.getByLabelText('Certificate valid for (months)');
    expect(field).toHaveValue('12');
    for (const bad of ['0', '121']) {
      await user.clear(field);
      await user.type(field, bad);
      await user.click(screen.getByRole('button', { name: 'Update Course' }));
      expect(await screen.findByText(CERTIFICATE_VALIDITY_MESSAGE)).toBeInTheDocument();
    }
  });

  it('an empty field is null (never expires); a whole number of months is kept', () => {
    const base = { title: 'Manual handling', description: 'Lifting and moving people safely.', service: 'UKAS', level: 'BEGINNER', duration: 1, status: 'DRAFT' };
    expect(courseEditorSchema.parse({ ...base, certificateValidMonths: '' }).certificateValidMonths).toBeNull();
    expect(courseEditorSchema.parse({ ...base, certificateValidMonths: 24 }).certificateValidMonths).toBe(24);
    expect(courseEditorSchema.safeParse({ ...base, certificateValidMonths: 1.5 }).success).toBe(false);
  });
});

describe("the course editor's switch for line managers' approval of session bookings", () => {
  it("shows the course's setting, is toggled by the keyboard and sends the change", async () => {
    const api = fakeApi({ 'PUT /courses/c1': (request) => ({ body: { ...course, ...(request.body as object) } }) });
    const { user } = renderWithProviders(<BasicInfoForm user={admin} course={course} onCreated={() => {}} onStatusChange={() => {}} />, { user: admin });
    const toggle = screen.getByRole('switch', { name: 'Line managers approve classroom session bookings' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(/waits until their line manager approves it/);
    toggle.focus();
    await user.keyboard(' ');
    expect(toggle).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Update Course' }));
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(api.requests[0].body).toMatchObject({ sessionsNeedManagerApproval: true });
    expect(api.unanswered).toEqual([]);
  });

  it('a course that asks for it shows the switch on', () => {
    renderWithProviders(<BasicInfoForm user={admin} course={{ ...course, sessionsNeedManagerApproval: true }} onCreated={() => {}} onStatusChange={() => {}} />,
      { user: admin });
    expect(screen.getByRole('switch', { name: 'Line managers approve classroom session bookings' })).toBeChecked();
  });
});
