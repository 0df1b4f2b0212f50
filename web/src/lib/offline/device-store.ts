// What this device keeps for one person, in IndexedDB (a database per person, deleted at sign-out):
// - queue: what they did offline, in order (seq), each item with its idempotency key;
// - outcomes: what the server answered to replayed items that the learner has not yet seen
//   (a quiz's score, a refusal with its reason);
// - courses: the courses they downloaded, when, and what was kept for each.
import type { OfflineCourse, OfflineItem, OfflineItemAccepted, OfflineRefusalReason } from '@shared/offline.ts';

export const DEVICE_DB_PREFIX = 'esl-offline-';
const VERSION = 1;

/** An item of the queue: the item as the server takes it, its key and when it was queued. */
export interface QueuedItem {
  seq?: number;
  key: string;
  item: OfflineItem;
  queuedAt: string;
}

/** The server's answer to a replayed item, kept until the learner has seen it. */
export interface Outcome {
  key: string;
  item: OfflineItem;
  accepted: OfflineItemAccepted | null;
  refusal: { reason: OfflineRefusalReason | null; message: string } | null;
  at: string;
}

/** A downloaded course: the server's offline answer and the addresses kept in the person's cache. */
export interface DownloadedCourse {
  courseId: string;
  downloadedAt: string;
  bytes: number;
  offline: OfflineCourse;
  urls: string[];
  /** False where the browser refused the content origin its service worker: the course's SCORM
   * packages then need a connection (absent in downloads kept before packages were). */
  packagesKept?: boolean;
}

type StoreName = 'queue' | 'outcomes' | 'courses';

const databases = new Map<string, Promise<IDBDatabase>>();

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function open(personId: string): Promise<IDBDatabase> {
  let db = databases.get(personId);
  if (!db) {
    db = new Promise((resolve, reject) => {
      const request = indexedDB.open(`${DEVICE_DB_PREFIX}${personId}`, VERSION);
      request.onupgradeneeded = () => {
        const database = request.result;
        database.createObjectStore('queue', { keyPath: 'seq', autoIncrement: true }).createIndex('key', 'key', { unique: true });
        database.createObjectStore('outcomes', { keyPath: 'key' });
        database.createObjectStore('courses', { keyPath: 'courseId' });
      };
      request.onsuccess = () => {
        // Another tab deleting the database (a sign-out there) closes this connection.
        request.result.onversionchange = () => {
          request.result.close();
          databases.delete(personId);
        };
        resolve(request.result);
      };
      request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
    });
    databases.set(personId, db);
    db.catch(() => databases.delete(personId));
  }
  return db;
}

async function run<T>(personId: string, store: StoreName, mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open(personId);
  const transaction = db.transaction(store, mode);
  const result = promised(act(transaction.objectStore(store)));
  await new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
  return result;
}

export const deviceStore = {
  all: <T>(personId: string, store: StoreName) => run(personId, store, 'readonly', (s) => s.getAll() as IDBRequest<T[]>),
  get: <T>(personId: string, store: StoreName, key: IDBValidKey) => run(personId, store, 'readonly', (s) => s.get(key) as IDBRequest<T | undefined>),
  put: (personId: string, store: StoreName, value: unknown) => run(personId, store, 'readwrite', (s) => s.put(value)),
  delete: (personId: string, store: StoreName, key: IDBValidKey) => run(personId, store, 'readwrite', (s) => s.delete(key)),
};

/** Deletes the person's database (sign-out). Waits while another tab still holds it open. */
export async function deleteDeviceStore(personId: string): Promise<void> {
  const db = databases.get(personId);
  databases.delete(personId);
  if (db) (await db.catch(() => null))?.close();
  await promised(indexedDB.deleteDatabase(`${DEVICE_DB_PREFIX}${personId}`));
}

/** Every person's database on this device (for a sign-out that finds data left by someone else). */
export async function deviceStoreOwners(): Promise<string[]> {
  const list = await indexedDB.databases?.() ?? [];
  return list.map((db) => db.name ?? '').filter((name) => name.startsWith(DEVICE_DB_PREFIX)).map((name) => name.slice(DEVICE_DB_PREFIX.length));
}
