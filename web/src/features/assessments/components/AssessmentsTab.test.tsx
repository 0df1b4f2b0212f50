// The instructor's Assessments tab: the records waiting for sign-off first, another state asked of the
// server, each row opening its record.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { QueuedAssessment } from '@shared/assessments.ts';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { COURSE_ID, LEARNER_ID, MODULE_ID } from '../test/fixtures';
import { AssessmentsTab } from './AssessmentsTab';

const row: QueuedAssessment = {
  recordId: 'bbbbbbbb-0000-4000-8000-000000000001', moduleId: MODULE_ID, moduleTitle: 'Hydrant drill', courseId: COURSE_ID, courseTitle: 'Water supplies',
  learnerId: LEARNER_ID, learnerName: 'Lee Learner', cycle: 1, assessorName: 'Ada Assessor', outcome: 'competent', createdAt: '2026-11-20T09:00:00Z',
  signedAt: '2026-11-22T10:00:00Z', verifierName: null, verifiedAt: null, supersededAt: null, needsVerifier: true,
};

describe('AssessmentsTab', () => {
  it('lists the queue by state and links each record', async () => {
    const api = fakeApi({
      'GET /instructor/assessments?page=1&pageSize=20&state=awaiting-sign-off': { body: { items: [], total: 0, page: 1, pageSize: 20 } },
      'GET /instructor/assessments?page=1&pageSize=20&state=awaiting-verification': { body: { items: [row], total: 1, page: 1, pageSize: 20 } },
    });
    const { user } = renderWithProviders(<AssessmentsTab />, { user: makeUser({ role: 'INSTRUCTOR' }) });
    expect(await screen.findByText('Nothing here.')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(await screen.findByRole('option', { name: 'Waiting for verification' }));
    const table = await screen.findByRole('table', { name: '1 record' });
    const [line] = within(table).getAllByTestId('queue-row');
    expect(within(line!).getByRole('link', { name: 'Open the record of Lee Learner, Hydrant drill' })).toHaveAttribute('href', `/instructor/assessments/records/${row.recordId}`);
    expect(within(line!).getByText('Signed 22 November 2026 by Ada Assessor')).toBeInTheDocument();
    expect(within(line!).getAllByText('Waiting for verification').length).toBeGreaterThan(0);
    expect(api.unanswered).toEqual([]);
  });
});
