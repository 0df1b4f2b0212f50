// When a browser test fails, says what each open page showed: its address and the start of its
// text, on one line that `npm test` repeats under "Failed:" at the end of its output (so the tail of
// a CI log tells why, not only which), and a screenshot under test-results/failures/.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { launchedBrowsers } from './browser';

export const FAILURE_MARK = '[e2e failure]';
const failuresDir = path.resolve('test-results', 'failures');

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  const pages = [...launchedBrowsers].flatMap((browser) => browser.contexts().flatMap((c) => c.pages()));
  for (const [index, page] of pages.entries()) {
    if (page.isClosed()) continue;
    // The page's own content and any alert or notification, not the navigation around them.
    const text = await page
      .evaluate(() => [...document.querySelectorAll('main, [role="alert"], [role="dialog"], .mantine-Notification-root')]
        .map((el) => (el as HTMLElement).innerText).join(' | ') || document.body.innerText)
      .catch(() => '(no text)');
    const name = `${context.task.name}`.replace(/[^\w-]+/g, '-').slice(0, 80);
    fs.mkdirSync(failuresDir, { recursive: true });
    await page.screenshot({ path: path.join(failuresDir, `${name}-${index + 1}.png`), timeout: 5_000 }).catch(() => {});
    console.log(`${FAILURE_MARK} ${context.task.name} | page ${index + 1}: ${page.url()} | ${text.replace(/\s+/g, ' ').slice(0, 300)}`);
  }
});
