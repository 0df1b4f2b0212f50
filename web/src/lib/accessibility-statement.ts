// The facts the accessibility statement (/accessibility) states, in one place. The browser tests'
// axe-core check (e2e/browser.ts expectAccessible) takes its WCAG rule tags from WCAG_STANDARD, and
// e2e/staff.test.ts checks that the page says what is here, so the statement cannot claim a level
// the tests do not check. Update LAST_TESTED when the statement is reviewed against a test run.
// No imports: e2e code imports this file directly.

export const WCAG_STANDARD = { version: '2.2', level: 'AA' } as const;

/** The axe-core rule tags for every WCAG version up to WCAG_STANDARD, at levels A and AA. */
export function axeTagsFor(standard: { version: string; level: string } = WCAG_STANDARD): string[] {
  const versions = ['2', '2.1', '2.2'].slice(0, ['2', '2.1', '2.2'].indexOf(standard.version) + 1);
  const levels = standard.level === 'AA' ? ['a', 'aa'] : ['a'];
  const tags: string[] = [];
  for (const v of versions) {
    const id = v.replace('.', '');
    for (const l of levels) {
      // WCAG 2.2's additions are checked through the wcag22aa tag (as the suite always has).
      if (id === '22' && l === 'a') continue;
      tags.push(`wcag${id}${l}`);
    }
  }
  return tags;
}

/** When the service was last tested (ISO date) and how. */
export const LAST_TESTED = '2026-11-25';
/** The screen widths, in CSS pixels, at which the browser tests check pages. */
export const TESTED_WIDTHS = [1366, 390] as const;
/** When the statement was first prepared (ISO date). */
export const STATEMENT_PREPARED = '2026-11-25';
