// The module page's progress line: '3 of 5 modules complete' and the bar's percentage.
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { moduleProgress } from './ModuleViewer';

const t = i18n.getFixedT(null, 'learning');

const modules = (...done: boolean[]) => done.map((completed) => ({ completed }));

describe('moduleProgress', () => {
  it('counts the completed modules of the course', () => {
    expect(moduleProgress(t, modules(true, true, true, false, false))).toEqual({ done: 3, total: 5, percent: 60, text: '3 of 5 modules complete' });
    expect(moduleProgress(t, modules(false, false, false))).toMatchObject({ done: 0, percent: 0, text: '0 of 3 modules complete' });
    expect(moduleProgress(t, modules(true, true, false))).toMatchObject({ percent: 67 });
    expect(moduleProgress(t, modules(true))).toMatchObject({ percent: 100, text: '1 of 1 module complete' });
    expect(moduleProgress(t, [])).toMatchObject({ total: 0, percent: 0 });
  });
});
