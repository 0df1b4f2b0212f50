// The bell: its accessible name carries the unread count, it opens a dialog with the newest notices
// (a link to each thing, its date as 22 November 2026), "Mark as read" on unread ones only and "Mark
// all as read", works from the keyboard, and closes on Escape with focus back on the bell.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { NotificationPage } from '@shared/notifications.ts';
import { renderWithProviders } from '@/test/render';
import { bellLabel, NotificationBellView } from './NotificationBell';

const page: NotificationPage = {
  items: [
    {
      id: 'n3', kind: 'training-due-soon', title: 'Manual Handling is due in 3 days', body: 'Complete it by 25 November 2026.',
      linkPath: '/course/c1', createdAt: '2026-11-22T10:00:00.000Z', readAt: null,
    },
    {
      id: 'n2', kind: 'certificate-issued', title: 'Certificate issued: Fire Safety', body: 'Verification code ABCD1234.',
      linkPath: '/verify/ABCD1234', createdAt: '2026-11-20T10:00:00.000Z', readAt: null,
    },
    {
      id: 'n1', kind: 'training-assigned', title: 'Required training: Manual Handling', body: 'Complete it by 25 November 2026.',
      linkPath: '/course/c1', createdAt: '2026-11-11T10:00:00.000Z', readAt: '2026-11-12T10:00:00.000Z',
    },
  ],
  total: 3,
  unreadCount: 2,
  page: 1,
  pageSize: 10,
};

describe('notification bell', () => {
  it('names the unread count', () => {
    expect(bellLabel(3)).toBe('Notifications, 3 unread');
    expect(bellLabel(0)).toBe('Notifications, none unread');
  });

  it('opens the list with links, dates and mark-as-read for unread notices only', async () => {
    const onMarkRead = vi.fn();
    const onMarkAllRead = vi.fn();
    const { user } = renderWithProviders(<NotificationBellView page={page} onMarkRead={onMarkRead} onMarkAllRead={onMarkAllRead} />);
    const bell = screen.getByRole('button', { name: 'Notifications, 2 unread' });
    expect(bell).toHaveAttribute('aria-expanded', 'false');
    await user.click(bell);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    expect(within(dialog).getByRole('link', { name: 'Manual Handling is due in 3 days' })).toHaveAttribute('href', '/course/c1');
    expect(within(dialog).getByRole('link', { name: 'Certificate issued: Fire Safety' })).toHaveAttribute('href', '/verify/ABCD1234');
    expect(within(dialog).getByText(/22 November 2026/)).toBeInTheDocument();
    expect(within(dialog).getByText('11 November 2026')).toBeInTheDocument();
    const markButtons = within(dialog).getAllByRole('button', { name: /^Mark as read:/ });
    expect(markButtons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Mark as read: Manual Handling is due in 3 days',
      'Mark as read: Certificate issued: Fire Safety',
    ]);
    await user.click(markButtons[1]!);
    expect(onMarkRead).toHaveBeenCalledWith('n2');
    await user.click(within(dialog).getByRole('button', { name: 'Mark all as read' }));
    expect(onMarkAllRead).toHaveBeenCalledOnce();
    expect(within(dialog).getByRole('link', { name: 'See all notifications' })).toHaveAttribute('href', '/notifications');
  });

  it('following a notice\'s link marks it read and closes the list', async () => {
    const onMarkRead = vi.fn();
    const { user } = renderWithProviders(<NotificationBellView page={page} onMarkRead={onMarkRead} onMarkAllRead={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(await screen.findByRole('link', { name: 'Manual Handling is due in 3 days' }));
    expect(onMarkRead).toHaveBeenCalledWith('n3');
    expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument();
  });

  it('works from the keyboard and closes on Escape, focus back on the bell', async () => {
    const { user } = renderWithProviders(<NotificationBellView page={page} onMarkRead={() => {}} onMarkAllRead={() => {}} />);
    await user.tab();
    const bell = screen.getByRole('button', { name: 'Notifications, 2 unread' });
    expect(bell).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Notifications' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument();
    // Mantine gives the focus back once the popover has closed: on a busy machine, a moment later.
    await waitFor(() => expect(bell).toHaveFocus());
  });

  it('after "Mark all as read" focus stays in the list (on its heading), so Escape still closes it', async () => {
    const onMarkAllRead = vi.fn();
    const { user } = renderWithProviders(<NotificationBellView page={page} onMarkRead={() => {}} onMarkAllRead={onMarkAllRead} />);
    await user.click(screen.getByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    expect(onMarkAllRead).toHaveBeenCalledOnce();
    expect(screen.getByRole('heading', { name: 'Notifications' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument();
  });

  it('says when there is nothing, and offers no mark-all then', async () => {
    const empty: NotificationPage = { items: [], total: 0, unreadCount: 0, page: 1, pageSize: 10 };
    const { user } = renderWithProviders(<NotificationBellView page={empty} onMarkRead={() => {}} onMarkAllRead={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Notifications, none unread' }));
    expect(await screen.findByText('You have no notifications.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });
});
