// SCORM packages kept offline live on the content origin, whose Cache Storage this app cannot reach:
// a hidden page there (`_player/offline.html`) keeps, removes and clears them at the app's request,
// and its service worker serves them offline only once it has proven them genuine against the
// server's signed manifest (docs/decisions/scorm-offline-integrity.md). The page and the app talk by
// postMessage only, each checking the other's origin, as the launcher does.
import type { OfflineCourse, OfflineScormPackage } from '@shared/offline.ts';

/** Why the content origin could not keep a package. */
export type ContentKeepFailure = 'quota' | 'network' | 'integrity' | 'unsupported';

export class ContentKeepError extends Error {
  readonly reason: ContentKeepFailure;
  constructor(reason: ContentKeepFailure) {
    super(`The package could not be kept offline (${reason})`);
    this.name = 'ContentKeepError';
    this.reason = reason;
  }
}

const BUCKET = '/scorm-content/';

/** A file of the player on the content origin (`_player/<name>` at the bucket's root), for the app's origin. */
export function playerFileAddress(contentBase: string, name: string, appOrigin: string): URL | null {
  try {
    const base = new URL(contentBase);
    const at = base.pathname.indexOf(BUCKET);
    if (at < 0) return null;
    const url = new URL(`${base.pathname.slice(0, at + BUCKET.length)}_player/${name}`, base.origin);
    url.searchParams.set('app', appOrigin);
    return url;
  } catch {
    return null;
  }
}

/** A package that can be kept: the server signed its files' hashes. */
export const keepable = (pkg: OfflineScormPackage) => pkg.manifest !== null;

/** The package's files among the course's (their URLs start with its root). */
export const packageFiles = (offline: OfflineCourse, pkg: OfflineScormPackage) =>
  offline.files.filter((file) => file.url.startsWith(pkg.contentBase));

interface PageAnswer {
  /** 'unsupported' instead of 'ready': the browser refused the content origin's service worker. */
  type: 'ready' | 'unsupported' | 'progress' | 'kept' | 'removed' | 'cleared' | 'failed';
  id?: number;
  doneBytes?: number;
  reason?: ContentKeepFailure;
}

type Send = (message: Record<string, unknown>, onProgress?: (doneBytes: number) => void) => Promise<void>;

/** How long the page may take to register its service worker and say it is ready (keeping, removing). */
const READY_MS = 20_000;
/** At sign-out, which waits on it: the page is kept offline, so it answers at once or not at all. */
const SIGN_OUT_READY_MS = 5_000;

/** Opens the content origin's offline page in a hidden frame for the time of `run`. */
async function withOfflinePage<T>(contentBase: string, run: (send: Send) => Promise<T>, readyMs = READY_MS): Promise<T> {
  const address = playerFileAddress(contentBase, 'offline.html', window.location.origin);
  if (!address) throw new ContentKeepError('unsupported');
  const origin = address.origin;
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.title = 'SCORM offline storage';
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  frame.src = address.href;
  let nextId = 1;
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void; onProgress?: (doneBytes: number) => void }>();
  let ready: (supported: boolean) => void = () => {};
  const isReady = new Promise<void>((resolve, reject) => {
    ready = (supported) => (supported ? resolve() : reject(new ContentKeepError('unsupported')));
    window.setTimeout(() => reject(new ContentKeepError('unsupported')), readyMs);
  });
  function onMessage(event: MessageEvent) {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    const answer = event.data as PageAnswer | null;
    if (!answer || typeof answer !== 'object') return;
    if (answer.type === 'ready' || answer.type === 'unsupported') return ready(answer.type === 'ready');
    const entry = typeof answer.id === 'number' ? waiting.get(answer.id) : undefined;
    if (!entry) return;
    if (answer.type === 'progress') entry.onProgress?.(answer.doneBytes ?? 0);
    else {
      waiting.delete(answer.id!);
      if (answer.type === 'failed') entry.reject(new ContentKeepError(answer.reason ?? 'network'));
      else entry.resolve();
    }
  }
  window.addEventListener('message', onMessage);
  document.body.appendChild(frame);
  try {
    await isReady;
    const send: Send = (message, onProgress) => new Promise<void>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject, onProgress });
      frame.contentWindow?.postMessage({ ...message, id }, origin);
    });
    return await run(send);
  } finally {
    window.removeEventListener('message', onMessage);
    frame.remove();
  }
}

/** Where this device has kept packages (the bucket's root on the content origin, naming no package), for sign-out to empty. */
const KEPT_CONTENT_KEY = 'esl-scorm-kept-content';
export const keptContentBase = () => localStorage.getItem(KEPT_CONTENT_KEY);

/** Keeps the course's signed packages on the content origin, reporting the bytes kept so far. */
export async function keepPackages(offline: OfflineCourse, onBytes: (doneBytes: number) => void): Promise<void> {
  const packages = offline.scorm.filter(keepable);
  if (packages.length === 0) return;
  const base = packages[0].contentBase;
  localStorage.setItem(KEPT_CONTENT_KEY, base.slice(0, base.indexOf(BUCKET) + BUCKET.length));
  await withOfflinePage(packages[0].contentBase, async (send) => {
    let before = 0;
    for (const pkg of packages) {
      const files = packageFiles(offline, pkg).map(({ url, bytes }) => ({ url, bytes }));
      await send({ type: 'keep', manifest: pkg.manifest, files }, (doneBytes) => onBytes(before + doneBytes));
      before += files.reduce((sum, file) => sum + file.bytes, 0);
      onBytes(before);
    }
  });
}

/** Removes the course's packages from the content origin. */
export async function removePackages(offline: OfflineCourse): Promise<void> {
  const packages = offline.scorm.filter(keepable);
  if (packages.length === 0) return;
  await withOfflinePage(packages[0].contentBase, async (send) => {
    for (const pkg of packages) await send({ type: 'remove', base: decodeURIComponent(new URL(pkg.contentBase).pathname) });
  });
}

/** Empties the content origin's offline caches (sign-out), where a package was ever kept. */
export async function clearPackages(contentBase: string): Promise<void> {
  try {
    await withOfflinePage(contentBase, (send) => send({ type: 'clear' }), SIGN_OUT_READY_MS);
  } catch (error) {
    // A page that cannot start there (the browser refused its service worker, or nothing of it was
    // ever kept) has nothing to clear; anything else is tried again at the next sign-out.
    if (!(error instanceof ContentKeepError && error.reason === 'unsupported')) throw error;
  }
  localStorage.removeItem(KEPT_CONTENT_KEY);
}
