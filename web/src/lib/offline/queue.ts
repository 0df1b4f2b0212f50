// The offline queue: what a learner does without a connection (a module read, an untimed quiz's
// answers, a SCORM sitting) is kept on the device with an idempotency key each, and replayed in
// order when the connection is back (PUT /api/offline/items/:key). The server accepts a key once and
// answers a replay with what it did the first time; it refuses an item that is no longer valid (the
// course unpublished, the person deactivated, no attempt left) with a reason the learner is shown.
import type { OfflineItem, OfflineItemAccepted, OfflineRefusalReason } from '@shared/offline.ts';
import { OFFLINE_REFUSALS } from '@shared/offline.ts';
import { api, ApiError, OfflineError } from '@/lib/api-client';
import { deviceStore, type Outcome, type QueuedItem } from './device-store';
import { QUEUE_SYNC_TAG } from './kept-answers';

type WithoutPerson<T> = T extends unknown ? Omit<T, 'personId' | 'recordedAt'> : never;
export type NewOfflineItem = WithoutPerson<OfflineItem>;

/** Keeps an item in the person's queue and asks the browser to replay it when the connection is back. */
export async function queueItem(personId: string, item: NewOfflineItem): Promise<QueuedItem> {
  const queued: QueuedItem = {
    key: crypto.randomUUID(),
    item: { ...item, personId, recordedAt: new Date().toISOString() } as OfflineItem,
    queuedAt: new Date().toISOString(),
  };
  await deviceStore.put(personId, 'queue', queued);
  await requestBackgroundSync();
  return queued;
}

/** Background Sync where the browser has it (the service worker then asks the page to replay). */
async function requestBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const sync = (registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync;
    await sync?.register(QUEUE_SYNC_TAG);
  } catch {
    // Not allowed or not there: the queue is replayed on the next start, focus or 'online' event.
  }
}

export async function queuedItems(personId: string): Promise<QueuedItem[]> {
  const items = await deviceStore.all<QueuedItem>(personId, 'queue');
  return items.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

export async function outcomes(personId: string): Promise<Outcome[]> {
  const list = await deviceStore.all<Outcome>(personId, 'outcomes');
  return list.sort((a, b) => a.at.localeCompare(b.at));
}

export async function dismissOutcomes(personId: string): Promise<void> {
  for (const outcome of await outcomes(personId)) await deviceStore.delete(personId, 'outcomes', outcome.key);
}

export interface ReplayResult {
  sent: number;
  /** Items left in the queue (the connection went again, or the server could not answer now). */
  left: number;
}

const running = new Map<string, Promise<ReplayResult>>();

/** Replays the person's queue in order; one replay at a time (a second call joins the first). */
export function replayQueue(personId: string): Promise<ReplayResult> {
  let replay = running.get(personId);
  if (!replay) {
    replay = replayInOrder(personId).finally(() => running.delete(personId));
    running.set(personId, replay);
  }
  return replay;
}

function refusalReason(error: ApiError): OfflineRefusalReason | null {
  return (OFFLINE_REFUSALS as readonly string[]).includes(error.reason ?? '') ? (error.reason as OfflineRefusalReason) : null;
}

async function replayInOrder(personId: string): Promise<ReplayResult> {
  const items = await queuedItems(personId);
  let sent = 0;
  for (const queued of items) {
    let outcome: Outcome;
    try {
      const accepted = await api.put<OfflineItemAccepted>(`/offline/items/${queued.key}`, queued.item);
      outcome = { key: queued.key, item: queued.item, accepted, refusal: null, at: new Date().toISOString() };
    } catch (error) {
      // Refused for good (400, 403, 404, 409): the learner is told why and the item leaves the queue.
      // Anything else (no connection, a session to renew, 429, 5xx): it stays, in order, for later.
      if (error instanceof OfflineError || !(error instanceof ApiError) || ![400, 403, 404, 409].includes(error.status)) {
        return { sent, left: items.length - sent };
      }
      outcome = { key: queued.key, item: queued.item, accepted: null, refusal: { reason: refusalReason(error), message: error.serverMessage }, at: new Date().toISOString() };
    }
    await deviceStore.put(personId, 'outcomes', outcome);
    if (queued.seq !== undefined) await deviceStore.delete(personId, 'queue', queued.seq);
    sent += 1;
  }
  return { sent, left: 0 };
}
