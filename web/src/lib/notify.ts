// Toasts: at most one on screen at a time (the container's limit; later ones wait in Mantine's
// queue); failures use the destructive (red) style.
// Mantine's notifications (store and container) are loaded with the first toast (they are
// not needed to show /); a toast waits in Mantine's store until the container has mounted.
import type { NotificationData } from '@mantine/notifications';
import type { ReactNode } from 'react';

import { i18n } from './i18n/i18n';

// Made for each toast: its close button's label in the language of the moment.
const closeButtonProps = () => ({ 'aria-label': i18n.t('toast.close', { ns: 'common' }) });

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

/**
 * The notification each action shows now, by action key ('auth', 'password', 'profile', ...). A newer
 * outcome of the same action replaces the older one at once ("Failed to change password"
 * must not outlive the change that worked after it, nor wait in Mantine's one-at-a-time queue).
 */
const current = new Map<string, string>();
let sequence = 0;

export interface NotifyOptions {
  /** The action this outcome belongs to: an older toast of the same action goes. */
  action?: string;
}

function show(data: NotificationData, options: NotifyOptions = {}): void {
  if (!toastsWanted) {
    toastsWanted = true;
    for (const listener of listeners) listener();
  }
  const action = options.action;
  const previous = action ? current.get(action) : undefined;
  const id = action ? `${action}-${(sequence += 1)}` : undefined;
  if (action && id) current.set(action, id);
  void import('@mantine/notifications').then(({ notifications }) => {
    if (previous) notifications.hide(previous);
    notifications.show(id ? { ...data, id } : data);
  });
}

/** Hides the toast an action is showing, if any (e.g. leaving the form it was about). */
export function dismissNotification(action: string): void {
  const previous = current.get(action);
  if (!previous) return;
  current.delete(action);
  void import('@mantine/notifications').then(({ notifications }) => notifications.hide(previous));
}

/** `message` may carry links (the completion toast's certificate links); such a toast may stay longer. */
export function notifySuccess(title: string, message: ReactNode, options: NotifyOptions & { autoClose?: number | false } = {}): void {
  const { autoClose, ...notifyOptions } = options;
  show({ title, message, color: 'green', withBorder: true, closeButtonProps: closeButtonProps(), ...(autoClose !== undefined ? { autoClose } : {}) }, notifyOptions);
}

export function notifyFailure(title: string, message: string, options?: NotifyOptions): void {
  show({ title, message, color: 'red', withBorder: true, autoClose: 8000, closeButtonProps: closeButtonProps() }, options);
}
