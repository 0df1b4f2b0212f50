// The latest benchmark figures in docs/PERFORMANCE.md are written by the benchmarks, not by hand:
// each rewrites its own section between `<!-- <name>:begin -->` and `<!-- <name>:end -->` (bench,
// bench-web, bench-lighthouse) from the figures it measured. BENCH_DOC=0 leaves the page alone.
//
//   node scripts/bench-doc.mjs [--print] [bench-results/<date>.json]
// renders the `bench` section again from a saved full run (default: the newest in bench-results/);
// --print writes it to stdout instead of the page.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const PERFORMANCE_DOC = path.join(repoRoot, 'docs', 'PERFORMANCE.md');

/**
 * The ceiling every ratio budget is judged against: the transaction-wrapped SQL reached through the
 * platform's gateway, as every endpoint is (scripts/bench-ceiling-gateway.mjs). The straight one
 * skips a hop no endpoint can skip; its ratio is shown beside.
 */
export const GATEWAY_TX = 'sql-tx via gateway';

const at = (levels, c) => levels.find((l) => l.connections === c);
const round = (x) => (x == null ? null : Math.round(x * 100) / 100);

/** The ceilings an endpoint is judged against: measured next to it, else the run's first. */
export function endpointCeilings(phase, name) {
  return {
    gateway: phase.ceilings[`${GATEWAY_TX} next to ${name}`] ?? phase.ceilings[GATEWAY_TX],
    straight: phase.ceilings[`sql-tx next to ${name}`] ?? phase.ceilings['sql-tx'],
  };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-11-27T05-55-00" (resultStamp) or an ISO time as "27 November 2026, 05:55 UTC". */
export function runDate(stamp) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})[-:](\d{2})/.exec(stamp);
  if (!m) return stamp;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}, ${m[4]}:${m[5]} UTC`;
}

/** `text` with the part between the section's two markers replaced by `body`. */
export function replaceSection(text, name, body) {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`no ${begin} ... ${end} section in the page`);
  return `${text.slice(0, from + begin.length)}\n${body.trim()}\n${text.slice(to)}`;
}

/** Rewrites one generated section of docs/PERFORMANCE.md (unless BENCH_DOC=0). */
export function writeDocSection(name, body, file = PERFORMANCE_DOC) {
  if (process.env.BENCH_DOC === '0') return false;
  fs.writeFileSync(file, replaceSection(fs.readFileSync(file, 'utf8'), name, body));
  console.log(`${path.relative(process.cwd(), file)}: section ${name} rewritten`);
  return true;
}

const x = (value, ceiling) => (ceiling ? `${round(value / ceiling)}×` : '-');
const pct = (a, b) => `${a >= b ? '+' : ''}${Math.round((100 * (a - b)) / b)} %`;

/** The `bench` section: a full run of `npm run bench` (the report scripts/bench.mjs writes). */
export function benchRunMarkdown(report) {
  const { scaled, seed, verdict, machine } = report;
  const held = verdict.budgets.filter((b) => b.pass).length;
  const lines = [];
  lines.push(
    `Latest full run: **${runDate(report.date)}**${report.minutes ? `, ${report.minutes} min` : ''}; ` +
      `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, load average at the end ${machine.loadAverage.join(' / ')}. ` +
      `**${held} of ${verdict.budgets.length} budgets hold.** Each figure ${report.seconds} s after a ${report.warmup} s warm-up.`,
    '',
  );
  const data = (phase) => Object.entries(phase.data).map(([k, v]) => `${Number(v).toLocaleString('en-GB')} ${k}`).join(', ');
  lines.push(`Scaled database: ${data(scaled)}.${seed ? ` Seed database: ${data(seed)}.` : ''}`);
  const first = scaled.ceilings[GATEWAY_TX];
  if (first) {
    lines.push(
      `Ceiling through the gateway in the run's first minute: ${at(first, 32).rps} requests a second at 32 connections, ` +
        `p95 ${at(first, 8).p95} ms at 8, p99 ${at(first, 32).p99} ms at 32.`,
    );
  }
  lines.push(
    '',
    'Ratios: to the ceiling through the gateway measured next to the endpoint (the budget), then to the straight one.',
    '',
    '| Endpoint | req/s at 32: scaled / seed | scaled vs seed | p95 at 8 ms (× gateway ceiling; × straight) | p99 at 32 ms (× gateway ceiling; × straight) | share of gateway ceiling at 32 | Postgres CPU ms per answer at 32: scaled / seed |',
    '|---|---|---|---|---|---|---|',
  );
  for (const [name, e] of Object.entries(scaled.endpoints)) {
    if (e.refused) {
      lines.push(`| ${name} | not measured: ${e.refused} | | | | | |`);
      continue;
    }
    const { gateway, straight } = endpointCeilings(scaled, name);
    const c8 = at(e.levels, 8);
    const c32 = at(e.levels, 32);
    const other = seed?.endpoints[name]?.levels ? at(seed.endpoints[name].levels, 32) : null;
    const p99 = e.kind === 'read' ? `${c32.p99} (${x(c32.p99, at(gateway, 32).p99)}; ${x(c32.p99, at(straight, 32).p99)})` : '';
    const share = e.kind === 'read' ? `${Math.round((100 * c32.rps) / at(gateway, 32).rps)} %` : '';
    lines.push(
      `| ${name} | ${c32.rps} / ${other?.rps ?? '-'} | ${other ? pct(c32.rps, other.rps) : '-'} | ` +
        `${c8.p95} (${x(c8.p95, at(gateway, 8).p95)}; ${x(c8.p95, at(straight, 8).p95)}) | ${p99} | ${share} | ` +
        `${c32.cpuMsPerAnswer?.postgres ?? '-'} / ${other?.cpuMsPerAnswer?.postgres ?? '-'} |`,
    );
  }
  const names = Object.keys(scaled.endpoints);
  const ofEndpoint = (b) => names.some((n) => b.budget.startsWith(`${n}: `));
  const others = verdict.budgets.filter((b) => !ofEndpoint(b));
  if (others.length) lines.push('', '| Other budgets | Measured | |', '|---|---|---|');
  for (const b of others) lines.push(`| ${b.budget} | ${b.value} | ${b.pass ? 'PASS' : '**FAIL**'} |`);
  const failed = verdict.budgets.filter((b) => !b.pass && ofEndpoint(b));
  lines.push('', failed.length ? 'Endpoint budgets not held:' : 'Every endpoint budget holds.');
  for (const b of failed) lines.push(`- ${b.budget}: ${b.value}`);
  return lines.join('\n');
}

function newestReport() {
  const dir = path.resolve(repoRoot, process.env.BENCH_RESULTS_DIR ?? 'bench-results');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^\d{4}-.*\.json$/.test(f)).sort() : [];
  if (!files.length) throw new Error(`no full run in ${dir}: run npm run bench first`);
  return path.join(dir, files.at(-1));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const print = args.includes('--print');
  try {
    const file = args.find((a) => !a.startsWith('--')) ?? newestReport();
    const body = benchRunMarkdown(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (print) console.log(body);
    else writeDocSection('bench', body);
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
