// Registers the service worker (web/sw/sw.ts) after the page has loaded. A new version installs
// beside the running one and waits: the app offers "Reload" (./update.ts), which tells it to take
// over and reloads once it controls the page. The service worker's Background Sync asks the page
// to replay the offline queue (its session is the page's). The browser's own API, not Workbox's
// window library: the app used four of its events (2 KB gzipped on every first page).
import { offerUpdate } from './update';
import { CONTROLLING_EVENT, REPLAY_EVENT } from './sw-events';

/** Checks for a new version this often while the app is open (the browser also checks on navigation). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** A worker just installed waits when it stays installed this long (a first one activates at once). */
const WAITING_AFTER_MS = 200;

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const container = navigator.serviceWorker;
  // Without a controller, this is the first installation: the worker takes control of the page
  // (clients.claim), and the page's offline parts ask again.
  const firstInstall = container.controller === null;
  let updating = false;
  container.addEventListener('controllerchange', () => {
    if (updating) window.location.reload();
    else if (firstInstall) window.dispatchEvent(new Event(CONTROLLING_EVENT));
  });
  container.addEventListener('message', (event) => {
    if ((event.data as { type?: string } | null)?.type === 'REPLAY_QUEUE') window.dispatchEvent(new Event(REPLAY_EVENT));
  });
  // A browser that refuses the registration (private windows in some, policy-managed devices, a
  // test browser that blocks it, answering with no registration at all) leaves the app online-only:
  // nothing to report to the person.
  container.register('/sw.js', { scope: '/' }).then(
    (registration: ServiceWorkerRegistration | undefined) => {
      if (!registration) return;
      const offer = () =>
        offerUpdate(() => {
          updating = true;
          registration.waiting?.postMessage({ type: 'SKIP_WAITING' });
        });
      // A new version already waiting when the page opened, or one found while it is open.
      if (registration.waiting) offer();
      registration.addEventListener('updatefound', () => {
        const installing = registration.installing;
        installing?.addEventListener('statechange', () => {
          if (installing.state !== 'installed') return;
          window.setTimeout(() => {
            if (registration.waiting === installing && installing.state === 'installed') offer();
          }, WAITING_AFTER_MS);
        });
      });
      window.setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
    },
    () => undefined,
  );
}
