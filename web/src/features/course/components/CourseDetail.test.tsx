// The course page in Welsh: back link, level, counts, progress, the outline and the main button.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Course, CourseModule } from '@shared/catalogue.ts';
import { i18n } from '@/lib/i18n/i18n';
import { courseKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { CourseDetail, courseButtonLabel } from './CourseDetail';

const id = '10000000-0000-4000-a000-000000000001';
const course: Course = {
  id,
  title: 'JESIP Joint Doctrine',
  description: 'Working together at major incidents.',
  titleCy: null,
  descriptionCy: null,
  availableInWelsh: false,
  service: 'UKFRS',
  coverImage: null,
  authorId: null,
  author: { name: 'Rhys Jones', username: 'rhys' },
  duration: 1,
  level: 'BEGINNER',
  featured: false,
  requiresEnrollment: true,
  status: 'ACTIVE',
  modules: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  enrollment: { id: 'e', progress: 50, completed: false, status: 'ACTIVE', completedAt: null, certificateId: null },
};
const module = (n: number, completed: boolean, titleCy: string | null = null): CourseModule => ({
  id: `m${n}`, courseId: id, title: `Part ${n}`, titleCy, content: 'Text', contentCy: null, orderIndex: n, duration: 15, hasQuiz: n === 2, kind: 'content',
  image: null, createdAt: course.createdAt, updatedAt: course.updatedAt, completed, read: completed,
} as CourseModule);

function renderCourse(data: Course, modules = [module(1, true), module(2, false)]) {
  return renderWithProviders(<CourseDetail courseId={id} user={makeUser()} publicEnroll={false} />, {
    user: makeUser(),
    queryData: [[courseKeys.detail(id), data], [courseKeys.modules(id), modules]],
  });
}

const inWelsh: Course = {
  ...course,
  titleCy: 'Athrawiaeth ar y Cyd JESIP',
  descriptionCy: 'Cydweithio mewn digwyddiadau mawr.',
  availableInWelsh: true,
};

describe('CourseDetail', () => {
  it('shows the course page in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderCourse(course);
    expect(await screen.findByRole('button', { name: "Parhau â'r cwrs" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Yn ôl i'r cyrsiau" })).toBeInTheDocument();
    expect(screen.getByText('Dechreuwr')).toBeInTheDocument();
    expect(screen.getByText('2 fodiwl · 1 awr · gan Rhys Jones')).toBeInTheDocument();
    expect(screen.getByText('Eich cynnydd')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Manylion y cwrs' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Modiwlau' })).toBeInTheDocument();
    expect(screen.getByText('Cwis')).toBeInTheDocument();
    expect(screen.getAllByText('15 mun')).toHaveLength(2);
    expect(screen.getByText('Gofynion')).toBeInTheDocument();
    expect(screen.getByText('Dealltwriaeth sylfaenol o weithdrefnau Gwasanaeth Tân ac Achub y Deyrnas Unedig')).toBeInTheDocument();
  });

  it('labels the main button by progress, in both languages', async () => {
    const t = i18n.getFixedT(null, 'course');
    expect([0, 40, 100].map((p) => courseButtonLabel(t, p))).toEqual(['Start Course', 'Continue Course', 'Review Course']);
    await i18n.changeLanguage('cy');
    expect([0, 40, 100].map((p) => courseButtonLabel(t, p))).toEqual(["Dechrau'r cwrs", "Parhau â'r cwrs", "Adolygu'r cwrs"]);
  });

  it('says in Welsh that an enrolment awaits approval', async () => {
    await i18n.changeLanguage('cy');
    renderCourse({ ...course, enrollment: { ...course.enrollment!, progress: 0, status: 'PENDING' } });
    expect(await screen.findByText('Cofrestriad yn aros')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Dechrau'r cwrs" })).toBeDisabled();
  });

  it('shows a Welsh reader the Welsh title, description and module titles, unmarked', async () => {
    await i18n.changeLanguage('cy');
    const { container } = renderCourse(inWelsh, [module(1, true, 'Rhan 1'), module(2, false, 'Rhan 2')]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Athrawiaeth ar y Cyd JESIP' })).toHaveAttribute('lang', 'cy');
    expect(screen.getByText('Cydweithio mewn digwyddiadau mawr.')).toHaveAttribute('lang', 'cy');
    expect(screen.getByRole('link', { name: 'Rhan 2' })).toHaveAttribute('lang', 'cy');
    expect(screen.queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
    expect(container.querySelector('[lang="en-GB"]')).toBeNull();
    await waitFor(() => expect(document.title).toContain('Athrawiaeth ar y Cyd JESIP'));
  });

  it('shows a Welsh reader the English where there is no Welsh, in lang="en-GB", marked once in the header and on each such module', async () => {
    await i18n.changeLanguage('cy');
    renderCourse(course, [module(1, true, 'Rhan 1'), module(2, false)]);
    const heading = await screen.findByRole('heading', { level: 1, name: 'JESIP Joint Doctrine' });
    expect(heading).toHaveAttribute('lang', 'en-GB');
    expect(screen.getByText('Working together at major incidents.')).toHaveAttribute('lang', 'en-GB');
    expect(screen.getByRole('link', { name: 'Rhan 1' })).toHaveAttribute('lang', 'cy');
    expect(screen.getByRole('link', { name: 'Part 2' })).toHaveAttribute('lang', 'en-GB');
    // One in the header, one on the English module.
    expect(screen.getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(2);
    expect(within(document.querySelector('[data-module-row="m2"]') as HTMLElement).getByText('Ddim ar gael yn Gymraeg')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toContain('JESIP Joint Doctrine'));
  });

  it('shows an English reader the English only, unmarked', async () => {
    renderCourse(inWelsh, [module(1, true, 'Rhan 1'), module(2, false, 'Rhan 2')]);
    expect(await screen.findByRole('heading', { level: 1, name: 'JESIP Joint Doctrine' })).toBeInTheDocument();
    expect(screen.getByText('Working together at major incidents.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Part 2' })).toBeInTheDocument();
    expect(screen.queryByText(/Athrawiaeth|Cydweithio|Rhan/)).toBeNull();
    expect(screen.queryByText('Not available in Welsh')).toBeNull();
    await waitFor(() => expect(document.title).toContain('JESIP Joint Doctrine'));
  });
});
