// The module page in Welsh: position, duration, the course's modules and progress, the actions.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Course, CourseModule, ModuleDetail } from '@shared/catalogue.ts';
import { i18n } from '@/lib/i18n/i18n';
import { courseKeys, moduleKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { moduleProgress, ModuleViewer } from './ModuleViewer';
import { scoStatusText } from './ScormPlayer';

const stamp = '2026-01-01T00:00:00.000Z';
const outline = (n: number, titleCy: string | null = null): CourseModule => ({
  id: `m${n}`, courseId: 'c1', title: `Part ${n}`, titleCy, content: 'Text', contentCy: null, orderIndex: n, duration: 20, hasQuiz: false, kind: 'content',
  image: null, createdAt: stamp, updatedAt: stamp, completed: false, read: false, quizPassed: false,
});
const detail: ModuleDetail = {
  ...outline(1), content: 'Some text.', previousId: null, nextId: 'm2', position: 1, total: 2,
  course: { id: 'c1', title: 'JESIP Joint Doctrine', titleCy: null, service: 'UKPS', requiresEnrollment: true }, quiz: null, enrolled: true,
};
const course = {
  id: 'c1', title: 'JESIP Joint Doctrine', description: '', service: 'UKPS', coverImage: null, authorId: null, author: null, duration: 1,
  level: 'BEGINNER', featured: false, requiresEnrollment: true, status: 'ACTIVE', modules: 2, createdAt: stamp, updatedAt: stamp,
  enrollment: { id: 'e', progress: 0, completed: false, status: 'ACTIVE', completedAt: null, certificateId: null },
} as Course;

function renderModule(module: ModuleDetail, modules = [outline(1), outline(2)]) {
  return renderWithProviders(<ModuleViewer courseId="c1" moduleId="m1" user={makeUser()} />, {
    user: makeUser(),
    queryData: [[moduleKeys.detail('m1'), module], [courseKeys.detail('c1'), course], [courseKeys.modules('c1'), modules]],
  });
}

const inWelsh: ModuleDetail = {
  ...detail,
  titleCy: 'Rhan 1',
  content: '# Part 1\n\nSome text.',
  contentCy: '# Rhan 1\n\nRhywfaint o destun.',
  course: { ...detail.course, titleCy: 'Athrawiaeth ar y Cyd JESIP' },
};

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

  it("shows a Welsh reader a practical's Welsh introduction; one without an introduction is not marked English", async () => {
    await i18n.changeLanguage('cy');
    const practical: ModuleDetail = { ...inWelsh, kind: 'assessment', content: 'Your assessor watches you start the set.',
      contentCy: 'Mae eich aseswr yn eich gwylio yn cychwyn y set.' };
    const { unmount } = renderModule(practical, [outline(1, 'Rhan 1'), outline(2, 'Rhan 2')]);
    expect(await screen.findByText('Mae eich aseswr yn eich gwylio yn cychwyn y set.')).toBeInTheDocument();
    expect(screen.queryByText('Your assessor watches you start the set.')).toBeNull();
    expect(screen.queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
    unmount();
    renderModule({ ...practical, content: '', contentCy: null }, [outline(1, 'Rhan 1'), outline(2, 'Rhan 2')]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Rhan 1' })).toHaveAttribute('lang', 'cy');
    expect(screen.queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
  });

  it('shows a Welsh reader the module in Welsh where it has Welsh, unmarked', async () => {
    await i18n.changeLanguage('cy');
    const { container } = renderModule(inWelsh, [outline(1, 'Rhan 1'), outline(2, 'Rhan 2')]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Rhan 1' })).toHaveAttribute('lang', 'cy');
    expect(screen.getByRole('link', { name: 'Athrawiaeth ar y Cyd JESIP' })).toHaveAttribute('lang', 'cy');
    expect(screen.getByText('Rhywfaint o destun.')).toBeInTheDocument();
    expect(screen.queryByText('Some text.')).toBeNull();
    // The Welsh text's own leading title is dropped, as the English's is.
    expect(screen.getAllByRole('heading', { name: 'Rhan 1' })).toHaveLength(1);
    expect(await screen.findByRole('link', { name: /Rhan 2/ })).toBeInTheDocument();
    expect(screen.queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
    expect(container.querySelector('[lang="en-GB"]')).toBeNull();
    await waitFor(() => expect(document.title).toContain('Rhan 1 · Athrawiaeth ar y Cyd JESIP'));
  });

  it('shows a Welsh reader the English where there is no Welsh, in lang="en-GB", marked once on the module', async () => {
    await i18n.changeLanguage('cy');
    const { container } = renderModule({ ...inWelsh, contentCy: null }, [outline(1, 'Rhan 1'), outline(2)]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Rhan 1' })).toHaveAttribute('lang', 'cy');
    expect(screen.getByText('Some text.')).toBeInTheDocument();
    expect(container.querySelector('[data-markdown]')).toHaveAttribute('lang', 'en-GB');
    const list = await screen.findByTestId('course-module-list');
    expect(within(list).getByText('Part 2')).toHaveAttribute('lang', 'en-GB');
    // One mark on the module, one on the list of modules.
    expect(screen.getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(2);
    expect(within(list).getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(1);
  });

  it('shows an English reader the English only, unmarked', async () => {
    renderModule(inWelsh, [outline(1, 'Rhan 1'), outline(2, 'Rhan 2')]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Part 1' })).toBeInTheDocument();
    expect(screen.getByText('Some text.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'JESIP Joint Doctrine' })).toBeInTheDocument();
    expect(await screen.findByTestId('course-module-list')).toBeInTheDocument();
    expect(screen.queryByText(/Rhan|Athrawiaeth|Rhywfaint/)).toBeNull();
    expect(screen.queryByText('Not available in Welsh')).toBeNull();
    await waitFor(() => expect(document.title).toContain('Part 1 · JESIP Joint Doctrine'));
  });
});
