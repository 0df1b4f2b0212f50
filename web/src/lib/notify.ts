// Toasts (specification §8): at most one at a time; failures use the destructive (red) style.
import { notifications } from '@mantine/notifications';

const closeButtonProps = { 'aria-label': 'Close notification' };

export function notifySuccess(title: string, message: string): void {
  notifications.show({ title, message, color: 'green', withBorder: true, closeButtonProps });
}

export function notifyFailure(title: string, message: string): void {
  notifications.show({ title, message, color: 'red', withBorder: true, autoClose: 8000, closeButtonProps });
}
