import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('takes the first letters of at most two words', () => {
    expect(initials('Jane Mary Smith')).toBe('JM');
    expect(initials('jane smith')).toBe('JS');
    expect(initials('  Ada  ')).toBe('A');
    expect(initials('')).toBe('');
  });
});
