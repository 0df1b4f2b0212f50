// The module page's progress line: '3 of 5 modules complete' and the bar's percentage.
import { describe, expect, it } from 'vitest';
import { moduleProgress } from './ModuleViewer';

const modules = (...done: boolean[]) => done.map((completed) => ({ completed }));

describe('moduleProgress', () => {
  it('counts the completed modules of the course', () => {
    expect(moduleProgress(modules(true, true, true, false, false))).toEqual({ done: 3, total: 5, percent: 60, text: '3 of 5 modules complete' });
    expect(moduleProgress(modules(false, false, false))).toMatchObject({ done: 0, percent: 0, text: '0 of 3 modules complete' });
    expect(moduleProgress(modules(true, true, false))).toMatchObject({ percent: 67 });
    expect(moduleProgress(modules(true))).toMatchObject({ percent: 100, text: '1 of 1 module complete' });
    expect(moduleProgress([])).toMatchObject({ total: 0, percent: 0 });
  });
});
