// The author's Assessment panel: the settings (verifier, validity) saved, a criterion added with its
// Welsh twin and marked critical, one moved down (its whole body with the new place), one deleted.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { criteria, MODULE_ID, moduleAssessment } from '../test/fixtures';
import { AssessmentDialog } from './AssessmentDialog';

const author = makeUser({ role: 'INSTRUCTOR' });

describe('AssessmentDialog', () => {
  it('saves the settings and adds, moves and deletes criteria', async () => {
    const api = fakeApi({
      [`GET /modules/${MODULE_ID}/assessment`]: { body: moduleAssessment({ settings: { moduleId: MODULE_ID, needsVerifier: false, validMonths: null } }) },
      [`PUT /modules/${MODULE_ID}/assessment`]: { body: { moduleId: MODULE_ID, needsVerifier: true, validMonths: 12 } },
      [`POST /modules/${MODULE_ID}/assessment/criteria`]: { status: 201, body: criteria[0] },
      [`PUT /assessment-criteria/${criteria[0]!.id}`]: { body: criteria[0] },
      [`DELETE /assessment-criteria/${criteria[1]!.id}`]: { status: 204 },
    });
    const { user } = renderWithProviders(<AssessmentDialog module={{ id: MODULE_ID, title: 'Hydrant drill' }} onClose={() => {}} />, { user: author });
    const dialog = await screen.findByRole('dialog', { name: 'Assessment: Hydrant drill' });
    await within(dialog).findByRole('form', { name: 'Assessment settings' });

    await user.click(within(dialog).getByRole('checkbox', { name: /Needs a second signature/ }));
    const months = within(dialog).getByRole('textbox', { name: 'Valid for (months)' });
    await user.type(months, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Settings saved');
    expect(api.requests.find((r) => r.method === 'PUT' && r.path.endsWith('/assessment'))?.body).toEqual({ needsVerifier: true, validMonths: 12 });

    await user.click(within(dialog).getByRole('button', { name: 'Add criterion' }));
    const form = within(dialog).getByRole('form', { name: 'New criterion' });
    const title = within(form).getByRole('textbox', { name: 'Criterion' });
    await user.type(title, 'ab');
    await user.click(within(form).getByRole('button', { name: 'Save criterion' }));
    expect(title).toHaveAccessibleDescription('The criterion must be 3 to 300 characters');
    await user.clear(title);
    await user.click(title);
    await user.paste('Checks the hydrant');
    await user.click(within(form).getByRole('textbox', { name: 'Criterion (Welsh)' }));
    await user.paste("Yn gwirio'r hydrant");
    await user.click(within(form).getByRole('checkbox', { name: /Critical/ }));
    await user.click(within(form).getByRole('button', { name: 'Save criterion' }));
    await screen.findByText('Criterion added');
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({
      title: 'Checks the hydrant', titleCy: "Yn gwirio'r hydrant", guidance: '', guidanceCy: '', critical: true,
    });

    await user.click(within(dialog).getByRole('button', { name: 'Move Checks the hydrant down' }));
    await screen.findByText('Criterion moved');
    expect(api.requests.find((r) => r.method === 'PUT' && r.path.startsWith('/assessment-criteria/'))?.body).toMatchObject({ title: 'Checks the hydrant', orderIndex: 3, critical: true });

    await user.click(within(dialog).getByRole('button', { name: 'Delete Runs out the hose' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this criterion?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Criterion deleted');
    expect(api.unanswered).toEqual([]);
  });
});
