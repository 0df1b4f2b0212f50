// The docs that code can check: ARCHITECTURE.md's routing table lists exactly the routers app.ts
// mounts (prefix and file), PERFORMANCE.md keeps the sections the benchmarks rewrite (which
// scripts/bench-doc.mjs renders from a run's report), and the docs' links to files lead somewhere.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchRunMarkdown, replaceSection, runDate } from '../scripts/bench-doc.mjs';

const read = (file) => readFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), 'utf8');

/** `courses/index.ts` is written `courses/` in the table, as a folder's router is its index. */
const routeFile = (file) => file.replace(/^\.\/routes\//, '').replace(/index\.ts$/, '');

/** Every `app.route('<prefix>', <router>(...))` of app.ts as "<prefix> <route file>". */
export function mountsOfApp(source) {
  const fileOf = new Map();
  for (const [, names, file] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(\.\/routes\/[^']+)'/g)) {
    for (const name of names.split(',')) fileOf.set(name.trim(), routeFile(file));
  }
  return [...source.matchAll(/\bapp\.route\(\s*'([^']*)'\s*,\s*(\w+)\(/g)].map(([, prefix, router]) => {
    if (!fileOf.has(router)) throw new Error(`app.ts mounts ${router}, not imported from ./routes/`);
    return `${prefix} ${fileOf.get(router)}`;
  });
}

/** The routing table's rows (the table whose header starts "| Mount | Route file |") the same way. */
export function mountsOfTable(markdown) {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*Mount\s*\|\s*Route file\s*\|/.test(line));
  if (header < 0) throw new Error('no "| Mount | Route file |" table');
  const rows = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1);
    const code = (cell) => /`([^`]*)`/.exec(cell ?? '')?.[1];
    rows.push(`${code(cells[0])} ${code(cells[1])}`);
  }
  return rows;
}

const sorted = (list) => [...list].sort();

describe('ARCHITECTURE.md routing table', () => {
  it('lists every prefix app.ts mounts, with its route file, and nothing else', () => {
    const app = mountsOfApp(read('supabase/functions/api/app.ts'));
    const table = mountsOfTable(read('docs/ARCHITECTURE.md'));
    expect(app.length).toBeGreaterThan(20);
    expect(sorted(table)).toEqual(sorted(app));
  });

  it('reads a mount and a row as the same pair, and notices a missing one', () => {
    const source = `import { aRoutes, bRoutes } from './routes/a/index.ts';\nimport { cRoutes } from './routes/c.ts';\n` +
      `app.route('/a', aRoutes(config, db));\n  app.route('/', cRoutes(config, db)); // comment\napp.route('/b/:id', bRoutes(config, db));`;
    expect(mountsOfApp(source)).toEqual(['/a a/', '/ c.ts', '/b/:id a/']);
    const table = '| Mount | Route file | What |\n|---|---|---|\n| `/a` | `a/` | x \\| y |\n| `/` | `c.ts` | `/x` |\n\nafter';
    expect(mountsOfTable(table)).toEqual(['/a a/', '/ c.ts']);
    expect(sorted(mountsOfTable(table))).not.toEqual(sorted(mountsOfApp(source)));
  });
});

describe('PERFORMANCE.md', () => {
  const doc = read('docs/PERFORMANCE.md');

  it('stays short and keeps one section for each benchmark to rewrite', () => {
    expect(doc.split('\n').length).toBeLessThanOrEqual(200);
    for (const name of ['bench', 'bench-web', 'bench-lighthouse']) {
      expect(doc.split(`<!-- ${name}:begin -->`).length, name).toBe(2);
      expect(doc.split(`<!-- ${name}:end -->`).length, name).toBe(2);
    }
  });

  it('has its bench section rendered from a run report, replacing only what is between the markers', () => {
    const levels = (rps, p95, p99, postgres) =>
      [1, 8, 32].map((connections) => ({ connections, rps, p95, p99, cpuMsPerAnswer: { postgres } }));
    const ceilings = { 'sql-tx': levels(1000, 10, 40, 0.3), 'sql-tx via gateway': levels(900, 12, 44, 0.3) };
    const report = {
      date: '2026-11-27T05-55-00',
      minutes: 32.8,
      seconds: 5,
      warmup: 2,
      machine: { cpu: 'AMD EPYC', cores: 2, memoryGiB: 24, loadAverage: [0.5, 0.4, 0.3] },
      scaled: {
        data: { users: 100003 },
        ceilings,
        endpoints: {
          'course page': { kind: 'read', levels: levels(1800, 9, 33, 0.46) },
          enrol: { kind: 'write', levels: levels(700, 40, 90, 1.4) },
        },
      },
      seed: {
        data: { users: 3 },
        ceilings,
        endpoints: { 'course page': { kind: 'read', levels: levels(2000, 9, 33, 0.47) }, enrol: { kind: 'write', levels: levels(700, 38, 80, 1.5) } },
      },
      verdict: {
        budgets: [
          { budget: 'course page: p95 at 8 <= 1.5x', value: '9 ms', pass: true },
          { budget: 'enrol: p95 at 8 <= 3x', value: '40 ms', pass: false },
          { budget: 'platform resident memory (Scaled database) < 500 MB', value: '350 MB', pass: true },
        ],
      },
    };
    const body = benchRunMarkdown(report);
    expect(runDate(report.date)).toBe('27 November 2026, 05:55 UTC');
    expect(body).toContain('**2 of 3 budgets hold.**');
    expect(body).toContain('| course page | 1800 / 2000 | -10 % | 9 (0.75×; 0.9×) | 33 (0.75×; 0.83×) | 200 % | 0.46 / 0.47 |');
    expect(body).toContain('| enrol | 700 / 700 | +0 % | 40 (3.33×; 4×) |  |  | 1.4 / 1.5 |');
    expect(body).toContain('| platform resident memory (Scaled database) < 500 MB | 350 MB | PASS |');
    expect(body).toContain('- enrol: p95 at 8 <= 3x: 40 ms');

    const page = 'before\n<!-- bench:begin -->\nold figures\n<!-- bench:end -->\nafter\n';
    const once = replaceSection(page, 'bench', body);
    expect(once).toBe(`before\n<!-- bench:begin -->\n${body}\n<!-- bench:end -->\nafter\n`);
    expect(replaceSection(once, 'bench', body)).toBe(once);
    expect(() => replaceSection('no markers', 'bench', body)).toThrow(/no <!-- bench:begin -->/);
  });
});

describe('links between the docs', () => {
  it('lead to files that exist', () => {
    const docs = ['README.md', ...readdirSync(fileURLToPath(new URL('../docs', import.meta.url)), { recursive: true })
      .filter((file) => String(file).endsWith('.md'))
      .map((file) => `docs/${file}`)];
    const broken = [];
    for (const doc of docs) {
      for (const [, target] of read(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const file = join(fileURLToPath(new URL('..', import.meta.url)), dirname(doc), target);
        if (!existsSync(file)) broken.push(`${doc} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(docs).toContain('docs/decisions/kept-compliance-counts.md');
    expect(docs).toContain('docs/SECURITY.md');
  });

  it('include every decision record in the index of docs/decisions', () => {
    const dir = fileURLToPath(new URL('../docs/decisions', import.meta.url));
    const index = read('docs/decisions/README.md');
    const records = readdirSync(dir).filter((file) => file.endsWith('.md') && file !== 'README.md');
    expect(records.length).toBeGreaterThan(10);
    expect(records.filter((file) => !index.includes(`](${file})`))).toEqual([]);
  });
});
