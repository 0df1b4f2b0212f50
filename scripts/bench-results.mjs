// Where the benchmarks write their figures: bench-results/ at the repository root, which git ignores
// (the latest full run's summary and method are in docs/PERFORMANCE.md). BENCH_RESULTS_DIR moves it.
// The folder is created when missing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export function benchResultsDir() {
  const dir = path.resolve(repoRoot, process.env.BENCH_RESULTS_DIR ?? 'bench-results');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

// A file name's date part: the current time in ISO form without colons or fractions.
export function resultStamp() {
  return new Date().toISOString().replace(/:/g, '-').replace(/\..*/, '');
}
