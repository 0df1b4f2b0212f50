// The learning record screen: totals, the completed-courses table (state, validity, score or 'No
// quiz'), the CPD table with Add/Edit/Delete only on the learner's own record, the downloads, and
// the CPD form's checks in the browser (the shared schema's messages) before anything is sent.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LearningRecord } from '@shared/cpd.ts';
import { i18n } from '@/lib/i18n/i18n';
import { makeUser, renderWithProviders } from '@/test/render';
import { CpdEntryDialog } from './CpdEntryDialog';
import { LearningRecordView } from './LearningRecordView';

const record: LearningRecord = {
  learner: { id: 'u1', name: 'Sam Patel', username: 'student' },
  generatedAt: '2026-11-22T10:00:00.000Z',
  completedCourses: [
    {
      certificateId: 'c2', courseId: 'k1', courseTitle: 'Manual Handling for Ambulance Crews', courseTitleCy: null, service: 'UKAS',
      serviceLabel: 'United Kingdom Ambulance Service', cycle: 2, completedAt: '2026-10-01T09:00:00.000Z', hours: 2, score: null,
      verificationCode: 'AAAA1111BBBB2222', expiresAt: '2027-10-01T09:00:00.000Z', revokedAt: null, state: 'valid',
    },
    {
      certificateId: 'c1', courseId: 'k1', courseTitle: 'Manual Handling for Ambulance Crews', courseTitleCy: null, service: 'UKAS',
      serviceLabel: 'United Kingdom Ambulance Service', cycle: 1, completedAt: '2025-09-01T09:00:00.000Z', hours: 2, score: 83,
      verificationCode: 'CCCC3333DDDD4444', expiresAt: '2026-09-01T09:00:00.000Z', revokedAt: null, state: 'expired',
    },
  ],
  cpdEntries: [
    {
      id: 'e1', activityDate: '2026-03-14', activity: 'Major trauma study day', hours: 6.5, learnt: 'Tourniquet first.',
      reflection: '', createdAt: '2026-03-14T18:00:00.000Z', updatedAt: '2026-03-14T18:00:00.000Z',
    },
  ],
  totals: { courseHours: 4, cpdHours: 6.5, totalHours: 10.5, completedCourses: 2, cpdEntries: 1 },
};

/** Makes the phone media query match (below 48em), as a 390 px screen does. */
function asPhone() {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    matches: query.includes('max-width: 47.99em'),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = original;
  };
}

describe('LearningRecordView', () => {
  it('on a phone shows each completion and CPD activity as a card with every field and action', async () => {
    const restore = asPhone();
    try {
      const onEdit = vi.fn();
      const { user } = renderWithProviders(<LearningRecordView record={record} editable onEdit={onEdit} onDownload={() => {}} />, { user: makeUser() });
      expect(screen.queryByRole('table')).toBeNull();
      const [current, earlier] = within(screen.getByRole('list', { name: 'Completed courses' })).getAllByRole('listitem');
      const field = (card: HTMLElement, label: string) => within(card).getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
      expect(field(current, 'Completed')).toHaveTextContent('1 October 2026');
      expect(field(current, 'Hours')).toHaveTextContent('2');
      expect(field(current, 'Score')).toHaveTextContent('No quiz');
      expect(field(current, 'Certificate')).toHaveTextContent('AAAA1111BBBB2222');
      expect(field(current, 'Validity')).toHaveTextContent('Valid until 1 October 2027');
      expect(field(earlier, 'Score')).toHaveTextContent('83%');
      expect(field(earlier, 'Validity')).toHaveTextContent('Expired on 1 September 2026');

      const [activity] = within(screen.getByRole('list', { name: 'CPD activities' })).getAllByRole('listitem');
      expect(field(activity, 'Date')).toHaveTextContent('14 March 2026');
      expect(field(activity, 'Hours')).toHaveTextContent('6.5');
      expect(field(activity, 'What I learnt')).toHaveTextContent('Tourniquet first.');
      expect(within(activity).getByRole('button', { name: 'Delete Major trauma study day' })).toBeInTheDocument();
      await user.click(within(activity).getByRole('button', { name: 'Edit Major trauma study day' }));
      expect(onEdit).toHaveBeenCalledWith(record.cpdEntries[0]);
    } finally {
      restore();
    }
  });

  it('shows the totals, each completion with its validity and score, and the CPD activities', () => {
    renderWithProviders(<LearningRecordView record={record} editable onDownload={() => {}} />, { user: makeUser() });
    expect(screen.getByTestId('figure-total-hours')).toHaveTextContent('10.5');
    expect(screen.getByTestId('figure-course-hours')).toHaveTextContent('4 (2 courses)');
    expect(screen.getByTestId('figure-cpd-hours')).toHaveTextContent('6.5 (1 activity)');

    const completed = within(screen.getByRole('table', { name: 'Completed courses' }));
    const [current, earlier] = completed.getAllByRole('row').slice(1);
    expect(within(current).getByText('1 October 2026')).toBeInTheDocument();
    expect(within(current).getByText('Recertification 1')).toBeInTheDocument();
    expect(within(current).getByText('No quiz')).toBeInTheDocument();
    expect(within(current).getByText('Valid')).toBeInTheDocument();
    expect(within(current).getByText('Valid until 1 October 2027')).toBeInTheDocument();
    expect(within(current).getByText('AAAA1111BBBB2222')).toBeInTheDocument();
    expect(within(earlier).getByText('83%')).toBeInTheDocument();
    expect(within(earlier).getByText('Expired')).toBeInTheDocument();
    expect(within(earlier).getByText('Expired on 1 September 2026')).toBeInTheDocument();

    const cpd = within(screen.getByRole('table', { name: 'CPD activities' }));
    expect(cpd.getByText('14 March 2026')).toBeInTheDocument();
    expect(cpd.getByText('Major trauma study day')).toBeInTheDocument();
    expect(cpd.getByRole('button', { name: 'Edit Major trauma study day' })).toBeInTheDocument();
    expect(cpd.getByRole('button', { name: 'Delete Major trauma study day' })).toBeInTheDocument();
  });

  it('offers Add, Edit, Delete and both downloads on the own record', async () => {
    const onAdd = vi.fn();
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    const onDownload = vi.fn();
    const { user } = renderWithProviders(
      <LearningRecordView record={record} editable onAdd={onAdd} onEdit={onEdit} onDelete={onDelete} onDownload={onDownload} />,
      { user: makeUser() },
    );
    await user.click(screen.getByRole('button', { name: 'Add CPD activity' }));
    await user.click(screen.getByRole('button', { name: 'Edit Major trauma study day' }));
    await user.click(screen.getByRole('button', { name: 'Delete Major trauma study day' }));
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(onAdd).toHaveBeenCalledTimes(1);
    expect(onEdit).toHaveBeenCalledWith(record.cpdEntries[0]);
    expect(onDelete).toHaveBeenCalledWith(record.cpdEntries[0]);
    expect(onDownload.mock.calls).toEqual([['pdf'], ['csv']]);
  });

  it('is read-only for an admin viewing a learner, and says so when empty', () => {
    renderWithProviders(
      <LearningRecordView record={{ ...record, completedCourses: [], cpdEntries: [] }} editable={false} onDownload={() => {}} />,
      { user: makeUser({ role: 'ADMIN' }) },
    );
    expect(screen.queryByRole('button', { name: 'Add CPD activity' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.getByText(/No completed courses yet/)).toBeInTheDocument();
    expect(screen.getByText('No CPD activities recorded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeInTheDocument();
  });
});

describe('CpdEntryDialog', () => {
  it('checks the fields with the shared messages before sending', async () => {
    const { user } = renderWithProviders(<CpdEntryDialog opened entry={null} onClose={() => {}} />, { user: makeUser() });
    const form = within(await screen.findByRole('form', { name: 'Add CPD activity' }));
    await user.clear(form.getByLabelText(/^Hours/));
    await user.type(form.getByLabelText(/^Hours/), '0.3');
    await user.click(form.getByRole('button', { name: 'Add activity' }));
    expect(await form.findByText('Describe the activity in at least 3 characters')).toBeInTheDocument();
    expect(form.getByText('Describe what you learnt')).toBeInTheDocument();
    expect(form.getByText('Hours must be in quarter hours (for example 1.25 or 1.5)')).toBeInTheDocument();

    await user.clear(form.getByLabelText(/^Date/));
    await user.type(form.getByLabelText(/^Date/), '2999-01-01');
    await user.click(form.getByRole('button', { name: 'Add activity' }));
    expect(await form.findByText('The activity date cannot be in the future')).toBeInTheDocument();
  });

  it('fills the form with the entry being edited', async () => {
    renderWithProviders(<CpdEntryDialog opened entry={record.cpdEntries[0]} onClose={() => {}} />, { user: makeUser() });
    const form = within(await screen.findByRole('form', { name: 'Edit CPD activity' }));
    expect(form.getByLabelText(/^Activity/)).toHaveValue('Major trauma study day');
    expect(form.getByLabelText(/^Date/)).toHaveValue('2026-03-14');
    expect(form.getByLabelText(/^Hours/)).toHaveValue('6.5');
    expect(form.getByLabelText(/^What I learnt/)).toHaveValue('Tourniquet first.');
    expect(form.getByRole('button', { name: 'Save changes' })).toBeInTheDocument();
  });
});

describe('The learning record in Welsh', () => {
  it('shows the totals, the completed courses with their validity and the CPD activities in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<LearningRecordView record={record} editable onDownload={() => {}} />, { user: makeUser() });
    expect(screen.getByText('Cyrsiau wedi\'u cwblhau a gweithgareddau DPP Sam Patel, ar gyfer arfarniad neu archwiliad.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Lawrlwytho PDF' })).toBeInTheDocument();
    expect(screen.getByTestId('figure-course-hours')).toHaveTextContent('4 (2 gwrs)');
    expect(screen.getByTestId('figure-cpd-hours')).toHaveTextContent('6.5 (1 gweithgaredd)');

    const completed = within(screen.getByRole('table', { name: "Cyrsiau wedi'u cwblhau" }));
    for (const heading of ['Dyddiad cwblhau', 'Cwrs', 'Oriau', 'Sgôr', 'Tystysgrif', 'Dilysrwydd']) {
      expect(completed.getByRole('columnheader', { name: heading })).toBeInTheDocument();
    }
    const [current, earlier] = completed.getAllByRole('row').slice(1);
    expect(within(current).getByText('1 Hydref 2026')).toBeInTheDocument();
    expect(within(current).getByText('Ailardystiad 1')).toBeInTheDocument();
    expect(within(current).getByText('Dim cwis')).toBeInTheDocument();
    expect(within(current).getByText('Yn ddilys tan 1 Hydref 2027')).toBeInTheDocument();
    expect(within(earlier).getByText('Daeth i ben ar 1 Medi 2026')).toBeInTheDocument();

    const cpd = within(screen.getByRole('table', { name: 'Gweithgareddau DPP' }));
    expect(cpd.getByRole('columnheader', { name: 'Beth ddysgais i' })).toBeInTheDocument();
    expect(cpd.getByText('14 Mawrth 2026')).toBeInTheDocument();
    expect(cpd.getByText('6.5')).toHaveAttribute('title', '6.5 awr');
    expect(cpd.getByRole('button', { name: 'Golygu Major trauma study day' })).toHaveTextContent('Golygu');
    expect(cpd.getByRole('button', { name: 'Dileu Major trauma study day' })).toHaveTextContent('Dileu');
    expect(screen.getByRole('button', { name: 'Ychwanegu gweithgaredd DPP' })).toBeInTheDocument();
  });

  it('shows each course\'s Welsh title as issued, else the English marked and in lang="en-GB"', async () => {
    await i18n.changeLanguage('cy');
    const [withWelsh, without] = record.completedCourses;
    const bilingual = { ...record, completedCourses: [{ ...withWelsh, courseTitleCy: 'Codi a Chario ar gyfer Criwiau Ambiwlans' }, without] };
    renderWithProviders(<LearningRecordView record={bilingual} editable onDownload={() => {}} />, { user: makeUser() });
    const [current, earlier] = within(screen.getByRole('table', { name: "Cyrsiau wedi'u cwblhau" })).getAllByRole('row').slice(1);
    expect(within(current).getByText('Codi a Chario ar gyfer Criwiau Ambiwlans')).toHaveAttribute('lang', 'cy');
    expect(within(current).queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
    expect(within(earlier).getByText('Manual Handling for Ambulance Crews')).toHaveAttribute('lang', 'en-GB');
    expect(within(earlier).getByText('Ddim ar gael yn Gymraeg')).toBeInTheDocument();
  });

  it('checks the CPD form with its messages in Welsh', async () => {
    await i18n.changeLanguage('cy');
    const { user } = renderWithProviders(<CpdEntryDialog opened entry={null} onClose={() => {}} />, { user: makeUser() });
    const form = within(await screen.findByRole('form', { name: 'Ychwanegu gweithgaredd DPP' }));
    await user.clear(form.getByLabelText(/^Oriau/));
    await user.type(form.getByLabelText(/^Oriau/), '0.3');
    await user.click(form.getByRole('button', { name: 'Ychwanegu gweithgaredd' }));
    expect(await form.findByText('Disgrifiwch y gweithgaredd mewn o leiaf 3 nod')).toBeInTheDocument();
    expect(form.getByText('Disgrifiwch beth ddysgoch chi')).toBeInTheDocument();
    expect(form.getByText('Rhaid i\'r oriau fod mewn chwarteri awr (er enghraifft 1.25 neu 1.5)')).toBeInTheDocument();
    expect(form.getByLabelText(/^Beth ddysgais i/)).toBeInTheDocument();
  });
});
