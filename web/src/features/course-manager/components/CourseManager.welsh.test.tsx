// The course manager in Welsh: heading, status tabs, table headers, a course's duration, level and
// status, its actions, and the create dialog's fields come from the Welsh catalogues.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { courseKeys } from '@/lib/query-keys';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import { MANAGER_PAGE_SIZE, type ManagedCoursesPage } from '../api/get-managed-courses';
import { CourseManager } from './CourseManager';

const admin = makeUser({ role: 'ADMIN', services: ['UKFRS'] });
const page: ManagedCoursesPage = {
  items: [{
    id: 'c1', title: 'Water rescue awareness', description: 'Staying safe near water, for every crew.', service: 'UKFRS',
    titleCy: null, descriptionCy: null, availableInWelsh: false,
    duration: 2, level: 'INTERMEDIATE', status: 'ARCHIVED', featured: false, requiresEnrollment: true, modules: 3, authorId: admin.id,
  }],
  total: 1,
  page: 1,
  pageSize: MANAGER_PAGE_SIZE,
};

describe('the course manager in Welsh', () => {
  it('shows the list and the create dialog in Welsh', async () => {
    await i18n.changeLanguage('cy');
    const { user } = renderWithProviders(<CourseManager isAdmin services={['UKFRS']} />, {
      user: admin,
      queryData: [[courseKeys.list({ status: undefined, mine: false, page: 1, pageSize: MANAGER_PAGE_SIZE }), page]],
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Rheolwr Cyrsiau' })).toBeInTheDocument();
    expect(screen.getByText('Creu, golygu a dileu pob cwrs.')).toBeInTheDocument();
    for (const tab of ['Pob un', "Wedi'u cyhoeddi", 'Drafftiau', "Wedi'u harchifo"]) expect(screen.getByRole('tab', { name: tab })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Cyrsiau' });
    for (const header of ['Teitl', 'Gwasanaeth', 'Hyd', 'Lefel', 'Statws', 'Camau gweithredu']) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const row = within(table).getByRole('row', { name: /Water rescue awareness/ });
    expect(within(row).getByText('2 awr')).toBeInTheDocument();
    expect(within(row).getByText('Canolradd')).toBeInTheDocument();
    expect(within(row).getByText("Wedi'i archifo")).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Adfer Water rescue awareness' })).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Gweld Water rescue awareness' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Creu Cwrs' }));
    const dialog = await screen.findByRole('dialog', { name: 'Creu Cwrs' });
    expect(within(dialog).getByLabelText('Teitl')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Disgrifiad')).toHaveAccessibleDescription('O leiaf 20 nod');
    expect(within(dialog).getByLabelText('Teitl (Cymraeg)')).toHaveAttribute('lang', 'cy');
    expect(within(dialog).getByLabelText('Cwrs dan sylw')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Canslo' })).toBeInTheDocument();
  });
});
