import { describe, expect, it } from 'vitest';
import { splitSiteName } from './site-title';

describe('splitSiteName', () => {
  it('takes a trailing version off as the badge', () => {
    expect(splitSiteName('Emergency Services Learning v3')).toEqual({ name: 'Emergency Services Learning', version: 'v3' });
    expect(splitSiteName('Blue Light Academy v2.1')).toEqual({ name: 'Blue Light Academy', version: 'v2.1' });
  });
  it('keeps any other name whole', () => {
    expect(splitSiteName('Blue Light Academy')).toEqual({ name: 'Blue Light Academy', version: null });
    expect(splitSiteName('v3')).toEqual({ name: 'v3', version: null });
  });
});
