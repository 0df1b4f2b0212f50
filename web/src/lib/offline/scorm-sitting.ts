// A SCORM sitting without a connection: what the content reports is kept in the learner's offline
// queue as one `scorm-sitting` item, replaced while it waits as more is reported, and sent once the
// connection is back (the server opens a session and saves it, as online). Once an item has been
// sent, what the content reports after it goes as a new item with only what changed since.
import type { OfflineSco } from '@shared/offline.ts';
import { duration2004, timeSeconds, timespan12 } from '@shared/scorm-data-model.ts';
import { deviceStore, type Outcome, type QueuedItem } from './device-store';
import { queueItem, queuedItems } from './queue';

/** What a later offline sitting starts from: the learner's place, data and status so far. */
const CARRIED = /^cmi\.(core\.lesson_location|location|suspend_data|core\.lesson_status|completion_status|success_status|(core\.)?score\.(raw|min|max|scaled))$/;

/**
 * The run-time start of an offline sitting: the SCO's start as the server gave it at download, with
 * what the sittings still waiting in the queue reported (a learner who leaves and comes back offline
 * resumes where they were).
 */
export function offlineStartCmi(sco: OfflineSco, moduleId: string, waiting: QueuedItem[]): Record<string, string> {
  const cmi = { ...sco.cmi };
  let resumed = false;
  for (const { item } of waiting) {
    if (item.kind !== 'scorm-sitting' || item.moduleId !== moduleId || item.scoId !== sco.id) continue;
    for (const [element, value] of Object.entries(item.values)) {
      if (CARRIED.test(element) && typeof value === 'string' && element in cmi) {
        cmi[element] = value;
        resumed ||= /location|suspend_data/.test(element) && value !== '';
      }
    }
  }
  if (resumed) {
    if ('cmi.core.entry' in cmi) cmi['cmi.core.entry'] = 'resume';
    if ('cmi.entry' in cmi) cmi['cmi.entry'] = 'resume';
  }
  return cmi;
}

const SESSION_TIME = /^cmi\.(core\.)?session_time$/;

/**
 * What an item of a sitting sends: the values the items already sent did not hold. The server counts
 * each item as a session of its own, and a session time is the whole sitting's so far, so the next
 * item's is the time since the last one sent.
 */
export function sinceSent(values: Record<string, string>, sent: Record<string, unknown>): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const [element, value] of Object.entries(values)) {
    if (sent[element] === value) continue;
    const before = typeof sent[element] === 'string' && SESSION_TIME.test(element) ? timeSeconds(sent[element]) : null;
    const now = before === null ? null : timeSeconds(value);
    changed[element] = before !== null && now !== null && now >= before
      ? (element === 'cmi.core.session_time' ? timespan12(now - before) : duration2004(now - before))
      : value;
  }
  return changed;
}

/** The values of one offline sitting, kept in the queue on every save. Used in place of the online saver. */
export class OfflineSitting {
  private readonly values: Record<string, string> = {};
  /** The queued item of this sitting, while it waits or since it was sent. */
  private key: string | null = null;
  /** What the items already sent held (what the server has of this sitting). */
  private readonly sent: Record<string, unknown> = {};
  /** The values when the current item was last written. */
  private written: Record<string, string> = {};
  private chain: Promise<unknown> = Promise.resolve();
  private changed = false;
  private finished = false;

  constructor(
    private readonly personId: string,
    private readonly moduleId: string,
    private readonly scoId: string,
    /** reported: the status the content reported so far (the server decides it when the sitting is sent). */
    private readonly onKept: (finish: boolean, reported: string | null) => void,
    private readonly onFailed: (error: unknown) => void,
  ) {}

  set(element: string, value: string) {
    if (this.finished) return;
    this.values[element] = value;
    this.changed = true;
  }

  get hasPending() {
    return this.changed;
  }

  save(finish = false): Promise<unknown> {
    if (this.finished || (!finish && !this.changed)) return this.chain;
    this.chain = this.chain.then(() => this.keep(finish)).catch(this.onFailed);
    return this.chain;
  }

  /** The page goes: the queue is written as it is (IndexedDB keeps what the page began to write). */
  leave() {
    void this.save();
  }

  private async keep(finish: boolean) {
    this.changed = false;
    if (finish) this.finished = true;
    const waiting = this.key ? (await queuedItems(this.personId)).find((queued) => queued.key === this.key) : undefined;
    if (this.key && !waiting) {
      // Sent meanwhile: what it held (as the outcome records it) is the server's now.
      const outcome = await deviceStore.get<Outcome>(this.personId, 'outcomes', this.key);
      Object.assign(this.sent, outcome?.item.kind === 'scorm-sitting' ? outcome.item.values : this.written);
      this.key = null;
    }
    const values = sinceSent(this.values, this.sent);
    if (waiting) {
      await deviceStore.put(this.personId, 'queue', { ...waiting, item: { ...waiting.item, values, finish: finish || undefined } });
    } else {
      if (Object.keys(values).length === 0 && !finish) return;
      this.key = (await queueItem(this.personId, { kind: 'scorm-sitting', moduleId: this.moduleId, scoId: this.scoId, values, finish: finish || undefined })).key;
    }
    this.written = { ...this.values };
    const v = this.values;
    const success = v['cmi.success_status'] === 'passed' || v['cmi.success_status'] === 'failed' ? v['cmi.success_status'] : null;
    this.onKept(finish, v['cmi.core.lesson_status'] ?? success ?? v['cmi.completion_status'] ?? null);
  }
}
