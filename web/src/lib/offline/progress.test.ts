import { describe, expect, it } from 'vitest';
import type { CourseModule } from '@shared/catalogue.ts';
import type { QueuedItem } from './device-store';
import { withQueuedReads } from './progress';

const person = '00000000-0000-4000-a000-000000000003';
const module = (id: string, extra: Partial<CourseModule> = {}): CourseModule => ({
  id, courseId: 'c', title: id, titleCy: null, content: '', contentCy: null, orderIndex: 1, duration: 5, hasQuiz: false,
  kind: 'content', image: null, createdAt: '', updatedAt: '', completed: false, read: false, quizPassed: false, ...extra,
});
const read = (moduleId: string): QueuedItem => ({ key: `k-${moduleId}`, queuedAt: '', item: { kind: 'module-read', personId: person, moduleId } });

describe('withQueuedReads', () => {
  it('shows a module read offline as read, and completed only where reading is all it needs', () => {
    const modules = [
      module('plain'),
      module('quiz-to-pass', { hasQuiz: true }),
      module('quiz-passed', { hasQuiz: true, quizPassed: true }),
      module('package', { kind: 'scorm' }),
      module('untouched'),
    ];
    const shown = withQueuedReads(modules, ['plain', 'quiz-to-pass', 'quiz-passed', 'package'].map(read));
    expect(shown.map((m) => [m.id, m.read, m.completed])).toEqual([
      ['plain', true, true],
      ['quiz-to-pass', true, false],
      ['quiz-passed', true, true],
      ['package', true, false],
      ['untouched', false, false],
    ]);
  });

  it('leaves the list as the server answered when nothing waits, and never undoes what the server says', () => {
    const modules = [module('done', { read: true, completed: true })];
    expect(withQueuedReads(modules, [])).toBe(modules);
    expect(withQueuedReads(modules, undefined)).toBe(modules);
    expect(withQueuedReads(modules, [read('done')])[0]).toMatchObject({ read: true, completed: true });
  });
});
