// The local mail catcher: where the platform's Auth "sends" its emails, as `supabase start` runs
// Mailpit on port 54324. Messages are kept in memory (newest first) and read through the subset of
// Mailpit's HTTP API that a person's browser or a test needs:
//   GET    /api/v1/messages          -> { total, messages: [{ ID, To: [{ Address }], Subject, Snippet, Created }] }
//   GET    /api/v1/message/:id       -> { ID, To, Subject, Text, Created }
//   DELETE /api/v1/messages          -> removes them all
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const MAX_MESSAGES = 1000;

/**
 * @typedef {{ ID: string, To: { Address: string }[], Subject: string, Text: string, Created: string }} Message
 * @typedef {{ send(message: { to: string, subject: string, text: string }): void, messages: Message[] }} Mailbox
 */

/** @returns {Mailbox} */
export function createMailbox() {
  /** @type {Message[]} */
  const messages = [];
  return {
    messages,
    send({ to, subject, text }) {
      messages.unshift({ ID: randomUUID(), To: [{ Address: to }], Subject: subject, Text: text, Created: new Date().toISOString() });
      messages.length = Math.min(messages.length, MAX_MESSAGES);
    },
  };
}

/**
 * Serves a mailbox over HTTP on host:port (0 for any free port).
 * @param {{ mailbox: Mailbox, host?: string, port?: number }} options
 * @returns {Promise<{ url: string, stop(): Promise<void> }>}
 */
export async function startMailServer({ mailbox, host = '127.0.0.1', port = 54324 }) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mail.local');
    const send = (/** @type {number} */ status, /** @type {unknown} */ body) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/v1/messages' && req.method === 'GET') {
      return send(200, {
        total: mailbox.messages.length,
        messages: mailbox.messages.map(({ Text, ...rest }) => ({ ...rest, Snippet: Text.slice(0, 200) })),
      });
    }
    if (url.pathname === '/api/v1/messages' && req.method === 'DELETE') {
      mailbox.messages.length = 0;
      return send(200, {});
    }
    const match = /^\/api\/v1\/message\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (match && req.method === 'GET') {
      const message = mailbox.messages.find((m) => m.ID === match[1]);
      return message ? send(200, message) : send(404, { message: 'Not found' });
    }
    send(404, { message: 'Not found' });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://${host}:${address.port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
