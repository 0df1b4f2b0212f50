// Whether a new version of the app waits to take over (its service worker installed and waiting),
// and how to take it: the store the reload prompt reads, kept apart from the registration
// (./register.ts, loaded after the page has painted) so the layout does not load Workbox.
import { useSyncExternalStore } from 'react';

let apply: (() => void) | null = null;
const listeners = new Set<() => void>();

/** Called by the registration when a new version is waiting, with what makes it take over. */
export function offerUpdate(take: () => void) {
  apply = take;
  for (const listener of listeners) listener();
}

/** Reloads into the new version. */
export function applyUpdate() {
  apply?.();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUpdateAvailable(): boolean {
  return useSyncExternalStore(subscribe, () => apply !== null, () => false);
}
