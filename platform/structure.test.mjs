// The shape of the code that a rule can say: no route file of the api function over 300 lines (a
// longer one holds more than one resource, or SQL and helpers that belong in lib/ or beside it, as
// routes/courses/queries.ts does). Import cycles and hand-written query keys are ESLint's to find
// (eslint.config.js).
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const routesDir = join(repoRoot, 'supabase/functions/api/routes');
export const MAX_ROUTE_FILE_LINES = 300;

/** Every .ts file under dir, its subfolders' included. */
function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A file's lines as an editor counts them (a final newline ends the last line, it does not add one). */
export const lineCount = (text) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** "path: N lines" for each .ts file under dir longer than max lines. */
export function longFiles(dir, max, root = dir) {
  return tsFiles(dir)
    .map((file) => ({ file: relative(root, file), lines: lineCount(readFileSync(file, 'utf8')) }))
    .filter(({ lines }) => lines > max)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
}

describe('route files', () => {
  it('counts lines as an editor does, and names a long file in a subfolder', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb')).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), 'routes-'));
    try {
      mkdirSync(join(dir, 'things'));
      writeFileSync(join(dir, 'short.ts'), 'x\n'.repeat(MAX_ROUTE_FILE_LINES));
      writeFileSync(join(dir, 'things', 'index.ts'), 'x\n'.repeat(MAX_ROUTE_FILE_LINES + 1));
      expect(longFiles(dir, MAX_ROUTE_FILE_LINES)).toEqual([`${join('things', 'index.ts')}: ${MAX_ROUTE_FILE_LINES + 1} lines`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`keeps every file under supabase/functions/api/routes/ to at most ${MAX_ROUTE_FILE_LINES} lines`, () => {
    expect(tsFiles(routesDir).length).toBeGreaterThan(10);
    expect(longFiles(routesDir, MAX_ROUTE_FILE_LINES, repoRoot)).toEqual([]);
  });
});
