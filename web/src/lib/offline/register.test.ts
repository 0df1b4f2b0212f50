// The registration against a stand-in for the browser's service worker API (jsdom has none): when a
// new version is offered, what Reload asks of it, and the events the page's offline parts hear.
// The browser test (e2e/offline.test.ts) runs the real thing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTROLLING_EVENT, REPLAY_EVENT } from './sw-events';

class FakeWorker extends EventTarget {
  state = 'installing';
  postMessage = vi.fn();
  become(state: string) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  update = vi.fn(() => Promise.resolve());
  /** A new version found: it installs, then waits while another worker controls the page. */
  found(worker: FakeWorker) {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    this.installing = null;
    this.waiting = worker;
    worker.become('installed');
  }
}

function fakeContainer({ controlled, waiting = null }: { controlled: boolean; waiting?: FakeWorker | null }) {
  const registration = new FakeRegistration();
  registration.waiting = waiting;
  const container = Object.assign(new EventTarget(), {
    controller: controlled ? new FakeWorker() : null,
    register: vi.fn(() => Promise.resolve(registration)),
  });
  Object.defineProperty(navigator, 'serviceWorker', { value: container, configurable: true });
  return { container, registration };
}

async function start() {
  vi.resetModules();
  const { registerServiceWorker } = await import('./register');
  const update = await import('./update');
  registerServiceWorker();
  await vi.advanceTimersByTimeAsync(0);
  return update;
}

describe('registerServiceWorker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubEnv('DEV', false);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('registers /sw.js for the whole site', async () => {
    const { container } = fakeContainer({ controlled: false });
    await start();
    expect(container.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('stays online-only, without an error, when the browser answers with no registration (a test browser blocking it)', async () => {
    const { container, registration } = fakeContainer({ controlled: false });
    container.register.mockImplementation(() => Promise.resolve(undefined as unknown as FakeRegistration));
    const errors: unknown[] = [];
    const onRejection = (event: PromiseRejectionEvent) => errors.push(event.reason);
    window.addEventListener('unhandledrejection', onRejection);
    await start();
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    window.removeEventListener('unhandledrejection', onRejection);
    expect(errors).toEqual([]);
    expect(registration.update).not.toHaveBeenCalled();
  });

  it('offers a new version once it waits, and Reload asks the waiting worker to take over', async () => {
    const { registration } = fakeContainer({ controlled: true });
    const update = await start();
    const worker = new FakeWorker();
    registration.found(worker);
    // Not yet: a worker just installed is taken for waiting once it stays so a moment.
    await vi.advanceTimersByTimeAsync(100);
    update.applyUpdate();
    expect(worker.postMessage).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    update.applyUpdate();
    expect(worker.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
  });

  it('offers a version already waiting when the page opened', async () => {
    const waiting = new FakeWorker();
    waiting.state = 'installed';
    fakeContainer({ controlled: true, waiting });
    const update = await start();
    update.applyUpdate();
    expect(waiting.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
  });

  it('offers nothing for a first version, which activates at once', async () => {
    const { registration } = fakeContainer({ controlled: false });
    const update = await start();
    const worker = new FakeWorker();
    registration.installing = worker;
    registration.dispatchEvent(new Event('updatefound'));
    worker.become('installed');
    worker.become('activating');
    registration.installing = null;
    await vi.advanceTimersByTimeAsync(500);
    update.applyUpdate();
    expect(worker.postMessage).not.toHaveBeenCalled();
  });

  it('tells the page when a first version takes control, and not when an update does', async () => {
    const heard = vi.fn();
    window.addEventListener(CONTROLLING_EVENT, heard);
    try {
      const first = fakeContainer({ controlled: false });
      await start();
      first.container.dispatchEvent(new Event('controllerchange'));
      expect(heard).toHaveBeenCalledTimes(1);

      const later = fakeContainer({ controlled: true });
      await start();
      later.container.dispatchEvent(new Event('controllerchange'));
      expect(heard).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(CONTROLLING_EVENT, heard);
    }
  });

  it("passes the service worker's request to replay the queue on to the page", async () => {
    const heard = vi.fn();
    window.addEventListener(REPLAY_EVENT, heard);
    try {
      const { container } = fakeContainer({ controlled: true });
      await start();
      container.dispatchEvent(new MessageEvent('message', { data: { type: 'OTHER' } }));
      expect(heard).not.toHaveBeenCalled();
      container.dispatchEvent(new MessageEvent('message', { data: { type: 'REPLAY_QUEUE' } }));
      expect(heard).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(REPLAY_EVENT, heard);
    }
  });

  it('checks for a new version every hour', async () => {
    const { registration } = fakeContainer({ controlled: true });
    await start();
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(registration.update).toHaveBeenCalledTimes(1);
  });
});
