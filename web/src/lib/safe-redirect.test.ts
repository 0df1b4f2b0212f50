import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it('keeps local paths with their query', () => {
    expect(safeRedirect('/my-courses')).toBe('/my-courses');
    expect(safeRedirect('/course/5?tab=modules')).toBe('/course/5?tab=modules');
  });

  it('falls back to / for missing, external or protocol-relative targets', () => {
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('')).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('javascript:alert(1)')).toBe('/');
    expect(safeRedirect('/auth?redirect=/x')).toBe('/');
  });
});
