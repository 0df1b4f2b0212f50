// The SCORM upload limit's words: the API's 413 and the upload control say the same, and a
// size over the limit is never written as the limit itself.
import { describe, expect, it } from 'vitest';
import { scormOverLimit, scormTooLargeMessage, scormUploadLimitField } from './scorm.ts';

const MB = 1024 * 1024;
const ADVICE = ' Export it again with smaller media (compressed video and audio), or split the course into several packages; a national administrator can raise the limit in Settings.';

describe('the SCORM upload limit', () => {
  it('states the package\'s size and the limit: whole MB from 10 MB, else to a tenth, rounded up', () => {
    expect(scormTooLargeMessage(250 * MB, 200)).toBe(`The package is 250 MB; the largest package this site accepts is 200 MB.${ADVICE}`);
    expect(scormTooLargeMessage(1.5 * MB, 1)).toMatch(/^The package is 1\.5 MB; the largest package this site accepts is 1 MB\./);
    // Just over: 200.01 MB is not "200 MB".
    expect(scormTooLargeMessage(200 * MB + 10_000, 200)).toMatch(/^The package is 200\.1 MB; /);
    expect(scormTooLargeMessage(1_100 * MB, 1024)).toMatch(/^The package is 1,100 MB; the largest package this site accepts is 1,024 MB\./);
  });

  it('says only that the limit was passed when the size is not known (a streamed body)', () => {
    expect(scormTooLargeMessage(null, 200)).toBe(`The package is larger than 200 MB, the largest package this site accepts.${ADVICE}`);
  });

  it('is over only past the limit\'s last byte', () => {
    expect(scormOverLimit(200 * MB, 200)).toBe(false);
    expect(scormOverLimit(200 * MB + 1, 200)).toBe(true);
  });

  it('takes whole MB from 1 to 1,024 in the settings form', () => {
    for (const good of [1, 200, 1024]) expect(scormUploadLimitField.safeParse(good).success).toBe(true);
    for (const bad of [0, 1025, 2.5, '200', null]) {
      const result = scormUploadLimitField.safeParse(bad);
      expect(result.success, String(bad)).toBe(false);
      expect(result.error?.issues[0].message).toBe('Enter a whole number of megabytes between 1 and 1,024');
    }
  });
});
