// Toasts (specification §8): at most one at a time; failures use the destructive (red) style.
// Mantine's notifications (store and container) are loaded with the first toast (issue 6: they are
// not needed to show /); a toast waits in Mantine's store until the container has mounted.
import type { NotificationData } from '@mantine/notifications';
import type { ReactNode } from 'react';

const closeButtonProps = { 'aria-label': 'Close notification' };

let toastsWanted = false;
const listeners = new Set<() => void>();

/** Whether any toast has been shown yet (AppProvider mounts the container from then on). */
export function areToastsWanted(): boolean {
  return toastsWanted;
}

export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(data: NotificationData): void {
  if (!toastsWanted) {
    toastsWanted = true;
    for (const listener of listeners) listener();
  }
  void import('@mantine/notifications').then(({ notifications }) => notifications.show(data));
}

/** `message` may carry links (the completion toast's certificate links); such a toast stays longer. */
export function notifySuccess(title: string, message: ReactNode, options: { autoClose?: number | false } = {}): void {
  show({ title, message, color: 'green', withBorder: true, closeButtonProps, ...options });
}

export function notifyFailure(title: string, message: string): void {
  show({ title, message, color: 'red', withBorder: true, autoClose: 8000, closeButtonProps });
}
