// Sending email over SMTP (nodemailer): Auth's emails go to the configured server, locally the mail
// catcher (platform/mail.mjs), as GoTrue sends through `[auth.email.smtp]` on hosted Supabase.
import nodemailer from 'nodemailer';

/** The sender when SMTP_FROM is not set. */
export const DEFAULT_FROM = 'Emergency Services Learning <noreply@emergency-services-learning.uk>';

/**
 * @typedef {{ to: string, subject: string, text: string, html?: string }} Email
 * @typedef {{ from: string, send(email: Email): Promise<{ messageId: string }>, close(): void }} Mailer
 */

/**
 * @param {{ host: string, port: number, from?: string, secure?: boolean, user?: string, pass?: string, timeoutMs?: number }} options
 *   secure: TLS from the start (port 465); otherwise STARTTLS is used when the server offers it
 * @returns {Mailer}
 */
export function createMailer({ host, port, from = DEFAULT_FROM, secure = false, user, pass, timeoutMs = 10_000 }) {
  const transport = nodemailer.createTransport({
    host,
    port,
    secure,
    auth: user ? { user, pass } : undefined,
    // A server that is down or silent fails the send within seconds instead of holding a request.
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs * 2,
  });
  return {
    from,
    async send({ to, subject, text, html }) {
      const info = await transport.sendMail({ from, to, subject, text, ...(html ? { html } : {}) });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/**
 * The SMTP settings from an environment (SMTP_HOST, SMTP_PORT, SMTP_FROM, SMTP_USER, SMTP_PASS,
 * SMTP_SECURE), or null when SMTP_HOST or SMTP_PORT is not set.
 * @param {Record<string, string | undefined>} env
 */
export function smtpFromEnv(env) {
  if (!env.SMTP_HOST || !env.SMTP_PORT) return null;
  const port = Number(env.SMTP_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`SMTP_PORT must be a port number, not ${env.SMTP_PORT}`);
  return {
    host: env.SMTP_HOST,
    port,
    from: env.SMTP_FROM || DEFAULT_FROM,
    secure: /^(1|true|yes|on)$/i.test(env.SMTP_SECURE ?? ''),
    user: env.SMTP_USER || undefined,
    pass: env.SMTP_PASS || undefined,
  };
}
