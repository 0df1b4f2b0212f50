// Vitest setup for the web project (jsdom): jest-dom matchers, the browser APIs jsdom lacks and that
// Mantine uses, and a placeholder anon key so the supabase-js client can be created (no test talks
// to a server: the ['user'] query is seeded by renderWithProviders).
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, vi } from 'vitest';
import type { Resource } from 'i18next';
import { i18n, startTranslationsWith } from '@/lib/i18n/i18n';

// Lazy routes load their module on first use, which can take over a second in a cold worker.
configure({ asyncUtilTimeout: 5000 });

vi.stubEnv('VITE_SUPABASE_ANON_KEY', 'test-anon-key');

// Translations in English, every catalogue given up front: components render their text at once,
// as the specification writes it. A test of the Welsh changes language itself (i18n.changeLanguage).
const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });
const resources: Resource = {};
for (const [file, catalogue] of Object.entries(catalogues)) {
  const [, language, namespace] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file)!;
  (resources[language!] ??= {})[namespace!] = catalogue.default;
}
startTranslationsWith('en-GB', resources);

// Every route's module loaded before the tests. The files of a worker share their modules
// (isolate: false): a lazy route's import still in flight when a file's environment is torn down
// fails, and that failure stays cached for the files after it. Loaded here, once a worker, every
// lazy import resolves from the cache.
await Promise.all(Object.values(import.meta.glob(['../app/routes/*.tsx', '!../app/routes/*.test.tsx'])).map((load) => load()));

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
Object.defineProperty(window, 'scrollTo', { writable: true, value: () => {} });
Object.defineProperty(document, 'fonts', { configurable: true, value: { ready: Promise.resolve(), addEventListener: () => {}, removeEventListener: () => {} } });

afterEach(() => {
  cleanup();
  // Mantine's toasts live in one store per module, which the files of a worker share: a toast still
  // open when a test ends would show in the next test's container (and take the first Tab).
  notifications.clean();
  window.localStorage.clear();
  // A test of the Welsh leaves the next one in English.
  if (i18n.language !== 'en-GB') void i18n.changeLanguage('en-GB');
});
