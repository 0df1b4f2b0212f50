// The notices in Welsh: the bell's name with its count, the list's heading, actions and dates, and
// /notifications' switch, count and pages.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { NotificationPage } from '@shared/notifications.ts';
import { i18n } from '@/lib/i18n/i18n';
import { renderWithProviders } from '@/test/render';
import { bellLabel, NotificationBellView } from './NotificationBell';
import { NotificationListView } from './NotificationList';

const page: NotificationPage = {
  items: [
    { id: 'n2', kind: 'training-due-soon', title: 'Manual Handling is due in 3 days', body: '', linkPath: '/course/c1', createdAt: '2026-11-22T10:00:00.000Z', readAt: null },
    { id: 'n1', kind: 'training-assigned', title: 'Required training: Manual Handling', body: '', linkPath: '/course/c1', createdAt: '2026-11-11T10:00:00.000Z', readAt: '2026-11-12T10:00:00.000Z' },
  ],
  total: 45,
  unreadCount: 1,
  page: 1,
  pageSize: 20,
};

describe('notifications in Welsh', () => {
  it('names the bell and its list in Welsh, dates included', async () => {
    await i18n.changeLanguage('cy');
    expect(bellLabel(0)).toBe('Hysbysiadau, dim un heb ei ddarllen');
    expect(bellLabel(1)).toBe('Hysbysiadau, 1 heb ei ddarllen');
    expect(bellLabel(3)).toBe('Hysbysiadau, 3 heb eu darllen');
    const { user } = renderWithProviders(<NotificationBellView page={{ ...page, pageSize: 10 }} onMarkRead={() => {}} onMarkAllRead={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Hysbysiadau, 1 heb ei ddarllen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hysbysiadau' });
    expect(within(dialog).getByRole('button', { name: "Marcio'r cyfan wedi'u darllen" })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: "Marcio wedi'i ddarllen: Manual Handling is due in 3 days" })).toBeInTheDocument();
    expect(within(dialog).getByText('Heb ei ddarllen · 22 Tachwedd 2026')).toBeInTheDocument();
    expect(within(dialog).getByText('11 Tachwedd 2026')).toBeInTheDocument();
    expect(within(dialog).getByText('Yn dangos y 2 diweddaraf o blith 45.')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Gweld pob hysbysiad' })).toHaveAttribute('href', '/notifications');
  });

  it('shows /notifications in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(
      <NotificationListView data={page} loading={false} unreadOnly={false} onUnreadOnly={() => {}} page={1} onPage={() => {}} onMarkRead={() => {}} onMarkAllRead={() => {}} />,
    );
    expect(screen.getByRole('list', { name: 'Hysbysiadau, y diweddaraf yn gyntaf' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Heb eu darllen yn unig' })).toBeInTheDocument();
    expect(screen.getByText('1 heb ei ddarllen')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tudalen 3' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tudalen nesaf' })).toBeInTheDocument();
  });

  it('says in Welsh when nothing is unread', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(
      <NotificationListView data={{ items: [], total: 0, unreadCount: 0, page: 1, pageSize: 20 }} loading={false} unreadOnly onUnreadOnly={() => {}} page={1} onPage={() => {}} onMarkRead={() => {}} onMarkAllRead={() => {}} />,
    );
    expect(screen.getByText('Nid oes gennych unrhyw hysbysiadau heb eu darllen.')).toBeInTheDocument();
    expect(screen.getByText('Dim un heb ei ddarllen')).toBeInTheDocument();
  });
});
