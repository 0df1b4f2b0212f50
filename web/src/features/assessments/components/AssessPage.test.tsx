// The assessor's record page: judging each criterion, Competent refused while a critical criterion is
// not yet competent (and why), evidence refused here (too large) and by the server (415), the
// sign-off confirmed, then a signed record's Verify and Correct.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { criteria, MODULE_ID, moduleAssessment, record } from '../test/fixtures';
import { AssessPage } from './AssessPage';

const assessor = makeUser({ id: '44444444-4444-4444-8444-444444444444', role: 'INSTRUCTOR', name: 'Ada Assessor' });
const draft = record();
const recordPath = `/assessment-records/${draft.id}`;

describe('AssessPage', () => {
  it('records judgements, explains the disabled Competent, refuses bad evidence and signs off after confirming', async () => {
    const signed = record({ state: 'signed', outcome: 'not-yet-competent', signedAt: '2026-11-24T10:00:00Z' });
    let current = draft;
    const api = fakeApi({
      [`GET ${recordPath}`]: () => ({ body: current }),
      [`GET /modules/${MODULE_ID}/assessment`]: { body: moduleAssessment({ isAssessor: true }) },
      [`PUT ${recordPath}`]: { body: draft },
      [`POST ${recordPath}/evidence`]: { status: 415, body: { message: 'Evidence must be a JPEG or PNG photo or a PDF' } },
      [`POST ${recordPath}/sign`]: () => {
        current = signed;
        return { body: signed };
      },
    });
    const { user } = renderWithProviders(<AssessPage recordId={draft.id} />, { user: assessor });
    expect(await screen.findByRole('heading', { level: 1, name: 'Assessment of Lee Learner' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign off' })).toBeDisabled();
    expect(screen.getByText('Judge the 2 criteria left before signing off.')).toBeInTheDocument();

    const [first, second] = screen.getAllByTestId('judgement');
    await user.click(within(first!).getByRole('radio', { name: 'Not yet competent' }));
    await user.type(within(first!).getByRole('textbox', { name: 'Note on criterion 1' }), 'Cap left on');
    await user.click(within(second!).getByRole('radio', { name: 'Competent' }));
    const overall = screen.getByRole('radiogroup', { name: 'Overall outcome' });
    expect(within(overall).getByRole('radio', { name: 'Competent' })).toBeDisabled();
    expect(overall).toHaveAccessibleDescription('Competent is not available: a critical criterion is not yet competent (Checks the hydrant).');
    await user.click(within(overall).getByRole('radio', { name: 'Not yet competent' }));

    // Too large: refused before it is sent. A file the server refuses: its 415 shown beside the buttons.
    const [camera] = document.querySelectorAll<HTMLInputElement>('input[type=file]');
    expect(camera).toHaveAttribute('accept', 'image/*,application/pdf');
    expect(camera).toHaveAttribute('capture', 'environment');
    const big = new File(['x'], 'big.jpg', { type: 'image/jpeg' });
    Object.defineProperty(big, 'size', { value: 11 * 1024 * 1024 });
    await user.upload(camera!, big);
    expect(screen.getByRole('alert')).toHaveTextContent('Evidence files must be 10 MB or smaller');
    expect(api.requests.some((r) => r.path.endsWith('/evidence'))).toBe(false);
    await user.upload(camera!, new File(['%PDF-'], 'scan.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText(/This kind of file cannot be kept/)).toHaveTextContent('Evidence must be a JPEG or PNG photo or a PDF');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Take a photo' })).toHaveFocus());

    await user.click(screen.getByRole('button', { name: 'Sign off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign off this record?' });
    expect(within(dialog).getByText(/A signed record cannot be changed/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Sign off' }));
    expect(await screen.findByText('Signed on 24 November 2026')).toBeInTheDocument();
    const put = api.requests.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({
      judgements: [
        { criterionId: criteria[0]!.id, result: 'not-yet-competent', note: 'Cap left on' },
        { criterionId: criteria[1]!.id, result: 'competent', note: null },
      ],
      outcome: 'not-yet-competent',
      notes: null,
    });
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toContain(`${recordPath}/sign`);
    expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
  });

  it('offers Verify and Correct on a signed record waiting for the verifier', async () => {
    const signed = record({ state: 'signed', outcome: 'competent', signedAt: '2026-11-24T10:00:00Z' });
    const correction = record({ id: 'bbbbbbbb-0000-4000-8000-000000000002', supersedesId: signed.id });
    const api = fakeApi({
      [`GET ${recordPath}`]: { body: signed },
      [`GET /modules/${MODULE_ID}/assessment`]: { body: moduleAssessment({ isAssessor: true }) },
      [`POST ${recordPath}/verify`]: { status: 422, body: { message: 'The verifier must be another assessor than the one who signed' } },
      [`POST /modules/${MODULE_ID}/assessment/records`]: { status: 201, body: correction },
      [`GET /assessment-records/${correction.id}`]: { body: correction },
    });
    const { user, router } = renderWithProviders(null, {
      user: assessor,
      route: `/r/${signed.id}`,
      routes: [
        { path: '/r/:id', element: <AssessPage recordId={signed.id} /> },
        { path: '/instructor/assessments/records/:id', element: <AssessPage recordId={correction.id} /> },
      ],
    });
    expect(await screen.findByText('This record waits for a second assessor to verify it.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The verifier must be another assessor than the one who signed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Correct this record' }));
    expect(await screen.findByText('This draft corrects a signed record')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/instructor/assessments/records/${correction.id}`);
    expect(api.requests.find((r) => r.path === `/modules/${MODULE_ID}/assessment/records`)?.body).toEqual({ learnerId: signed.learnerId, supersedesId: signed.id });
  });
});
