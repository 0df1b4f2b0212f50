// `npm run bench:web`: the web app measured in Debian's Chromium on the scaled database.
//   - the JavaScript and CSS / loads, gzipped (level 9, what a compressing server or CDN sends) and raw
//   - time to the first course card and Largest Contentful Paint for / and for a course page
// Budgets: at most 200 KB of gzipped JavaScript for /; first card and LCP under 1 s.
//
//   npm run bench:web                    starts the platform (with the web build) on esl_scale
//   DATABASE_URL=<url> npm run bench:web another database
//   PLATFORM_URL=<url> npm run bench:web a platform already running (its database is measured)
// Each page is loaded cold (new browser context, empty cache) BENCH_WEB_RUNS times (default 5);
// the median is judged. Results go to bench-results/web-<date>.json and .md
// (ignored by git; scripts/bench-results.mjs), and the pages' table and budgets to the bench-web
// section of docs/PERFORMANCE.md (scripts/bench-doc.mjs; BENCH_DOC=0 leaves the page alone).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { databaseUrl, startPlatformProcess } from './platform-process.mjs';
import { benchResultsDir, resultStamp } from './bench-results.mjs';
import { runDate, writeDocSection } from './bench-doc.mjs';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const BUDGET = { jsGzipBytes: 200 * 1024, firstCardMs: 1000, lcpMs: 1000 };

// Recorded in the page from its first moment: when the first matching element appeared, and LCP.
const OBSERVE = `
  window.__bench = { first: null, lcp: null };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const watch = () => {
    const selector = window.__benchSelector;
    if (window.__bench.first === null && selector && document.querySelector(selector)) window.__bench.first = performance.now();
  };
  new MutationObserver(watch).observe(document, { childList: true, subtree: true });
`;

async function loadCold(browser, url, selector) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(`window.__benchSelector = ${JSON.stringify(selector)};${OBSERVE}`);
  const page = await context.newPage();
  const assets = [];
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    const body = await response.body().catch(() => null);
    if (!body) return;
    assets.push({ url: new URL(response.url()).pathname, type, raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length });
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector(selector, { timeout: 15_000 });
  // LCP is final once the page has had a moment without larger paints.
  await page.waitForTimeout(500);
  const timing = await page.evaluate(() => globalThis.__bench);
  await page.waitForLoadState('networkidle');
  await context.close();
  const sum = (type, key) => assets.filter((a) => a.type === type).reduce((n, a) => n + a[key], 0);
  return {
    firstMs: Math.round(timing.first),
    lcpMs: timing.lcp == null ? null : Math.round(timing.lcp),
    js: { files: assets.filter((a) => a.type === 'script').length, raw: sum('script', 'raw'), gzip: sum('script', 'gzip') },
    css: { files: assets.filter((a) => a.type === 'stylesheet').length, raw: sum('stylesheet', 'raw'), gzip: sum('stylesheet', 'gzip') },
    assets,
  };
}

const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};

async function main() {
  let platform = null;
  let baseUrl = process.env.PLATFORM_URL;
  let dataDir = null;
  // Which data the pages were measured on, for the report: the pages' times depend on it.
  let database = 'the platform at PLATFORM_URL';
  if (!baseUrl) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esl-bench-web-'));
    const dbUrl = process.env.DATABASE_URL || databaseUrl('esl_scale');
    database = `database ${new URL(dbUrl).pathname.slice(1)}`;
    console.log('Starting the platform with the web build ...');
    platform = await startPlatformProcess({ dataDir, databaseUrl: dbUrl, web: true, port: Number(process.env.BENCH_PORT ?? 0) });
    baseUrl = platform.url;
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    // A course from the catalogue's first page, as a visitor would click it.
    const catalogue = await fetch(`${baseUrl}/functions/v1/api/courses`).then((r) => r.json());
    const courseId = catalogue.items[0]?.id;
    if (Number.isFinite(catalogue.total)) database += ` (${catalogue.total.toLocaleString('en-GB')} courses in the catalogue)`;
    if (!courseId) throw new Error('the catalogue is empty');
    const pages = [
      { name: 'catalogue /', url: `${baseUrl}/`, selector: '[data-course-card]' },
      { name: 'course page', url: `${baseUrl}/course/${courseId}`, selector: 'main h1' },
    ];
    const results = [];
    for (const p of pages) {
      await loadCold(browser, p.url, p.selector); // warm the server's caches, not the browser's
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await loadCold(browser, p.url, p.selector));
      const result = {
        name: p.name,
        path: new URL(p.url).pathname,
        firstMs: median(runs.map((r) => r.firstMs)),
        lcpMs: median(runs.map((r) => r.lcpMs)),
        js: runs[0].js,
        css: runs[0].css,
        assets: runs[0].assets,
        runs: runs.map(({ firstMs, lcpMs }) => ({ firstMs, lcpMs })),
      };
      results.push(result);
      console.log(
        `${p.name.padEnd(12)} first ${p.selector === 'main h1' ? 'heading' : 'course card'} ${result.firstMs} ms, LCP ${result.lcpMs} ms (median of ${RUNS}); ` +
          `JS ${(result.js.gzip / 1024).toFixed(1)} KB gzipped (${(result.js.raw / 1024).toFixed(0)} KB raw, ${result.js.files} files), ` +
          `CSS ${(result.css.gzip / 1024).toFixed(1)} KB gzipped (${(result.css.raw / 1024).toFixed(0)} KB raw)`,
      );
    }
    const home = results[0];
    const budgets = [
      { budget: 'JavaScript for / (gzipped) <= 200 KB', value: `${(home.js.gzip / 1024).toFixed(1)} KB`, pass: home.js.gzip <= BUDGET.jsGzipBytes },
      ...results.flatMap((r) => [
        { budget: `${r.name}: first content < 1 s`, value: `${r.firstMs} ms`, pass: r.firstMs < BUDGET.firstCardMs },
        { budget: `${r.name}: LCP < 1 s`, value: `${r.lcpMs} ms`, pass: r.lcpMs != null && r.lcpMs < BUDGET.lcpMs },
      ]),
    ];
    console.log('\nBudgets');
    for (const b of budgets) console.log(`  ${b.pass ? 'PASS' : 'FAIL'}  ${b.budget}: ${b.value}`);
    const date = resultStamp();
    const dir = benchResultsDir();
    const report = { date, runs: RUNS, database, machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length }, results, budgets };
    fs.writeFileSync(path.join(dir, `web-${date}.json`), JSON.stringify(report, null, 2) + '\n');
    const tables = [
      '| Page | First content (ms) | LCP (ms) | JS gzipped / raw (KB) | CSS gzipped / raw (KB) |',
      '|---|---|---|---|---|',
      ...results.map((r) =>
        `| ${r.name} | ${r.firstMs} | ${r.lcpMs} | ${(r.js.gzip / 1024).toFixed(1)} / ${(r.js.raw / 1024).toFixed(0)} | ${(r.css.gzip / 1024).toFixed(1)} / ${(r.css.raw / 1024).toFixed(0)} |`
      ),
      '',
      '| Budget | Measured | |',
      '|---|---|---|',
      ...budgets.map((b) => `| ${b.budget} | ${b.value} | ${b.pass ? 'PASS' : '**FAIL**'} |`),
    ];
    const md = [
      `# Web measurements ${date}`,
      '',
      `Debian's Chromium, headless, a new context (empty cache) per load, median of ${RUNS} loads after one warm-up.`,
      '',
      ...tables,
      '',
      'Scripts loaded by /:',
      '',
      ...home.assets.filter((a) => a.type === 'script').map((a) => `- ${a.url}: ${(a.gzip / 1024).toFixed(1)} KB gzipped`),
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, `web-${date}.md`), md);
    writeDocSection('bench-web', [
      `Latest run: **${runDate(date)}**; ${report.machine.cpu}, ${report.machine.cores} cores, load average at the end ` +
        `${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${database}; median of ${RUNS} cold loads.`,
      '',
      ...tables,
    ].join('\n'));
    console.log(`\nResults in ${path.join(dir, `web-${date}`)}.json and .md`);
    process.exitCode = budgets.every((b) => b.pass) ? 0 : 1;
  } finally {
    await browser.close();
    if (platform) await platform.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
