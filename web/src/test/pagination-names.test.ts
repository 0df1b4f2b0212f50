// Mantine's Pagination renders its previous and next arrows as icon-only buttons: without
// getControlProps they have no accessible name (axe button-name, critical), which only shows once a
// list has a second page. Every Pagination in the app names them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx$/.test(entry.name) && !/\.test\.tsx$/.test(entry.name) ? [full] : [];
  });
}

describe('pagination', () => {
  it('names its previous and next controls wherever it is used', () => {
    const unnamed: string[] = [];
    let seen = 0;
    for (const file of sourceFiles(srcDir)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const match of text.matchAll(/<Pagination\b[\s\S]*?\/>/g)) {
        seen++;
        if (!match[0].includes('getControlProps')) unnamed.push(`${path.relative(srcDir, file)}: ${match[0].slice(0, 80)}`);
      }
    }
    expect(seen).toBeGreaterThan(5);
    expect(unnamed).toEqual([]);
  });
});
