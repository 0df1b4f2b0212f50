// The course manager's dialog with the Welsh beside the English: the Welsh title and description
// (lang "cy") filled from the course and sent, an empty one as null; a server's message on the Welsh
// title under that field; and the list's Welsh status of each course.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { courseKeys } from '@/lib/query-keys';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { MANAGER_PAGE_SIZE, type ManagedCourse } from '../api/get-managed-courses';
import { CourseFormDialog } from './CourseFormDialog';
import { CourseManager } from './CourseManager';

const admin = makeUser({ role: 'ADMIN', services: ['UKFRS'] });
const course: ManagedCourse = {
  id: 'c1', title: 'Water rescue awareness', description: 'Staying safe near water, for every crew.', service: 'UKFRS',
  titleCy: 'Ymwybyddiaeth achub o ddŵr', descriptionCy: null, availableInWelsh: false,
  duration: 2, level: 'INTERMEDIATE', status: 'DRAFT', featured: false, requiresEnrollment: true, modules: 3, authorId: admin.id,
};

const bodyOf = (requests: { method: string; path: string; body: unknown }[], method: string, path: string) =>
  requests.find((r) => r.method === method && r.path === path)?.body as Record<string, unknown> | undefined;

describe("the course manager's Welsh", () => {
  it('edits the Welsh title and description beside the English and sends them', async () => {
    const api = fakeApi({ 'PUT /courses/c1': { body: course } });
    const { user } = renderWithProviders(<CourseFormDialog opened onClose={() => {}} course={course} services={['UKFRS']} />, { user: admin });
    const dialog = await screen.findByRole('dialog', { name: 'Edit Course' });
    const titleCy = within(dialog).getByLabelText('Title (Welsh)');
    const descriptionCy = within(dialog).getByLabelText('Description (Welsh)');
    expect(titleCy).toHaveValue('Ymwybyddiaeth achub o ddŵr');
    expect(titleCy).toHaveAttribute('lang', 'cy');
    expect(descriptionCy).toHaveValue('');
    expect(descriptionCy).toHaveAttribute('lang', 'cy');
    await user.click(descriptionCy);
    await user.paste('Cadw’n ddiogel ger dŵr, i bob criw.');
    await user.click(within(dialog).getByRole('button', { name: 'Update Course' }));
    await waitFor(() => expect(bodyOf(api.requests, 'PUT', '/courses/c1')).toBeDefined());
    expect(bodyOf(api.requests, 'PUT', '/courses/c1')).toMatchObject({
      title: 'Water rescue awareness',
      titleCy: 'Ymwybyddiaeth achub o ddŵr',
      descriptionCy: 'Cadw’n ddiogel ger dŵr, i bob criw.',
    });
  });

  it('creates a course with no Welsh as null, and shows a server message under the Welsh title', async () => {
    const api = fakeApi({
      'POST /courses': { status: 400, body: { message: 'Validation failed', fields: { titleCy: 'The Welsh title must be at most 200 characters' } } },
    });
    const { user } = renderWithProviders(<CourseFormDialog opened onClose={() => {}} services={['UKFRS']} />, { user: admin });
    const dialog = await screen.findByRole('dialog', { name: 'Create Course' });
    await user.click(within(dialog).getByLabelText('Title'));
    await user.paste('Water rescue awareness');
    await user.click(within(dialog).getByLabelText('Description'));
    await user.paste('Staying safe near water, for every crew.');
    await user.click(within(dialog).getByRole('button', { name: 'Create Course' }));
    await waitFor(() => expect(bodyOf(api.requests, 'POST', '/courses')).toBeDefined());
    expect(bodyOf(api.requests, 'POST', '/courses')).toMatchObject({ title: 'Water rescue awareness', titleCy: null, descriptionCy: null });
    await waitFor(() => expect(within(dialog).getByLabelText('Title (Welsh)')).toHaveAccessibleDescription(/The Welsh title must be at most 200 characters/));
  });

  it("shows each course's Welsh status in the list", () => {
    const page = { items: [course, { ...course, id: 'c2', title: 'Rope rescue', availableInWelsh: true }], total: 2, page: 1, pageSize: MANAGER_PAGE_SIZE };
    renderWithProviders(<CourseManager isAdmin services={['UKFRS']} />, {
      user: admin,
      queryData: [[courseKeys.list({ status: undefined, mine: false, page: 1, pageSize: MANAGER_PAGE_SIZE }), page]],
    });
    const table = screen.getByRole('table', { name: 'Courses' });
    expect(within(within(table).getByRole('row', { name: /Water rescue awareness/ })).getByText('English only')).toBeInTheDocument();
    expect(within(within(table).getByRole('row', { name: /Rope rescue/ })).getByText('Available in Welsh')).toBeInTheDocument();
  });
});
