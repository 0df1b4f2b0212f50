// The catalogue in Welsh: filters, search box, the count of courses shown, 'Load more' and the
// empty states, with no English left on the screen.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Course, PagedList } from '@shared/catalogue.ts';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import { catalogueFiltersOf, catalogueQueryOptions } from '../api/get-courses';
import { CourseCatalogue } from './CourseCatalogue';

const course: Course = {
  id: '10000000-0000-4000-a000-000000000001',
  title: 'JESIP Joint Doctrine',
  description: 'Working together at major incidents.',
  titleCy: null,
  descriptionCy: null,
  availableInWelsh: false,
  service: 'UKPS',
  coverImage: null,
  authorId: null,
  author: null,
  duration: 2,
  level: 'INTERMEDIATE',
  featured: false,
  requiresEnrollment: true,
  status: 'ACTIVE',
  modules: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  enrollment: null,
};

function pages(search: string, items: Course[], total: number) {
  const key = catalogueQueryOptions(catalogueFiltersOf(search)).queryKey;
  const page: PagedList<Course> = { items, total, page: 1, pageSize: 12 };
  return [[key, { pages: [page], pageParams: [1] }]] as const;
}

describe('CourseCatalogue', () => {
  it('shows the filters, the search box, the count and Load more in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<CourseCatalogue user={makeUser()} publicEnroll={false} />, { user: makeUser(), queryData: pages('', [course], 20) });
    expect(await screen.findByText('Yn dangos 1 o 20 cwrs')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Hidlo yn ôl gwasanaeth' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pob gwasanaeth' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'UKPS' })).toHaveAttribute('title', "Gwasanaeth Heddlu'r Deyrnas Unedig");
    expect(screen.getByRole('searchbox', { name: 'Chwilio cyrsiau' })).toHaveAttribute('placeholder', 'Teitl neu ddisgrifiad');
    expect(screen.getByRole('button', { name: 'Llwytho rhagor' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cofrestru nawr' })).toBeInTheDocument();
    expect(screen.getByText('3 modiwl · 2 awr')).toBeInTheDocument();
  });

  it('says in Welsh when no course matches a search', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<CourseCatalogue user={null} publicEnroll={false} />, { route: '/?search=tân', queryData: pages('?search=tân', [], 0) });
    expect(await screen.findByText('Heb ddod o hyd i gyrsiau')).toBeInTheDocument();
    expect(screen.getByText("Nid oes cyrsiau'n cyfateb i “tân”.")).toBeInTheDocument();
  });

  it('keeps the English wording in English', async () => {
    renderWithProviders(<CourseCatalogue user={null} publicEnroll={false} />, { queryData: pages('', [course], 1) });
    expect(await screen.findByText('Showing 1 of 1 course')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'All Services' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login to Enroll' })).toBeInTheDocument();
  });

  it('filters by Available in Welsh, kept in the URL beside the service', async () => {
    const { user, router } = renderWithProviders(<CourseCatalogue user={null} publicEnroll={false} />, {
      route: '/?service=UKPS',
      queryData: [...pages('?service=UKPS', [course], 1), ...pages('?service=UKPS&welsh=true', [], 0)],
    });
    const toggle = await screen.findByRole('button', { name: 'Available in Welsh' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(new URLSearchParams(router.state.location.search).get('welsh')).toBe('true');
    expect(new URLSearchParams(router.state.location.search).get('service')).toBe('UKPS');
    expect(screen.getByRole('button', { name: 'Available in Welsh' })).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('No courses found')).toBeInTheDocument();
    expect(screen.getByText('There are no United Kingdom Police Service courses available in Welsh.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Available in Welsh' }));
    expect(new URLSearchParams(router.state.location.search).has('welsh')).toBe(false);
  });

  it('names the Welsh filter in Welsh, pressed from the URL', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<CourseCatalogue user={null} publicEnroll={false} />, { route: '/?welsh=true', queryData: pages('?welsh=true', [course], 1) });
    expect(await screen.findByRole('button', { name: 'Ar gael yn Gymraeg' })).toHaveAttribute('aria-pressed', 'true');
  });
});
