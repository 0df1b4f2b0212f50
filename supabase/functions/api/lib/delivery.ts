// The delivery worker: claims due notification emails in batches
// (private.claim_notification_emails: skip locked, with a lease), sends each over SMTP with
// nodemailer and records each result at once (private.record_notification_email, fenced by the
// attempt it claimed). Called by POST /api/notifications/deliver, which the schedule calls with the
// service role key (pg_cron + pg_net on hosted Supabase, platform/scheduler.mjs locally;
// docs/ARCHITECTURE.md, "Notification emails").
//
// Exactly once: two workers never claim the same row; a worker killed half-way leaves its claims to
// be taken again when the lease ends (longer than any send can take: every SMTP wait has a timeout
// well under it); a result is recorded right after each send, and the Message-ID is the
// notification's own, so a copy sent twice (killed between the send and the record) is one message
// to the recipient's mail client.
import nodemailer from 'nodemailer';
import type { Config } from './config.ts';
import type { Db } from './db.ts';
import { renderNotificationEmail } from './emails.ts';
import { siteHost } from './calendar.ts';
import { type Language, toLanguage } from '../../_shared/language.ts';

/** The SMTP server and the web app's address: the function's secrets (SMTP_*, SITE_URL). */
export interface MailConfig {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  /** The sender's address (the name shown is the site's name from the settings). */
  from: string;
  /** The web app's address, without a trailing slash. */
  siteUrl: string;
}

/** The address of SMTP_FROM, which may be `address` or `Name <address>`. */
export function senderAddress(value: string): string {
  return /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value)?.[1] ?? value.trim();
}

/** The mail settings from the environment, or null when SMTP_HOST is not set (email off). */
export function mailConfigFromEnv(env: (name: string) => string | undefined = (name) => Deno.env.get(name)): MailConfig | null {
  const host = env('SMTP_HOST');
  if (!host) return null;
  const port = Number(env('SMTP_PORT') || 587);
  const secure = /^(1|true|yes|on)$/i.test(env('SMTP_SECURE') ?? '');
  return {
    host,
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 587,
    secure,
    user: env('SMTP_USER') || undefined,
    pass: env('SMTP_PASS') || undefined,
    from: senderAddress(env('SMTP_FROM') || 'noreply@example.uk'),
    siteUrl: (env('SITE_URL') || 'http://127.0.0.1:5173').replace(/\/+$/, ''),
  };
}

/** How long a claim is the worker's: far longer than a send may take (the timeouts below). */
export const LEASE_SECONDS = 300;
/** Emails claimed per statement. */
export const BATCH_SIZE = 50;
/** Sends in flight at once over the pooled connections. */
const PARALLEL_SENDS = 8;
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

interface ClaimedRow {
  id: string;
  attempt: number;
  resends: number;
  kind: string;
  title: string;
  body: string;
  linkPath: string | null;
  data: Record<string, unknown> | null;
  recipientId: string;
  recipientEmail: string;
  recipientName: string;
  createdAt: Date;
}

export interface DeliveryResult {
  claimed: number;
  sent: number;
  failed: number;
}

export interface DeliverOptions {
  /** The most emails this run sends (it stops earlier when none is due). */
  max?: number;
  /** The time the run takes as now (tests move it); the database's clock otherwise. */
  now?: Date;
}

type Transport = ReturnType<typeof nodemailer.createTransport>;
const transports = new Map<string, Transport>();

/** One pooled transport per SMTP server, kept for the life of the function instance. */
function transportFor(mail: MailConfig): Transport {
  const key = JSON.stringify([mail.host, mail.port, mail.secure, mail.user ?? '', mail.pass ?? '']);
  let transport = transports.get(key);
  if (!transport) {
    transport = nodemailer.createTransport({
      host: mail.host,
      port: mail.port,
      secure: mail.secure,
      // A server without TLS (the local catcher) is used as it is; one offering STARTTLS gets it.
      ignoreTLS: !mail.secure && /^(127\.0\.0\.1|localhost|::1)$/.test(mail.host),
      auth: mail.user ? { user: mail.user, pass: mail.pass ?? '' } : undefined,
      pool: true,
      maxConnections: 4,
      maxMessages: 1000,
      ...SMTP_TIMEOUTS,
    });
    transports.set(key, transport);
  }
  return transport;
}

/** Closes the pooled connections (tests, and before the instance ends). */
export function closeTransports() {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}

/** What is recorded of a failure: its code and message, never a stack. */
function failureText(error: unknown): string {
  const e = error as { code?: unknown; responseCode?: unknown; message?: unknown };
  const parts = [typeof e?.code === 'string' ? e.code : '', typeof e?.responseCode === 'number' ? String(e.responseCode) : '',
    typeof e?.message === 'string' ? e.message : String(error)];
  return parts.filter(Boolean).join(' ').replace(/\s+/g, ' ').slice(0, 500);
}

/** A fresh set-password link for an account-welcome email, from Auth's admin API (service role). */
async function setPasswordLink(config: Config, mail: MailConfig, email: string): Promise<string> {
  const response = await fetch(`${config.supabaseUrl}/auth/v1/admin/generate_link`, {
    method: 'POST',
    headers: {
      apikey: config.serviceRoleKey,
      authorization: `Bearer ${config.serviceRoleKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ type: 'recovery', email, redirect_to: `${mail.siteUrl}/auth/reset` }),
    signal: AbortSignal.timeout(SMTP_TIMEOUTS.socketTimeout),
  });
  const answer = await response.json().catch(() => null) as { action_link?: unknown; properties?: { action_link?: unknown } } | null;
  const link = answer?.action_link ?? answer?.properties?.action_link;
  if (!response.ok || typeof link !== 'string' || !/^https?:\/\//.test(link)) {
    throw new Error(`Auth did not make a set-password link (HTTP ${response.status})`);
  }
  return link;
}

/** The Message-ID of a notification's email: the same for every attempt, new for each resend. */
export function messageIdFor(id: string, resends: number, siteUrl: string): string {
  return `<notification.${id}.${resends}@${siteHost(siteUrl)}>`;
}

/** Runs fn over items, at most `parallel` at once. */
async function inParallel<T>(items: T[], parallel: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(parallel, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(lanes);
}

/** Claims, sends and records due emails until none is due or `max` have been claimed. */
export async function deliverNotifications(db: Db, config: Config, mail: MailConfig, options: DeliverOptions = {}): Promise<DeliveryResult> {
  const max = options.max ?? 500;
  const now = () => options.now ?? null;
  const result: DeliveryResult = { claimed: 0, sent: 0, failed: 0 };
  const transport = transportFor(mail);
  while (result.claimed < max) {
    const { rows, siteName, languages } = await db.withServiceRole(async (tx) => {
      const rows = await tx<ClaimedRow[]>`
        select id, attempt, resends, kind, title, body, data, link_path, recipient_id, recipient_email, recipient_name, created_at
        from private.claim_notification_emails(coalesce(${now()}::timestamptz, now()),
          ${Math.min(BATCH_SIZE, max - result.claimed)}, ${LEASE_SECONDS})`;
      const [settings] = rows.length > 0 ? await tx<{ siteName: string }[]>`select site_name from public.settings where id` : [];
      // Each recipient's language (profiles.language): their email is written in it.
      const recipients = [...new Set(rows.map((row) => row.recipientId))];
      const languages = new Map<string, Language>(
        recipients.length === 0 ? [] : (await tx<{ id: string; language: string }[]>`
          select id, language from public.profiles where id = any(${recipients}::uuid[])`).map((p) => [p.id, toLanguage(p.language)]),
      );
      return { rows, siteName: settings?.siteName ?? 'Emergency Services Learning', languages };
    });
    if (rows.length === 0) break;
    result.claimed += rows.length;
    await inParallel(rows, PARALLEL_SENDS, async (row) => {
      let error: string | null = null;
      try {
        const actionLink = row.kind === 'account-welcome' ? await setPasswordLink(config, mail, row.recipientEmail) : undefined;
        const email = renderNotificationEmail(
          {
            kind: row.kind, title: row.title, body: row.body, linkPath: row.linkPath, recipientName: row.recipientName, data: row.data ?? {},
            language: languages.get(row.recipientId), recipientEmail: row.recipientEmail, createdAt: row.createdAt,
          },
          { siteName, siteUrl: mail.siteUrl, actionLink, senderAddress: mail.from },
        );
        await transport.sendMail({
          from: { name: siteName, address: mail.from },
          to: { name: row.recipientName, address: row.recipientEmail },
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: messageIdFor(row.id, row.resends, mail.siteUrl),
          headers: { 'Auto-Submitted': 'auto-generated' },
          // A session's invitation as Outlook sends one: a text/calendar;method=... alternative and
          // the same file attached as invite.ics.
          ...(email.calendar ? { icalEvent: { method: email.calendar.method, filename: 'invite.ics', content: email.calendar.content } } : {}),
        });
      } catch (failure) {
        error = failureText(failure);
      }
      await db.withServiceRole((tx) => tx`
        select private.record_notification_email(${row.id}::uuid, ${row.attempt}::int, ${error}::text,
          coalesce(${now()}::timestamptz, now()))`);
      if (error === null) result.sent += 1;
      else result.failed += 1;
    });
  }
  return result;
}
