// Required training in Welsh: the dashboard's list (title, columns, due lines with Welsh dates), the
// header notice's count, and the rules with who each applies to.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MyRequiredTraining, RequiredTrainingRule } from '@shared/compliance.ts';
import { i18n } from '@/lib/i18n/i18n';
import { requiredTrainingKeys } from '@/lib/query-keys';
import { makeUser, renderWithProviders } from '@/test/render';
import { RequiredTrainingManager } from './RequiredTrainingManager';
import { RequiredTrainingNotice } from './RequiredTrainingNotice';
import { RequiredTrainingSection } from './RequiredTrainingSection';

const user = makeUser();
const mine: MyRequiredTraining = {
  items: [
    {
      course: { id: 'k1', title: 'JESIP', titleCy: null, service: 'UKAS' }, status: 'overdue', dueAt: '2026-11-02T09:00:00.000Z',
      progress: 40, validUntil: null, certified: false, recognised: null,
    },
    {
      course: { id: 'k2', title: 'Airwave', titleCy: 'Gweithdrefn Airwave', service: 'UKAS' }, status: 'done', dueAt: null,
      progress: 100, validUntil: null, certified: true, recognised: null,
    },
  ],
  counts: { overdue: 1, 'due-soon': 2, 'in-progress': 0, done: 1, recognised: 0 },
  attention: 3,
};

const rule: RequiredTrainingRule = {
  id: 'r1',
  course: { id: 'k1', title: 'JESIP', service: 'UKAS', certificateValidMonths: 12 },
  role: 'INSTRUCTOR',
  service: 'UKAS',
  organisation: null,
  unit: null,
  dueWithinDays: 30,
  renewBeforeDays: 14,
  notifyDueSoonDays: null,
  notifyEscalationDays: 5,
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: null,
  canManage: true,
};

describe('Required training in Welsh', () => {
  it('lists the learner\'s required training and counts it in the header notice', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(
      <>
        <RequiredTrainingNotice userId={user.id} />
        <RequiredTrainingSection userId={user.id} />
      </>,
      { user, queryData: [[requiredTrainingKeys.mine(user.id), mine]] },
    );
    expect(screen.getByTestId('required-training-notice')).toHaveTextContent("3 eitem hyfforddiant gorfodol yn hwyr neu'n ddyledus cyn bo hir");
    const table = screen.getByRole('table', { name: 'Hyfforddiant gorfodol' });
    for (const heading of ['Cwrs', 'Statws', 'Yn ddyledus', 'Cynnydd']) {
      expect(within(table).getByRole('columnheader', { name: heading })).toBeInTheDocument();
    }
    expect(within(table).getByText('Roedd yn ddyledus erbyn 2 Tachwedd 2026')).toBeInTheDocument();
    expect(within(table).getByText("Wedi'i wneud (nid yw'n dod i ben)")).toBeInTheDocument();
  });

  it('shows the rules, who each applies to and their actions', async () => {
    await i18n.changeLanguage('cy');
    const admin = makeUser({ role: 'ADMIN' });
    renderWithProviders(<RequiredTrainingManager user={admin} />, {
      user: admin,
      queryData: [[requiredTrainingKeys.rules({ page: 1 }), { items: [rule], total: 1, page: 1, pageSize: 20 }]],
    });
    expect(screen.getByRole('heading', { name: 'Ychwanegu hyfforddiant gorfodol' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ychwanegu rheol' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Rheolau hyfforddiant gorfodol' });
    const row = within(table).getByRole('row', { name: /JESIP/ });
    expect(row).toHaveTextContent('Hyfforddwyr o fewn Gwasanaeth Ambiwlans y Deyrnas Unedig');
    expect(row).toHaveTextContent('Tystysgrif yn ddilys am 12 mis');
    expect(row).toHaveTextContent("Rhoi gwybod i'r rheolwr ar ôl 5 diwrnod yn hwyr");
    expect(within(row).getByRole('button', { name: "Golygu'r rheol ar gyfer JESIP: Hyfforddwyr o fewn Gwasanaeth Ambiwlans y Deyrnas Unedig" })).toHaveTextContent('Golygu');
  });

  it('names each required course in Welsh where it has Welsh, else in English in lang="en-GB", marked in its row', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<RequiredTrainingSection userId={user.id} />, { user, queryData: [[requiredTrainingKeys.mine(user.id), mine]] });
    const welsh = screen.getByRole('link', { name: 'Gweithdrefn Airwave' });
    expect(welsh).toHaveAttribute('lang', 'cy');
    expect(within(welsh.closest('tr') as HTMLElement).queryByText('Ddim ar gael yn Gymraeg')).toBeNull();
    const english = screen.getByRole('link', { name: 'JESIP' });
    expect(english).toHaveAttribute('lang', 'en-GB');
    expect(within(english.closest('tr') as HTMLElement).getAllByText('Ddim ar gael yn Gymraeg')).toHaveLength(1);
  });

  it('names each required course in English for an English reader, unmarked', () => {
    renderWithProviders(<RequiredTrainingSection userId={user.id} />, { user, queryData: [[requiredTrainingKeys.mine(user.id), mine]] });
    expect(screen.getByRole('link', { name: 'Airwave' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'JESIP' })).toBeInTheDocument();
    expect(screen.queryByText(/Gweithdrefn/)).toBeNull();
    expect(screen.queryByText('Not available in Welsh')).toBeNull();
  });
});
