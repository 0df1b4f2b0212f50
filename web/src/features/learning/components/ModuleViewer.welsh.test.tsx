// The module page in Welsh: position, duration, the course's modules and progress, the actions.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Course, CourseModule, ModuleDetail } from '@shared/catalogue.ts';
import { i18n } from '@/lib/i18n/i18n';
import { courseKeys, moduleKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { moduleProgress, ModuleViewer } from './ModuleViewer';
import { scoStatusText } from './ScormPlayer';

const stamp = '2026-01-01T00:00:00.000Z';
const outline = (n: number): CourseModule => ({
  id: `m${n}`, courseId: 'c1', title: `Part ${n}`, content: 'Text', orderIndex: n, duration: 20, hasQuiz: false, kind: 'content',
  image: null, createdAt: stamp, updatedAt: stamp, completed: false, read: false, quizPassed: false,
});
const detail: ModuleDetail = {
  ...outline(1), content: 'Some text.', previousId: null, nextId: 'm2', position: 1, total: 2,
  course: { id: 'c1', title: 'JESIP Joint Doctrine', service: 'UKPS', requiresEnrollment: true }, quiz: null, enrolled: true,
};
const course = {
  id: 'c1', title: 'JESIP Joint Doctrine', description: '', service: 'UKPS', coverImage: null, authorId: null, author: null, duration: 1,
  level: 'BEGINNER', featured: false, requiresEnrollment: true, status: 'ACTIVE', modules: 2, createdAt: stamp, updatedAt: stamp,
  enrollment: { id: 'e', progress: 0, completed: false, status: 'ACTIVE', completedAt: null, certificateId: null },
} as Course;

describe('ModuleViewer in Welsh', () => {
  it('shows the module page in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<ModuleViewer courseId="c1" moduleId="m1" user={makeUser()} />, {
      user: makeUser(),
      queryData: [[moduleKeys.detail('m1'), detail], [courseKeys.detail('c1'), course], [courseKeys.modules('c1'), [outline(1), outline(2)]]],
    });
    expect(await screen.findByText('Modiwl 1 o 2')).toBeInTheDocument();
    expect(screen.getByText('20 mun')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Yn ôl i'r cwrs" })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Cynnwys y modiwl' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Nodi'n gyflawn" })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Llywio rhwng modiwlau' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Modiwl nesaf' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Nodi'n gyflawn a pharhau" })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: "Modiwlau'r cwrs" })).toBeInTheDocument();
    expect(screen.getByTestId('module-progress-text')).toHaveTextContent("0 o 2 modiwl wedi'u cwblhau");
  });

  it('words progress and a package part’s status in Welsh', async () => {
    await i18n.changeLanguage('cy');
    const t = i18n.getFixedT(null, 'learning');
    expect(moduleProgress(t, [{ completed: true }]).text).toBe("1 o 1 modiwl wedi'i gwblhau");
    expect(['passed', 'failed', 'incomplete', null].map((status) => scoStatusText(t, status))).toEqual(['Wedi llwyddo', 'Heb lwyddo', 'Ar y gweill', 'Heb ddechrau']);
  });
});
