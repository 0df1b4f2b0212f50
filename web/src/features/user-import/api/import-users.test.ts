// An import's rows go managers first when a row's manager is another row of the file, so a
// later part never waits for a manager that an earlier part has not created yet.
import { describe, expect, it } from 'vitest';
import type { ImportPreviewRow } from '@shared/user-import.ts';
import { managersFirst } from './import-users';

const row = (line: number, username: string, manager = ''): ImportPreviewRow => ({
  line, username, email: `${username}@example.test`, name: username, role: 'STUDENT', services: [],
  organisation: '', unit: '', manager, problems: [],
});

describe('managersFirst', () => {
  it('keeps the file\'s order when no row is managed by another row', () => {
    const rows = [row(2, 'a', 'someone.else'), row(3, 'b')];
    expect(managersFirst(rows)).toEqual({ rows, chained: false });
  });

  it('puts each manager (by username or email) before their people, a chain in order, and survives a cycle', () => {
    const rows = [
      row(2, 'constable', 'sergeant'),
      row(3, 'sergeant', 'INSPECTOR@example.test'),
      row(4, 'inspector'),
      row(5, 'x', 'y'),
      row(6, 'y', 'x'),
    ];
    const { rows: ordered, chained } = managersFirst(rows);
    expect(chained).toBe(true);
    const at = (name: string) => ordered.findIndex((r) => r.username === name);
    expect(at('inspector')).toBeLessThan(at('sergeant'));
    expect(at('sergeant')).toBeLessThan(at('constable'));
    expect(ordered).toHaveLength(5);
  });
});
