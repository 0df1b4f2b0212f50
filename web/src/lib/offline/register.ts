// Registers the service worker (web/sw/sw.ts) with Workbox's window library, after the page has
// painted. A new version installs beside the running one and waits: the app offers "Reload"
// (./update.ts), which tells it to take over and reloads once it controls the page. The service
// worker's Background Sync asks the page to replay the offline queue (its session is the page's).
import { Workbox } from 'workbox-window';
import { offerUpdate } from './update';
import { CONTROLLING_EVENT, REPLAY_EVENT } from './sw-events';

/** Checks for a new version this often while the app is open (the browser also checks on navigation). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', () => {
    offerUpdate(() => {
      workbox.addEventListener('controlling', () => window.location.reload());
      workbox.messageSkipWaiting();
    });
  });
  workbox.addEventListener('controlling', (event) => {
    if (!event.isUpdate) window.dispatchEvent(new Event(CONTROLLING_EVENT));
  });
  workbox.addEventListener('message', (event) => {
    if ((event.data as { type?: string } | null)?.type === 'REPLAY_QUEUE') window.dispatchEvent(new Event(REPLAY_EVENT));
  });
  // A browser that refuses the registration (private windows in some, policy-managed devices, a
  // test browser that blocks it) leaves the app online-only: nothing to report to the person.
  workbox.register().then(
    (registration) => {
      if (registration) window.setInterval(() => void workbox.update(), UPDATE_CHECK_MS);
    },
    () => undefined,
  );
}
