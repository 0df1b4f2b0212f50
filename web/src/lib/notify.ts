// Toasts (specification §8): at most one at a time; failures use the destructive (red) style.
import { notifications } from '@mantine/notifications';

export function notifySuccess(title: string, message: string): void {
  notifications.show({ title, message, color: 'green', withBorder: true });
}

export function notifyFailure(title: string, message: string): void {
  notifications.show({ title, message, color: 'red', withBorder: true, autoClose: 8000 });
}
