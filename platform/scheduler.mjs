// The local stand-in for the hosted schedule of issue 19 (pg_cron there): every so often it runs
// `select private.decide_notifications(now())`, which writes every notice then due, once each. A run
// never overlaps the previous one here (the function is safe if two do, e.g. with a second
// platform on the same database); a failure is logged and the next tick tries again, never crashing
// the platform. Email delivery is not built yet: the notices it writes wait as 'queued'.

/**
 * @param {{ sql: import('postgres').Sql, everySeconds: number, log?: (msg: string) => void }} options
 * @returns {{ runOnce: () => Promise<number | null>, stop: () => Promise<void> }}
 */
export function startNotificationScheduler({ sql, everySeconds, log = (msg) => console.log(msg) }) {
  let running = null;
  let stopped = false;

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

  const timer = everySeconds > 0 ? setInterval(() => { if (!stopped) void runOnce(); }, everySeconds * 1000) : null;
  timer?.unref?.();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (running) await running;
    },
  };
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
