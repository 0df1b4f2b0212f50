// The preview's table, wider than the page once the file places people (organisation, unit and
// manager columns): the region that scrolls sideways is reachable with the keyboard and named
// (axe's scrollable-region-focusable failed on it at 1366 px in the organisations journey).
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ImportPreview } from '@shared/user-import.ts';
import { renderWithProviders } from '@/test/render';
import { ImportPreviewTable } from './ImportPreviewTable';

const preview: ImportPreview = {
  total: 2,
  valid: 1,
  invalid: 1,
  rows: [
    { line: 2, username: 'crew1', email: 'crew1@example.test', name: 'Crew One', role: 'STUDENT', services: ['UKFRS'],
      organisation: 'Westshire Fire and Rescue', unit: 'North Area/Central Station/Red Watch', manager: 'boss', problems: [] },
    { line: 3, username: 'crew2', email: 'crew2@example.test', name: 'Crew Two', role: 'STUDENT', services: ['UKFRS'],
      organisation: 'Westshire Fire and Rescue', unit: 'North Area/Nowhere', manager: 'boss',
      problems: [{ field: 'unit', message: 'The organisation has no unit "North Area/Nowhere"' }] },
  ],
};

describe('ImportPreviewTable', () => {
  it('puts the table in a named region that takes the keyboard focus', async () => {
    renderWithProviders(<ImportPreviewTable preview={preview} />);
    const region = await screen.findByRole('region', { name: 'Rows of the file (scrolls sideways)' });
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(region.contains(screen.getByRole('table', { name: 'Rows of the file' }))).toBe(true);
    expect(screen.getByRole('columnheader', { name: 'Unit' })).toBeTruthy();
  });
});
