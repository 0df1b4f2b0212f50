// The Permissions dialog says what saving will do, with the number of users it changes.
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { replacementWarning } from './PermissionsTab';

describe('replacementWarning', () => {
  it('names how many users of the role saving changes', () => {
    expect(replacementWarning('INSTRUCTOR', 4)).toBe('This replaces the services of all 4 instructors.');
    expect(replacementWarning('STUDENT', 1)).toBe('This replaces the services of the only student.');
    expect(replacementWarning('ADMIN', 0)).toBe("No user is an administrator yet: saving changes nobody's services.");
    expect(replacementWarning('STUDENT', undefined)).toBe('Saving replaces the services of every student.');
  });

  it('says it in Welsh', async () => {
    await i18n.changeLanguage('cy');
    expect(replacementWarning('INSTRUCTOR', 4)).toBe("Bydd hyn yn disodli gwasanaethau pob un o'r 4 hyfforddwr.");
    expect(replacementWarning('STUDENT', 2)).toBe("Bydd hyn yn disodli gwasanaethau pob un o'r 2 ddysgwr.");
    expect(replacementWarning('STUDENT', 1)).toBe("Bydd hyn yn disodli gwasanaethau'r unig ddysgwr.");
    expect(replacementWarning('ADMIN', 0)).toBe("Nid oes unrhyw ddefnyddiwr yn weinyddwr eto: ni fydd cadw'n newid gwasanaethau neb.");
  });
});
