// What the server says (an error's message, a field's message, a shared schema's message) is English,
// the API's one language. The `messages` catalogue gives each the reader's words, keyed by the English
// itself; a message not in it stays as the server wrote it. It loads with the first message to show.
import { i18n } from './i18n';

export const MESSAGES_NAMESPACE = 'messages';

/** Loads the messages catalogue of the page's language (once; later calls resolve at once). */
export function loadMessages(): Promise<void> {
  return i18n.loadNamespaces(MESSAGES_NAMESPACE).catch(() => undefined);
}

/** The server's English message in the reader's language. */
export function translateMessage(message: string): string {
  if (!message) return message;
  return i18n.t(message, { ns: MESSAGES_NAMESPACE, keySeparator: false, nsSeparator: false, defaultValue: message });
}

/** Each field's message in the reader's language. */
export function translateFields(fields: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!fields) return fields;
  return Object.fromEntries(Object.entries(fields).map(([field, message]) => [field, translateMessage(message)]));
}
