import { describe, expect, it } from 'vitest';
import { formatRemaining } from './Countdown';

describe('formatRemaining', () => {
  it('shows minutes and seconds, never below zero', () => {
    expect(formatRemaining(10 * 60_000)).toBe('10:00');
    expect(formatRemaining(61_500)).toBe('1:02');
    expect(formatRemaining(-5000)).toBe('0:00');
  });
});
