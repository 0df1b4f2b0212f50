// The local stand-in for the hosted notification schedule (pg_cron there): every so often it runs
// `select private.decide_notifications(now())`, which writes every notice then due, once each. A run
// never overlaps the previous one here (the function is safe if two do, e.g. with a second
// platform on the same database); a failure is logged and the next tick tries again, never crashing
// the platform. After each run it calls the function's delivery worker (POST
// /api/notifications/deliver with the service role key), as pg_net does on hosted Supabase
// (deploy/schedule.sql, which supabase/tests/deploy-schedule.test.ts holds to this file), which
// sends the queued emails.

/**
 * @param {{ sql: import('postgres').Sql, everySeconds: number, log?: (msg: string) => void,
 *   deliver?: () => Promise<unknown> }} options
 *   deliver: sends the queued emails (deliverThrough); absent: the scheduler only decides.
 * @returns {{ runOnce: () => Promise<number | null>, deliverOnce: () => Promise<unknown>, stop: () => Promise<void> }}
 */
export function startNotificationScheduler({ sql, everySeconds, log = (msg) => console.log(msg), deliver = null }) {
  let running = null;
  let delivering = null;
  let stopped = false;
  let lastDeliveryFailure = '';

  async function runOnce() {
    if (running) return running;
    running = (async () => {
      try {
        const [row] = await sql`select private.decide_notifications(now()) as written`;
        const written = Number(row.written);
        if (written > 0) log(`notifications: ${written} written`);
        return written;
      } catch (error) {
        log(`notifications: the scheduled run failed (${error.code ?? ''} ${error.message}); trying again in ${everySeconds} s`);
        return null;
      } finally {
        running = null;
      }
    })();
    return running;
  }

  /** Sends what is queued; null when the worker failed (logged once per distinct failure). */
  async function deliverOnce() {
    if (!deliver) return null;
    if (delivering) return delivering;
    delivering = (async () => {
      try {
        const result = await deliver();
        lastDeliveryFailure = '';
        if (result && (result.sent > 0 || result.failed > 0)) log(`notifications: ${result.sent} emails sent, ${result.failed} failed`);
        return result;
      } catch (error) {
        if (error.message !== lastDeliveryFailure) log(`notifications: delivery failed (${error.message}); trying again in ${everySeconds} s`);
        lastDeliveryFailure = error.message;
        return null;
      } finally {
        delivering = null;
      }
    })();
    return delivering;
  }

  const tick = async () => {
    await runOnce();
    if (!stopped) await deliverOnce();
  };
  const timer = everySeconds > 0 ? setInterval(() => { if (!stopped) void tick(); }, everySeconds * 1000) : null;
  timer?.unref?.();

  return {
    runOnce,
    deliverOnce,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (running) await running;
      if (delivering) await delivering;
    },
  };
}

/** Emails one scheduled call sends at most (the hosted schedule's body in deploy/schedule.sql). */
export const DELIVER_MAX = 2000;

/** How long one scheduled call may take (the hosted schedule's pg_net timeout). */
export const DELIVER_TIMEOUT_MS = 280_000;

/**
 * The call pg_cron makes through pg_net on hosted Supabase: POST the function's deliver endpoint
 * with the service role key. Resolves to its answer ({ claimed, sent, failed }); rejects on any
 * other status.
 * @param {{ url: string, serviceRoleKey: string, max?: number }} options url: .../functions/v1/api/notifications/deliver; max: DELIVER_MAX
 */
export async function deliverThrough({ url, serviceRoleKey, max = DELIVER_MAX }) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(max ? { max } : {}),
    signal: AbortSignal.timeout(DELIVER_TIMEOUT_MS),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`HTTP ${response.status}${body?.message ? `: ${body.message}` : ''}`);
  return body;
}

/**
 * How often the platform decides notifications, in seconds (0: never). NOTIFICATIONS_EVERY_SECONDS
 * when set; else every 60 s, except on a platform started on free ports (PORT=0, the test runs),
 * where it stays off unless asked, so tests decide when notices are written.
 * @param {Record<string, string | undefined>} env
 */
export function schedulerSeconds(env) {
  const value = env.NOTIFICATIONS_EVERY_SECONDS;
  if (value !== undefined && value !== '') {
    const seconds = Number(value);
    if (!Number.isFinite(seconds) || seconds < 0) throw new Error(`NOTIFICATIONS_EVERY_SECONDS must be a number of seconds (0: off), not ${value}`);
    return seconds;
  }
  return env.PORT === '0' ? 0 : 60;
}
