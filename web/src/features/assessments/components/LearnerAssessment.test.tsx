// The learner's practical assessment: the checklist with guidance, the outcome with its validity, the
// assessor's notes and evidence, the history with a superseded record, and asking for reassessment;
// then the same in Welsh.
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { MODULE_ID, moduleAssessment, record, signedCompetent } from '../test/fixtures';
import { LearnerAssessment } from './LearnerAssessment';

const path = `GET /modules/${MODULE_ID}/assessment`;
const superseded = record({
  id: 'bbbbbbbb-0000-4000-8000-000000000009', outcome: 'not-yet-competent', state: 'superseded', signedAt: '2026-11-21T10:00:00Z',
  supersededAt: '2026-11-22T10:00:00Z', judgements: [], notes: 'Recorded against the wrong hose.',
});

afterEach(() => i18n.changeLanguage('en-GB'));

describe('LearnerAssessment', () => {
  it('shows the outcome until its expiry, the notes, the evidence and a superseded record', async () => {
    fakeApi({ [path]: { body: moduleAssessment({ records: [signedCompetent, superseded], signedOff: true, signedOffAt: '2026-11-23T10:00:00Z', validUntil: '2027-11-23T10:00:00Z' }) } });
    renderWithProviders(<LearnerAssessment moduleId={MODULE_ID} enrolled />, { user: makeUser() });
    expect(await screen.findByTestId('assessment-standing')).toHaveTextContent('Competent');
    expect(screen.getByText('Signed off on 23 November 2026, valid until 23 November 2027.')).toBeInTheDocument();
    const criteria = screen.getByRole('region', { name: 'What you will be assessed on' });
    expect(within(criteria).getByText('Cap off, flushed')).toBeInTheDocument();
    expect(within(criteria).getByText('(critical)', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('Flushed well')).toBeInTheDocument();
    expect(screen.getByText('Assessed by Ada Assessor. Verified by Vic Verifier on 23 November 2026.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open hydrant.jpg' })).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'Earlier records' });
    expect(within(history).getByText('Superseded')).toBeInTheDocument();
    expect(within(history).getByText(/Superseded by a correction on 22 November 2026/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask for reassessment' })).not.toBeInTheDocument();
  });

  it('says a signed record waits for the verifier, and asks for reassessment with a reason', async () => {
    const waiting = record({ outcome: 'competent', state: 'signed', signedAt: '2026-11-22T10:00:00Z' });
    const api = fakeApi({
      [path]: { body: moduleAssessment({ records: [waiting], canRequestReassessment: true }) },
      [`POST /modules/${MODULE_ID}/assessment/reassessment`]: { status: 201, body: { id: 'r1', reason: 'x', requestedAt: '2026-11-24T10:00:00Z' } },
    });
    const { user } = renderWithProviders(<LearnerAssessment moduleId={MODULE_ID} enrolled />, { user: makeUser() });
    expect(await screen.findByTestId('assessment-standing')).toHaveTextContent('Waiting for the verifier');
    await user.click(screen.getByRole('button', { name: 'Ask for reassessment' }));
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(screen.getByRole('textbox', { name: /Why would you like/ })).toHaveAccessibleDescription(/Give a reason of 1 to 1000 characters/);
    expect(screen.getByRole('textbox', { name: /Why would you like/ })).toHaveFocus();
    await user.type(screen.getByRole('textbox', { name: /Why would you like/ }), 'My hose work has improved');
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    await screen.findByRole('button', { name: 'Ask for reassessment' });
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ reason: 'My hose work has improved' });
    expect(screen.getByRole('button', { name: 'Ask for reassessment' })).toHaveFocus();
  });

  it('reads in Welsh: the Welsh criterion, the English one marked, the outcome and the dates', async () => {
    await i18n.changeLanguage('cy');
    fakeApi({ [path]: { body: moduleAssessment({ records: [signedCompetent], signedOff: true, signedOffAt: '2026-11-23T10:00:00Z', validUntil: '2027-11-23T10:00:00Z' }) } });
    renderWithProviders(<LearnerAssessment moduleId={MODULE_ID} enrolled />, { user: makeUser({ language: 'cy' }) });
    expect(await screen.findByTestId('assessment-standing')).toHaveTextContent('Cymwys');
    expect(screen.getByRole('heading', { name: 'Beth fydd yn cael ei asesu' })).toBeInTheDocument();
    expect(screen.getByText("Yn gwirio'r hydrant", { exact: false })).toHaveAttribute('lang', 'cy');
    const criteria = screen.getByRole('region', { name: 'Beth fydd yn cael ei asesu' });
    expect(within(criteria).getByText('Runs out the hose')).toHaveAttribute('lang', 'en-GB');
    expect(within(criteria).getByText('Cap off, flushed')).toHaveAttribute('lang', 'en-GB');
    expect(within(criteria).getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(1);
    expect(screen.getByText("Wedi'i lofnodi ar 23 Tachwedd 2026, yn ddilys tan 23 Tachwedd 2027.")).toBeInTheDocument();
    expect(screen.getByText("Wedi'i ddilysu")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Agor hydrant.jpg' })).toBeInTheDocument();
  });
});
