import { describe, expect, it } from 'vitest';
import { formatRemaining } from './Countdown';

describe('formatRemaining', () => {
  it('shows minutes and seconds, never below zero', () => {
    expect(formatRemaining(10 * 60_000)).toBe('10:00');
    expect(formatRemaining(61_500)).toBe('1:02');
    expect(formatRemaining(-5000)).toBe('0:00');
  });
});

describe('withoutLeadingTitle', () => {
  it('drops an opening heading that repeats the module title, and nothing else', async () => {
    const { withoutLeadingTitle } = await import('./ModuleViewer');
    expect(withoutLeadingTitle('# Why JESIP exists\n\nText', 'Why JESIP exists')).toBe('Text');
    expect(withoutLeadingTitle('# Another heading\n\nText', 'Why JESIP exists')).toBe('# Another heading\n\nText');
    expect(withoutLeadingTitle('Text first\n# Why JESIP exists', 'Why JESIP exists')).toBe('Text first\n# Why JESIP exists');
  });
});
