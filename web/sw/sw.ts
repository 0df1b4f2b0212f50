/// <reference lib="webworker" />
// The service worker (built by vite-plugin-pwa's injectManifest, web/vite.config.ts). It keeps:
// - the app shell and hashed assets, precached at install (Workbox), served from the cache;
// - pages from the network, and when it cannot be reached the built page (index.html, whose app
//   then draws the page asked for): the home page and course pages stay rendered on request online;
// - a signed-in person's API answers in their own cache (web/src/lib/offline/kept-answers.ts): the
//   answers every person keeps (who they are, their courses) and those a download put there, each
//   refreshed as it is read online and answered from the cache when the network is gone. Signing
//   out deletes that cache (web/src/lib/offline/sign-out.ts). Nothing is cached for a visitor.
// A new version waits until the app's "Reload" (web/src/lib/offline/register.ts) asks it to take over.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { API_PATH, keptAlways, personCacheName, personOfAuthorization, QUEUE_SYNC_TAG } from '../src/lib/offline/kept-answers';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// No directory index or clean URLs: `/` and `/auth` are pages rendered on request (or prerendered
// with the latest catalogue); the precached copies answer only when the network is gone.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();
// The first version controls the open pages at once (their answers are kept from then on); a later
// one waits for the app's Reload before it is activated at all.
clientsClaim();

registerRoute(
  ({ request }) => request.mode === 'navigate',
  async ({ request, url }) => {
    try {
      return await fetch(request);
    } catch (error) {
      const page = /^\/auth\/?$/.test(url.pathname) ? '/auth/index.html' : '/index.html';
      const kept = await matchPrecache(page);
      if (kept) return kept;
      throw error;
    }
  },
);

registerRoute(
  ({ request, url }) => request.method === 'GET' && url.pathname.includes(`${API_PATH}/`),
  async ({ request, url }) => {
    const person = personOfAuthorization(request.headers.get('Authorization'));
    if (!person) return fetch(request);
    const apiPath = url.pathname.slice(url.pathname.indexOf(API_PATH) + API_PATH.length);
    const cache = await caches.open(personCacheName(person));
    try {
      const response = await fetch(request);
      if (response.ok && (keptAlways(apiPath) || (await cache.match(url.href)))) await cache.put(url.href, response.clone());
      return response;
    } catch (error) {
      const kept = await cache.match(url.href);
      if (kept) return kept;
      throw error;
    }
  },
);

// Public files (course and module images): from the network, else the copy a download kept.
registerRoute(
  ({ request, url }) => request.method === 'GET' && url.pathname.includes('/storage/v1/object/public/'),
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch (error) {
      const kept = await caches.match(request.url, { ignoreVary: true });
      if (kept) return kept;
      throw error;
    }
  },
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Background Sync: the connection is back; the open pages replay their person's queue (with the
// person's session, which only the page holds).
self.addEventListener('sync', (event) => {
  const sync = event as Event & { tag: string; waitUntil(promise: Promise<unknown>): void };
  if (sync.tag !== QUEUE_SYNC_TAG) return;
  sync.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((windows) => {
      for (const client of windows) client.postMessage({ type: 'REPLAY_QUEUE' });
    }),
  );
});
