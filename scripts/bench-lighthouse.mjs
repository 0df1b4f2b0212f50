// `npm run bench:lighthouse`: Lighthouse, mobile defaults (a mid-range phone on slow
// 4G, simulated), against Debian's Chromium on /, a course page and /auth, three runs each; prints
// the median of each category and PASS/FAIL against the budgets:
//   Performance >= 90, Accessibility 100, Best Practices 100, SEO >= 95.
// Then the installability checks, in the same Chromium: Lighthouse 12 has no PWA category (its
// installable-manifest audit read Chromium's own check, Page.getInstallabilityErrors), so this asks
// Chromium directly on / once the service worker controls it, and reads the manifest's icons.
//
//   npm run bench:lighthouse                    starts a platform of its own (as `npm start` does,
//                                               with the web build) on a fresh, seeded data folder
//   PLATFORM_URL=<url> npm run bench:lighthouse a platform already running
//   LIGHTHOUSE_RUNS=5 npm run bench:lighthouse  more runs per page
// Results go to bench-results/lighthouse-<date>.json and .md (ignored by git; scripts/bench-results.mjs),
// and the table to the bench-lighthouse section of docs/PERFORMANCE.md (scripts/bench-doc.mjs;
// BENCH_DOC=0 leaves the page alone).
// Exits 1 when a budget fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { startPlatformProcess } from './platform-process.mjs';
import { benchResultsDir, resultStamp } from './bench-results.mjs';
import { runDate, writeDocSection } from './bench-doc.mjs';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BUDGETS = {
  performance: { min: 90, label: 'Performance' },
  accessibility: { min: 100, label: 'Accessibility' },
  'best-practices': { min: 100, label: 'Best Practices' },
  seo: { min: 95, label: 'SEO' },
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  let platform = null;
  let baseUrl = process.env.PLATFORM_URL;
  if (!baseUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esl-lighthouse-'));
    console.log('Starting the platform (with the web build)...');
    platform = await startPlatformProcess({ dataDir, web: true, timeoutMs: 300_000 });
    baseUrl = platform.url;
  }
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const courses = await (await fetch(`${baseUrl}/functions/v1/api/courses`)).json();
    const course = courses.items?.[0];
    if (!course) throw new Error('no course in the catalogue to measure');
    const pages = [
      { name: '/', url: `${baseUrl}/` },
      { name: 'course page', url: `${baseUrl}/course/${course.id}` },
      { name: '/auth', url: `${baseUrl}/auth` },
    ];
    const results = [];
    for (const page of pages) {
      const runs = [];
      for (let run = 0; run < RUNS; run++) {
        // Mobile defaults: Lighthouse's own form factor, screen emulation and simulated throttling.
        const answer = await lighthouse(page.url, { port: chrome.port, output: 'json', logLevel: 'error' });
        const lhr = answer.lhr;
        // A run Lighthouse could not complete (page timed out on a loaded machine) scores null, not 0:
        // it is reported and left out of the median.
        if (lhr.runtimeError || Object.keys(BUDGETS).some((key) => lhr.categories[key]?.score == null)) {
          console.log(`${page.name} run ${run + 1}: not completed (${lhr.runtimeError?.code ?? 'no score'}); left out`);
          continue;
        }
        const scores = Object.fromEntries(Object.keys(BUDGETS).map((key) => [key, Math.round((lhr.categories[key]?.score ?? 0) * 100)]));
        const failing = Object.keys(BUDGETS).flatMap((key) =>
          (lhr.categories[key]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && lhr.audits[ref.id]?.score < 1)
            .map((ref) => `${key}: ${ref.id} (${lhr.audits[ref.id].displayValue ?? lhr.audits[ref.id].score})`),
        );
        const metrics = {
          fcpMs: Math.round(lhr.audits['first-contentful-paint']?.numericValue ?? 0),
          lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
          tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
          cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
          speedIndexMs: Math.round(lhr.audits['speed-index']?.numericValue ?? 0),
        };
        runs.push({ scores, metrics, failing });
        console.log(`${page.name} run ${run + 1}: ${Object.entries(scores).map(([k, v]) => `${k} ${v}`).join(', ')}`);
      }
      if (runs.length === 0) throw new Error(`no Lighthouse run of ${page.name} completed`);
      const medians = Object.fromEntries(Object.keys(BUDGETS).map((key) => [key, median(runs.map((r) => r.scores[key]))]));
      const metricMedians = Object.fromEntries(Object.keys(runs[0].metrics).map((key) => [key, median(runs.map((r) => r.metrics[key]))]));
      const failing = [...new Set(runs.flatMap((r) => r.failing))];
      results.push({ page: page.name, url: page.url.replace(baseUrl, ''), medians, metrics: metricMedians, failing, runs });
    }

    const installable = await installability(chrome.port, baseUrl);
    let allPass = installable.pass;
    const lines = [];
    lines.push(`Lighthouse ${RUNS} run(s) per page, mobile defaults, median scores (budgets: Performance >= 90, Accessibility 100, Best Practices 100, SEO >= 95)`);
    lines.push('');
    lines.push('| Page | Performance | Accessibility | Best Practices | SEO | FCP | LCP | TBT | CLS |');
    lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const result of results) {
      const cells = Object.entries(BUDGETS).map(([key, budget]) => {
        const pass = result.medians[key] >= budget.min;
        if (!pass) allPass = false;
        return `${result.medians[key]} ${pass ? 'PASS' : 'FAIL'}`;
      });
      const m = result.metrics;
      lines.push(`| ${result.page} | ${cells.join(' | ')} | ${(m.fcpMs / 1000).toFixed(1)} s | ${(m.lcpMs / 1000).toFixed(1)} s | ${m.tbtMs} ms | ${m.cls} |`);
    }
    lines.push('');
    for (const result of results) {
      if (result.failing.length) lines.push(`Below full marks on ${result.page}: ${result.failing.join('; ')}`);
    }
    lines.push('');
    lines.push(`Installable (Chromium's installability checks on /: manifest, icons, service worker): ${installable.pass ? 'PASS' : 'FAIL'}; ${installable.detail}`);
    lines.push('');
    lines.push(allPass ? 'PASS: every budget holds.' : 'FAIL: a budget is not met.');
    const report = lines.join('\n');
    console.log(`\n${report}`);

    const outDir = benchResultsDir();
    const stamp = resultStamp();
    fs.writeFileSync(path.join(outDir, `lighthouse-${stamp}.json`), JSON.stringify({ date: new Date().toISOString(), runs: RUNS, cpus: os.cpus().length, load: os.loadavg(), results }, null, 2));
    fs.writeFileSync(path.join(outDir, `lighthouse-${stamp}.md`), `# Lighthouse, ${new Date().toISOString()}\n\nLoad average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')}\n\n${report}\n`);
    writeDocSection('bench-lighthouse', `Latest run: **${runDate(stamp)}**; ${os.cpus().length} cores, load average at the end ` +
      `${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}.\n\n${report}`);
    process.exitCode = allPass ? 0 : 1;
  } finally {
    chrome.kill();
    await platform?.stop();
  }
}

/** Chromium's installability errors for / once the service worker controls it (none: installable),
 * and the manifest's icon sizes (a browser asks for 192 and 512 pixels). */
async function installability(port, baseUrl) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    // Run in the page (a string: this file's globals are Node's).
    const controlled = await page.evaluate(`new Promise((resolve) => {
      if (navigator.serviceWorker.controller) return resolve(true);
      navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true));
      setTimeout(() => resolve(false), 30000);
    })`);
    const session = await context.newCDPSession(page);
    const { installabilityErrors } = await session.send('Page.getInstallabilityErrors');
    const { url: manifestUrl } = await session.send('Page.getAppManifest');
    const manifest = manifestUrl ? await (await fetch(manifestUrl)).json() : { icons: [] };
    const sizes = (manifest.icons ?? []).map((icon) => icon.sizes);
    const iconsOk = ['192x192', '512x512'].every((size) => sizes.includes(size));
    await page.close();
    const errors = installabilityErrors.map((e) => e.errorId);
    return {
      pass: controlled && errors.length === 0 && iconsOk,
      detail: `service worker controls the page: ${controlled ? 'yes' : 'no'}; installability errors: ${errors.length ? errors.join(', ') : 'none'}; ` +
        `manifest ${manifestUrl ? new URL(manifestUrl).pathname : 'missing'} with icons ${sizes.join(', ') || 'none'}`,
    };
  } finally {
    await browser.close().catch(() => {});
  }
}

await main();
