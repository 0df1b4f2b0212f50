// The course's achievement in the editor: the default (made of the course) said to be one, the
// shared schema's messages before anything is sent, alignments added and removed, and the PUT body
// (an empty image address and empty framework and code sent as null).
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CourseAchievement } from '@shared/credentials.ts';
import { renderWithProviders } from '@/test/render';
import { fakeApi } from '@/test/fake-api';
import { achievementKeys } from '@/lib/query-keys';
import { AchievementPanel } from './AchievementPanel';

const achievement: CourseAchievement = {
  courseId: 'k1',
  defined: false,
  name: 'Manual Handling for Ambulance Crews',
  description: 'Safe moving and handling of patients.',
  criteria: 'Completed every module of the course.',
  imageUrl: null,
  alignments: [],
  validMonths: 12,
  updatedAt: null,
};

const show = (a: CourseAchievement = achievement) => renderWithProviders(<AchievementPanel courseId="k1" />, { queryData: [[achievementKeys.ofCourse('k1'), a]] });

afterEach(() => vi.restoreAllMocks());

describe('AchievementPanel', () => {
  it('shows the default achievement with the validity, and checks the fields before sending', async () => {
    const api = fakeApi({});
    const { user } = show();
    expect(screen.getByText('Not written yet')).toBeInTheDocument();
    expect(screen.getByText(/Valid for 12 months from its issue/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Achievement name/ })).toHaveValue('Manual Handling for Ambulance Crews');
    await user.clear(screen.getByRole('textbox', { name: /Achievement name/ }));
    await user.click(screen.getByRole('textbox', { name: /Image address/ }));
    await user.paste('ftp://x');
    await user.click(screen.getByRole('button', { name: 'Add an alignment' }));
    await user.click(screen.getByRole('button', { name: 'Save achievement' }));
    expect(screen.getByText('Give the achievement a name')).toBeInTheDocument();
    expect(screen.getAllByText('Give a web address starting with https://')).toHaveLength(2);
    expect(screen.getByText('Give the name of what it aligns to')).toBeInTheDocument();
    expect(api.requests).toHaveLength(0);
  });

  it('saves the achievement with its alignments, empty optional fields as null', async () => {
    const saved = { ...achievement, defined: true, updatedAt: '2026-11-30T10:00:00.000Z' };
    const api = fakeApi({ 'PUT /courses/k1/achievement': ({ body }) => ({ body: { ...saved, ...(body as object) } }) });
    const { user } = show();
    await user.click(screen.getByRole('button', { name: 'Add an alignment' }));
    await user.click(screen.getByRole('button', { name: 'Add an alignment' }));
    const first = within(document.querySelector<HTMLElement>('[data-alignment="0"]')!);
    const fill = async (box: HTMLElement, text: string) => {
      await user.click(box);
      await user.paste(text);
    };
    await fill(first.getByRole('textbox', { name: /^Name/ }), 'Moving and Handling');
    await fill(first.getByRole('textbox', { name: /Web address/ }), 'https://www.skillsforhealth.org.uk/cstf');
    await fill(first.getByRole('textbox', { name: 'Framework' }), 'Core Skills Training Framework');
    await fill(first.getByRole('textbox', { name: 'Code' }), 'CSTF-MH');
    await user.click(screen.getByRole('button', { name: 'Remove alignment 2' }));
    await user.click(screen.getByRole('button', { name: 'Save achievement' }));
    await waitFor(() => expect(api.requests).toHaveLength(1));
    expect(api.requests[0]!.body).toEqual({
      name: 'Manual Handling for Ambulance Crews',
      description: 'Safe moving and handling of patients.',
      criteria: 'Completed every module of the course.',
      imageUrl: null,
      alignments: [{ targetFramework: 'Core Skills Training Framework', targetCode: 'CSTF-MH', targetName: 'Moving and Handling', targetUrl: 'https://www.skillsforhealth.org.uk/cstf' }],
    });
    await waitFor(() => expect(screen.queryByText('Not written yet')).toBeNull());
  });
});
