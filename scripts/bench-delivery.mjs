// Delivery's throughput (at least 50 emails a second to the local catcher): queues N
// notification emails, calls the function's deliver endpoint with the service role key as the
// schedule does, until every one of them is sent, and counts them arriving in the mail catcher.
// The figure is N over the time from the first call to the last message in the catcher.
//
//   import { benchDelivery } from './bench-delivery.mjs';
//   await benchDelivery({ url, serviceRoleKey, dbUrl, mailUrl, emails: 500 });
//   node scripts/bench-delivery.mjs [emails]   (starts its own platform, as the tests do)
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import postgres from 'postgres';

/** The issue's floor: emails a second delivered to the local catcher. */
export const DELIVERY_BUDGET_PER_SECOND = 50;

/**
 * @param {{ url: string, serviceRoleKey: string, dbUrl: string, mailUrl: string, emails?: number,
 *   timeoutMs?: number, log?: (msg: string) => void }} platform url: the platform's (gateway's) address
 * @returns {Promise<{ emails: number, seconds: number, perSecond: number, calls: number, failed: number, budget: number }>}
 */
export async function benchDelivery({ url, serviceRoleKey, dbUrl, mailUrl, emails = 500, timeoutMs = 120_000, log = () => {} }) {
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  let ids = [];
  try {
    // Spread over the active people with an address (distinct occasions keep each notice unique).
    const people = await sql`
      select id from public.profiles where deactivated_at is null and btrim(email) <> '' order by id limit 50`;
    if (people.length === 0) throw new Error('no active person with an email address to write to');
    const rows = await sql`
      insert into public.notifications (recipient_id, kind, person_id, occasion, title, body, link_path)
      select p.id, 'training-overdue', p.id, date '2000-01-01' - g, ${`Bench delivery ${stamp}`}, 'It was due on 1 January 2000.', '/certificates'
      from generate_series(1, ${emails}) g
      join lateral (select (${people.map((p) => p.id)}::uuid[])[1 + g % ${people.length}] as id) p on true
      returning id`;
    ids = rows.map((r) => r.id);
    const wanted = new Set(ids.map((id) => `notification.${id}.0@`));
    const ours = (messageId) => wanted.has(messageId.slice(0, messageId.indexOf('@') + 1));

    const started = performance.now();
    const deadline = Date.now() + timeoutMs;
    let calls = 0;
    let failed = 0;
    for (;;) {
      const [{ left }] = await sql`
        select count(*)::int as left from public.notifications where id = any(${ids}::uuid[]) and email_status = 'queued'`;
      if (left === 0) break;
      if (Date.now() > deadline) throw new Error(`${left} of ${emails} emails still queued after ${timeoutMs} ms`);
      const response = await fetch(`${url}/functions/v1/api/notifications/deliver`, {
        method: 'POST',
        headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ max: 5000 }),
      });
      const result = await response.json().catch(() => null);
      if (!response.ok) throw new Error(`deliver answered ${response.status}: ${JSON.stringify(result)}`);
      calls += 1;
      failed += result.failed;
      if (result.claimed === 0) await new Promise((r) => setTimeout(r, 200)); // others' leases
    }
    let arrived = 0;
    for (;;) {
      const listed = await (await fetch(`${mailUrl}/api/v1/messages`)).json();
      arrived = listed.messages.filter((m) => ours(m.MessageID)).length;
      if (arrived >= emails) break;
      if (Date.now() > deadline) throw new Error(`${arrived} of ${emails} emails reached the catcher within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const perSecond = Math.round(emails / seconds);
    log(`delivery: ${emails} emails in ${seconds.toFixed(2)} s (${perSecond}/s, ${calls} calls, ${failed} failed attempts); floor ${DELIVERY_BUDGET_PER_SECOND}/s`);
    return { emails, seconds: Number(seconds.toFixed(3)), perSecond, calls, failed, budget: DELIVERY_BUDGET_PER_SECOND };
  } finally {
    if (ids.length > 0) await sql`delete from public.notifications where id = any(${ids}::uuid[])`;
    await sql.end({ timeout: 5 });
  }
}

// Run alone: its own platform on free ports, without the web app.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { startPlatformProcess } = await import('./platform-process.mjs');
  const emails = Number(process.argv[2] ?? 500);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-delivery-'));
  const platform = await startPlatformProcess({ dataDir });
  try {
    const result = await benchDelivery({ ...platform, emails, log: (msg) => console.log(msg) });
    console.log(JSON.stringify(result));
    if (result.perSecond < DELIVERY_BUDGET_PER_SECOND) process.exitCode = 1;
  } finally {
    await platform.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
