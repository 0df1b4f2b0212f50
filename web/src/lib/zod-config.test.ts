import { describe, expect, it } from 'vitest';
import { configureZod } from './zod-config';

describe('zod configuration', () => {
  it('turns on jitless in the configuration zod itself reads', async () => {
    configureZod();
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
  });
});
