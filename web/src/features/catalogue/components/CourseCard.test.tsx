import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { Course } from '@shared/catalogue.ts';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import { CourseCard, cardButtonLabel, signInPath } from './CourseCard';
import { emptyText } from './CourseCatalogue';

const t = i18n.getFixedT(null, 'catalogue');

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
  duration: 4,
  level: 'INTERMEDIATE',
  featured: true,
  requiresEnrollment: true,
  status: 'ACTIVE',
  modules: 4,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  enrollment: null,
};
const enrolled = (progress: number): Course => ({
  ...course,
  enrollment: { id: 'e', progress, completed: progress === 100, status: 'ACTIVE', completedAt: null, certificateId: null },
});

describe('CourseCard', () => {
  it('labels the button by state, as the specification says', () => {
    const user = makeUser();
    expect(cardButtonLabel(t, course, null)).toBe('Login to Enroll');
    expect(cardButtonLabel(t, course, user)).toBe('Enroll Now');
    expect(cardButtonLabel(t, enrolled(0), user)).toBe('Start Course');
    expect(cardButtonLabel(t, enrolled(40), user)).toBe('Continue Course');
    expect(cardButtonLabel(t, enrolled(100), user)).toBe('Continue Course');
  });

  it('shows badge, Featured, modules and the progress of an enrolled learner', () => {
    renderWithProviders(<CourseCard course={enrolled(40)} user={makeUser()} publicEnroll={false} />);
    expect(screen.getByText('UKPS')).toBeInTheDocument();
    expect(screen.getByText('Featured')).toBeInTheDocument();
    expect(screen.getByText('40%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress on JESIP Joint Doctrine' })).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByRole('button', { name: 'Continue Course' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'JESIP Joint Doctrine' })).toHaveAttribute('href', `/course/${course.id}`);
  });

  it('shows the cover image lazily, alt="" beside the title, in a fixed 16:9 box', () => {
    const withCover = { ...course, coverImage: 'https://example.test/storage/v1/object/public/course-covers/c/cover.png' };
    const { container } = renderWithProviders(<CourseCard course={withCover} user={null} publicEnroll={false} />);
    const cover = container.querySelector('img[data-course-cover]');
    expect(cover).not.toBeNull();
    expect(cover).toHaveAttribute('src', withCover.coverImage);
    expect(cover).toHaveAttribute('alt', '');
    expect(cover).toHaveAttribute('loading', 'lazy');
    expect(cover).toHaveAttribute('width', '640');
    expect(cover).toHaveAttribute('height', '360');
    expect((cover as HTMLImageElement).style.aspectRatio).toBe('16 / 9');
  });

  it('shows no image when the course has no cover', () => {
    const { container } = renderWithProviders(<CourseCard course={course} user={null} publicEnroll={false} />);
    expect(container.querySelector('img')).toBeNull();
  });

  it('sends a visitor to sign in, keeping the enrol intent under public-enroll', async () => {
    expect(signInPath('abc', false)).toBe('/auth?redirect=%2Fcourse%2Fabc');
    expect(signInPath('abc', true)).toBe('/auth?redirect=%2Fcourse%2Fabc%3Fenroll%3D1');
    const { user, router } = renderWithProviders(<CourseCard course={course} user={null} publicEnroll />);
    await user.click(screen.getByRole('button', { name: 'Login to Enroll' }));
    expect(router.state.location.pathname).toBe('/auth');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(`/course/${course.id}?enroll=1`);
  });

  it('words the empty catalogue per service', () => {
    expect(emptyText(t, null)).toBe('There are no courses available currently.');
    expect(emptyText(t, 'UKFRS')).toBe('There are no United Kingdom Fire Rescue Service courses available.');
  });

  it('words the empty catalogue under Available in Welsh, in both languages', async () => {
    expect(emptyText(t, null, true)).toBe('There are no courses available in Welsh yet.');
    expect(emptyText(t, 'UKFRS', true)).toBe('There are no United Kingdom Fire Rescue Service courses available in Welsh.');
    await i18n.changeLanguage('cy');
    expect(emptyText(t, null, true)).toBe('Nid oes cyrsiau ar gael yn Gymraeg eto.');
    expect(emptyText(t, 'UKFRS', true)).toBe('Nid oes cyrsiau ar gael yn Gymraeg ar gyfer Gwasanaeth Tân ac Achub y Deyrnas Unedig.');
  });

  it('speaks Welsh: the button, the Featured mark, the counts and the progress', async () => {
    await i18n.changeLanguage('cy');
    expect(cardButtonLabel(t, course, null)).toBe('Mewngofnodi i gofrestru');
    expect(cardButtonLabel(t, course, makeUser())).toBe('Cofrestru nawr');
    expect(cardButtonLabel(t, enrolled(0), makeUser())).toBe("Dechrau'r cwrs");
    expect(emptyText(t, 'UKFRS')).toBe('Nid oes cyrsiau ar gael ar gyfer Gwasanaeth Tân ac Achub y Deyrnas Unedig.');
    renderWithProviders(<CourseCard course={enrolled(40)} user={makeUser()} publicEnroll={false} />);
    expect(screen.getByText('Dan sylw')).toBeInTheDocument();
    expect(screen.getByText('4 modiwl · 4 awr')).toBeInTheDocument();
    expect(screen.getByText('Cynnydd')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Cynnydd: JESIP Joint Doctrine' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Parhau â'r cwrs" })).toBeInTheDocument();
  });

  it('shows a Welsh reader the Welsh title and description, with no mark', async () => {
    await i18n.changeLanguage('cy');
    const welsh = { ...course, titleCy: 'Athrawiaeth ar y Cyd JESIP', descriptionCy: 'Cydweithio mewn digwyddiadau mawr.', availableInWelsh: true };
    const { container } = renderWithProviders(<CourseCard course={welsh} user={null} publicEnroll={false} />);
    expect(screen.getByRole('link', { name: 'Athrawiaeth ar y Cyd JESIP' })).toBeInTheDocument();
    expect(screen.getByText('Cydweithio mewn digwyddiadau mawr.')).toHaveAttribute('lang', 'cy');
    expect(screen.queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
    expect(container.querySelector('[lang="en-GB"]')).toBeNull();
  });

  it('shows a Welsh reader the English where there is no Welsh, in lang="en-GB", marked once', async () => {
    await i18n.changeLanguage('cy');
    const half = { ...course, titleCy: 'Athrawiaeth ar y Cyd JESIP' };
    renderWithProviders(<CourseCard course={half} user={null} publicEnroll={false} />);
    expect(screen.getByText('Athrawiaeth ar y Cyd JESIP')).toHaveAttribute('lang', 'cy');
    expect(screen.getByText('Working together at major incidents.')).toHaveAttribute('lang', 'en-GB');
    expect(screen.getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(1);
    renderWithProviders(<CourseCard course={{ ...course, id: 'other' }} user={null} publicEnroll={false} />);
    expect(screen.getByText('JESIP Joint Doctrine')).toHaveAttribute('lang', 'en-GB');
    expect(screen.getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(2);
  });

  it('does not mark a Welsh title whose course has no description at all', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<CourseCard course={{ ...course, description: '', titleCy: 'Athrawiaeth ar y Cyd JESIP' }} user={null} publicEnroll={false} />);
    expect(screen.getByText('Athrawiaeth ar y Cyd JESIP')).toBeInTheDocument();
    expect(screen.queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
  });

  it('shows an English reader the English only, with no mark', () => {
    const welsh = { ...course, titleCy: 'Athrawiaeth ar y Cyd JESIP', descriptionCy: 'Cydweithio mewn digwyddiadau mawr.', availableInWelsh: true };
    renderWithProviders(<CourseCard course={welsh} user={null} publicEnroll={false} />);
    expect(screen.getByRole('link', { name: 'JESIP Joint Doctrine' })).toBeInTheDocument();
    expect(screen.getByText('Working together at major incidents.')).toBeInTheDocument();
    expect(screen.queryByText(/Athrawiaeth|Cydweithio/)).toBeNull();
    expect(screen.queryByText('Not available in Welsh')).toBeNull();
  });
});
