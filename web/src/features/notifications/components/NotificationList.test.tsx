// /notifications' list: every notice with its link and date, "Unread only", the unread count,
// "Mark all as read", paging past 20, and what it says when there is nothing.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { NotificationPage } from '@shared/notifications.ts';
import { renderWithProviders } from '@/test/render';
import { NotificationListView } from './NotificationList';

const data: NotificationPage = {
  items: [
    { id: 'n2', kind: 'training-overdue', title: 'Manual Handling is overdue', body: 'It was due on 20 November 2026.', linkPath: '/course/c1', createdAt: '2026-11-22T10:00:00.000Z', readAt: null },
    { id: 'n1', kind: 'enrolment-approved', title: 'Enrolment approved: Airwave', body: 'You can start the course.', linkPath: '/course/c3', createdAt: '2026-11-02T10:00:00.000Z', readAt: '2026-11-03T10:00:00.000Z' },
  ],
  total: 45,
  unreadCount: 1,
  page: 1,
  pageSize: 20,
};

describe('notification list page', () => {
  it('lists the notices with links, dates, the unread count and three pages', async () => {
    const onPage = vi.fn();
    const onMarkRead = vi.fn();
    const onMarkAllRead = vi.fn();
    const onUnreadOnly = vi.fn();
    const { user } = renderWithProviders(
      <NotificationListView data={data} loading={false} unreadOnly={false} onUnreadOnly={onUnreadOnly} page={1} onPage={onPage} onMarkRead={onMarkRead} onMarkAllRead={onMarkAllRead} />,
    );
    const list = screen.getByRole('list', { name: 'Notifications, newest first' });
    expect(within(list).getByRole('link', { name: 'Manual Handling is overdue' })).toHaveAttribute('href', '/course/c1');
    expect(within(list).getByText('2 November 2026')).toBeInTheDocument();
    expect(screen.getByText('1 unread')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark as read: Manual Handling is overdue' }));
    expect(onMarkRead).toHaveBeenCalledWith('n2');
    expect(screen.queryByRole('button', { name: 'Mark as read: Enrolment approved: Airwave' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(onMarkAllRead).toHaveBeenCalledOnce();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPage).toHaveBeenCalledWith(3);
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPage).toHaveBeenCalledWith(2);
    await user.click(screen.getByRole('switch', { name: 'Unread only' }));
    expect(onUnreadOnly).toHaveBeenCalledWith(true);
  });

  it('says when there is nothing unread', () => {
    renderWithProviders(
      <NotificationListView data={{ items: [], total: 0, unreadCount: 0, page: 1, pageSize: 20 }} loading={false} unreadOnly onUnreadOnly={() => {}} page={1} onPage={() => {}} onMarkRead={() => {}} onMarkAllRead={() => {}} />,
    );
    expect(screen.getByText('You have no unread notifications.')).toBeInTheDocument();
    expect(screen.getByText('None unread')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });
});
