// The course page in Welsh: back link, level, counts, progress, the outline and the main button.
import { screen } from '@testing-library/react';
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
const module = (n: number, completed: boolean): CourseModule => ({
  id: `m${n}`, courseId: id, title: `Part ${n}`, content: 'Text', orderIndex: n, duration: 15, hasQuiz: n === 2, kind: 'content',
  image: null, createdAt: course.createdAt, updatedAt: course.updatedAt, completed, read: completed,
} as CourseModule);

function renderCourse(data: Course) {
  return renderWithProviders(<CourseDetail courseId={id} user={makeUser()} publicEnroll={false} />, {
    user: makeUser(),
    queryData: [[courseKeys.detail(id), data], [courseKeys.modules(id), [module(1, true), module(2, false)]]],
  });
}

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
});
