// The local mail catcher, as `supabase start` runs Mailpit: an SMTP server (127.0.0.1:54325) that
// accepts every message without authentication, keeps them in memory (newest first, capped), and an
// HTTP server (127.0.0.1:54324) with a page to read them and the subset of Mailpit's JSON API that
// tests use:
//   GET    /api/v1/messages          -> { total, messages: [{ ID, MessageID, From, To, Cc, Subject, Snippet, Size, Created }] }
//   GET    /api/v1/message/:id       -> { ID, MessageID, From, To, Cc, Bcc, Subject, Text, HTML, Headers, Attachments, Size, Created }
//          Attachments: every part that is neither the text nor the HTML (a calendar invitation's
//          text/calendar alternative and its invite.ics), as [{ PartID, FileName, ContentType, ContentID, Size }]
//   GET    /api/v1/message/:id/part/:partId -> that part's bytes (as a download, never rendered)
//   GET    /api/v1/message/:id/raw   -> the message's source as it came in over SMTP (text/plain)
//   DELETE /api/v1/messages          -> removes them all
//   GET    /                         -> the list page; /view/:id one message; /view/:id/html its HTML part (sandboxed)
// Messages are untrusted input: every page escapes them, and the HTML part is only ever shown in a
// sandboxed frame under a CSP that allows no script, no request and no form (docs/ARCHITECTURE.md).
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

const MAX_MESSAGES = 1000;
/** The largest message the catcher accepts (bytes); Auth's and the function's emails are a few kB. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * @typedef {{ Name: string, Address: string }} Address
 * @typedef {{ PartID: string, FileName: string, ContentType: string, ContentID: string, Size: number }} Attachment
 * @typedef {{ ID: string, MessageID: string, From: Address | null, To: Address[], Cc: Address[], Bcc: Address[],
 *   Subject: string, Text: string, HTML: string, Headers: Record<string, string[]>, Attachments: Attachment[], Size: number,
 *   Created: string }} Message
 * @typedef {{ messages: Message[], add(message: Message): void, clear(): void }} Mailbox
 */

/** What the kept messages may weigh together; the oldest go first. */
const MAX_TOTAL_BYTES = 200 * 1024 * 1024;

/** @returns {Mailbox} */
export function createMailbox({ max = MAX_MESSAGES, maxTotalBytes = MAX_TOTAL_BYTES } = {}) {
  /** @type {Message[]} */
  const messages = [];
  return {
    messages,
    add(message) {
      messages.unshift(message);
      messages.length = Math.min(messages.length, max);
      let total = messages.reduce((sum, m) => sum + (m.Size ?? 0), 0);
      while (messages.length > 1 && total > maxTotalBytes) total -= messages.pop()?.Size ?? 0;
    },
    clear() {
      messages.length = 0;
    },
  };
}

/**
 * What the JSON leaves out: the source and each attachment's bytes (by PartID), kept only as long as
 * the mailbox keeps the message.
 * @type {WeakMap<Message, { raw: Buffer, parts: Map<string, Buffer> }>}
 */
const contents = new WeakMap();

/** The source of a message as it came in, and its parts' bytes. @param {Message} message */
export function messageContents(message) {
  return contents.get(message) ?? { raw: Buffer.alloc(0), parts: new Map() };
}

/** @param {any} field a mailparser address object (or a list of them) @returns {Address[]} */
function addresses(field) {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  /** @type {Address[]} */
  const out = [];
  const walk = (/** @type {any[]} */ items) => {
    for (const item of items) {
      if (item.group) walk(item.group);
      else if (item.address) out.push({ Name: item.name ?? '', Address: item.address });
    }
  };
  for (const entry of list) walk(entry.value ?? []);
  return out;
}

/**
 * A parsed SMTP message in the catcher's (Mailpit's) shape.
 * @param {Buffer} raw @param {{ mailFrom: string, rcptTo: string[] }} envelope
 * @returns {Promise<Message>}
 */
export async function parseMessage(raw, envelope) {
  const parsed = await simpleParser(raw, { skipImageLinks: true });
  /** @type {Record<string, string[]>} */
  const headers = {};
  for (const { line } of parsed.headerLines ?? []) {
    const colon = line.indexOf(':');
    if (colon < 1) continue;
    const name = line.slice(0, colon).trim();
    (headers[name] ??= []).push(line.slice(colon + 1).replace(/\r?\n[ \t]+/g, ' ').trim());
  }
  const to = addresses(parsed.to);
  const cc = addresses(parsed.cc);
  const shown = new Set([...to, ...cc].map((a) => a.Address.toLowerCase()));
  const from = addresses(parsed.from)[0] ?? (envelope.mailFrom ? { Name: '', Address: envelope.mailFrom } : null);
  /** @type {Map<string, Buffer>} */
  const parts = new Map();
  const attachments = (parsed.attachments ?? []).map((attachment, index) => {
    const PartID = String(index + 1);
    parts.set(PartID, attachment.content);
    return {
      PartID,
      FileName: attachment.filename ?? '',
      ContentType: attachment.contentType ?? 'application/octet-stream',
      ContentID: (attachment.cid ?? '').replace(/^<|>$/g, ''),
      Size: attachment.size ?? attachment.content.length,
    };
  });
  /** @type {Message} */
  const message = {
    ID: randomUUID(),
    MessageID: (parsed.messageId ?? '').replace(/^<|>$/g, ''),
    From: from,
    // No To header (a Bcc-only message): the envelope's recipients, as Mailpit shows them.
    To: to.length ? to : envelope.rcptTo.map((Address) => ({ Name: '', Address })),
    Cc: cc,
    Bcc: to.length ? envelope.rcptTo.filter((a) => !shown.has(a.toLowerCase())).map((Address) => ({ Name: '', Address })) : [],
    Subject: parsed.subject ?? '',
    Text: parsed.text ?? '',
    HTML: typeof parsed.html === 'string' ? parsed.html : '',
    Headers: headers,
    Attachments: attachments,
    Size: raw.length,
    Created: new Date().toISOString(),
  };
  contents.set(message, { raw, parts });
  return message;
}

/**
 * The SMTP side: accepts any message (no AUTH, no STARTTLS: it listens on 127.0.0.1 only) up to
 * maxBytes and adds it to the mailbox.
 * @param {{ mailbox: Mailbox, host?: string, port?: number, maxBytes?: number, log?: (msg: string) => void }} options
 * @returns {Promise<{ host: string, port: number, url: string, stop(): Promise<void> }>}
 */
export async function startSmtpCatcher({ mailbox, host = '127.0.0.1', port = 54325, maxBytes = MAX_MESSAGE_BYTES, log = () => {} }) {
  const server = new SMTPServer({
    name: 'mail-catcher.local',
    banner: 'Emergency Services Learning local mail catcher',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: maxBytes,
    rejectOversized: true,
    logger: false,
    socketTimeout: 30_000,
    onData(stream, session, callback) {
      /** @type {Buffer[]} */
      const chunks = [];
      // Past the limit the rest is read and dropped (rejectOversized answers 552).
      stream.on('data', (chunk) => {
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(null);
        const envelope = {
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
        };
        parseMessage(Buffer.concat(chunks), envelope).then(
          (message) => {
            mailbox.add(message);
            callback(null, `Queued as ${message.ID}`);
          },
          (error) => {
            log(`mail catcher: could not parse a message: ${error.message}`);
            callback(Object.assign(new Error('Message could not be parsed'), { responseCode: 554 }));
          },
        );
      });
    },
  });
  server.on('error', (error) => log(`mail catcher (SMTP): ${error.message}`));
  await new Promise((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.removeListener('error', reject);
      resolve(undefined);
    });
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.server.address());
  return {
    host,
    port: address.port,
    url: `smtp://${host}:${address.port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

// ---------------------------------------------------------------- the pages

/** @param {unknown} value */
export function escapeHtml(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const londonFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
});

/** `26 November 2026, 17:05` in Europe/London. @param {string} iso */
export function londonDateTime(iso) {
  const parts = Object.fromEntries(londonFormat.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute}`;
}

/** @param {Address | null} a */
const formatAddress = (a) => (a ? (a.Name ? `${a.Name} <${a.Address}>` : a.Address) : '');
/** @param {Address[]} list */
const formatAddresses = (list) => list.map(formatAddress).join(', ');

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
/** The HTML part: nothing but inline styles and data: images, and a sandbox even when opened directly. */
export const MESSAGE_HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox; frame-ancestors 'self'";

const STYLE = `
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #1b1f24; background: #ffffff; }
  header { background: #102a43; color: #ffffff; padding: 0.75rem 1.25rem; }
  header p { margin: 0; font-weight: 600; }
  main { padding: 1.25rem; max-width: 72rem; }
  h1 { font-size: 1.6rem; margin: 0 0 0.5rem; overflow-wrap: anywhere; }
  h2 { font-size: 1.25rem; margin: 1.5rem 0 0.5rem; }
  a { color: #0b57d0; }
  a:hover { color: #083e94; }
  :focus-visible { outline: 3px solid #b35900; outline-offset: 2px; }
  .skip { position: absolute; left: -10000px; }
  .skip:focus { left: 1rem; top: 0.5rem; background: #ffffff; color: #0b57d0; padding: 0.25rem 0.5rem; }
  table { border-collapse: collapse; width: 100%; }
  caption { text-align: left; font-weight: 600; padding: 0.5rem 0; }
  th, td { text-align: left; vertical-align: top; padding: 0.5rem; border-bottom: 1px solid #c4cdd5; overflow-wrap: anywhere; }
  thead th { border-bottom: 2px solid #52606d; }
  th[scope="row"] { overflow-wrap: normal; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .parts { display: flex; gap: 1rem; list-style: none; padding: 0; margin: 0 0 0.75rem; }
  .parts a[aria-current] { font-weight: 700; color: #1b1f24; text-decoration-thickness: 3px; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f6f8; border: 1px solid #c4cdd5; padding: 0.75rem; margin: 0; }
  iframe { width: 100%; height: 32rem; border: 1px solid #52606d; resize: vertical; background: #ffffff; }
  .muted { color: #52606d; }
  .messages td:last-child { white-space: nowrap; }
  @media (max-width: 40rem) {
    /* The list becomes one card a message; each cell names its column. */
    .messages thead { position: absolute; left: -10000px; }
    .messages, .messages caption, .messages tbody, .messages tr, .messages td { display: block; width: 100%; }
    .messages tr { border-bottom: 2px solid #52606d; padding: 0.5rem 0; }
    .messages td { border: 0; padding: 0.125rem 0; white-space: normal; }
    .messages td::before { content: attr(data-label) ": "; font-weight: 600; }
    dl { grid-template-columns: 1fr; }
    dd { margin-bottom: 0.25rem; }
  }
`;

/** @param {string} title @param {string} body */
function page(title, body) {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to main content</a>
<header><p>Emergency Services Learning · local mail catcher</p></header>
<main id="main">
${body}
</main>
</body>
</html>
`;
}

/** @param {Message[]} messages @param {{ smtp?: string }} info */
export function listPage(messages, info = {}) {
  const rows = messages
    .map(
      (m) => `<tr>
<td data-label="Subject"><a href="/view/${escapeHtml(m.ID)}">${escapeHtml(m.Subject || '(no subject)')}</a></td>
<td data-label="From">${escapeHtml(formatAddress(m.From))}</td>
<td data-label="To">${escapeHtml(formatAddresses(m.To))}</td>
<td data-label="Received"><time datetime="${escapeHtml(m.Created)}">${escapeHtml(londonDateTime(m.Created))}</time></td>
</tr>`,
    )
    .join('\n');
  const count = `${messages.length} ${messages.length === 1 ? 'message' : 'messages'}`;
  return page(
    `Mail catcher: ${count}`,
    `<h1>Mail catcher</h1>
<p>Every email the local platform sends${info.smtp ? ` (SMTP on ${escapeHtml(info.smtp)})` : ''} is kept here, in memory, until the platform stops. <a href="/">Refresh</a></p>
${
  messages.length
    ? `<table class="messages">
<caption>${escapeHtml(count)}, newest first (times in UK time)</caption>
<thead><tr><th scope="col">Subject</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Received</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : '<p>No messages yet.</p>'
}`,
  );
}

/** @param {Message} m @param {'html' | 'text'} part */
export function messagePage(m, part) {
  const subject = m.Subject || '(no subject)';
  const details = [
    ['From', formatAddress(m.From)],
    ['To', formatAddresses(m.To)],
    ...(m.Cc.length ? [['Cc', formatAddresses(m.Cc)]] : []),
    ...(m.Bcc.length ? [['Bcc', formatAddresses(m.Bcc)]] : []),
    ['Received', londonDateTime(m.Created)],
    ['Message-ID', m.MessageID],
  ]
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('\n');
  const base = `/view/${escapeHtml(m.ID)}`;
  const link = (/** @type {'html' | 'text'} */ which, /** @type {string} */ label) =>
    `<li><a href="${base}?part=${which}"${which === part ? ' aria-current="page"' : ''}>${label}</a></li>`;
  const shown =
    part === 'html'
      ? m.HTML
        ? `<iframe title="HTML part of the message" sandbox="" src="${base}/html"></iframe>`
        : '<p>This message has no HTML part.</p>'
      : m.Text
        ? `<pre>${escapeHtml(m.Text)}</pre>`
        : '<p>This message has no text part.</p>';
  const attachmentRows = m.Attachments.map(
    (a) => `<li><a href="/api/v1/message/${escapeHtml(m.ID)}/part/${escapeHtml(a.PartID)}">${escapeHtml(a.FileName || `Part ${a.PartID}`)}</a> <span class="muted">(${escapeHtml(a.ContentType)}, ${escapeHtml(a.Size)} bytes)</span></li>`,
  ).join('\n');
  const headerRows = Object.entries(m.Headers)
    .flatMap(([name, values]) => values.map((value) => `<tr><th scope="row">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`))
    .join('\n');
  return page(
    `${subject}: mail catcher`,
    `<p><a href="/">All messages</a></p>
<h1>${escapeHtml(subject)}</h1>
<dl>
${details}
</dl>
<h2>${part === 'html' ? 'HTML part' : 'Text part'}</h2>
<nav aria-label="Message parts"><ul class="parts">${link('html', 'HTML')}${link('text', 'Text')}</ul></nav>
${shown}
${attachmentRows ? `<h2>Attachments</h2>\n<ul>\n${attachmentRows}\n</ul>\n` : ''}<h2>Headers</h2>
<table>
<caption>All headers of the message, in order</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead>
<tbody>
${headerRows}
</tbody>
</table>`,
  );
}

/**
 * Serves a mailbox over HTTP on host:port (0 for any free port).
 * @param {{ mailbox: Mailbox, host?: string, port?: number, smtp?: string }} options smtp: shown on the page
 * @returns {Promise<{ url: string, stop(): Promise<void> }>}
 */
export async function startMailServer({ mailbox, host = '127.0.0.1', port = 54324, smtp }) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mail.local');
    const security = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' };
    const send = (/** @type {number} */ status, /** @type {unknown} */ body) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...security });
      res.end(JSON.stringify(body));
    };
    const html = (/** @type {number} */ status, /** @type {string} */ body, csp = PAGE_CSP) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp, ...security });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const get = req.method === 'GET' || req.method === 'HEAD';
    const find = (/** @type {string} */ id) => mailbox.messages.find((m) => m.ID === id);
    if (url.pathname === '/api/v1/messages' && req.method === 'GET') {
      return send(200, {
        total: mailbox.messages.length,
        messages: mailbox.messages.map(({ Text, HTML, Headers: _headers, Bcc: _bcc, Attachments, ...rest }) => ({
          ...rest,
          // As Mailpit's list: how many, not which.
          Attachments: Attachments.length,
          Snippet: (Text || HTML.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim().slice(0, 200),
        })),
      });
    }
    if (url.pathname === '/api/v1/messages' && req.method === 'DELETE') {
      mailbox.clear();
      return send(200, {});
    }
    const match = /^\/api\/v1\/message\/([0-9a-f-]{36})(?:\/(raw)|\/part\/(\d{1,4}))?$/.exec(url.pathname);
    if (match && req.method === 'GET') {
      const message = find(match[1]);
      if (!message) return send(404, { message: 'Not found' });
      if (match[2]) {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', ...security });
        return res.end(messageContents(message).raw);
      }
      if (match[3]) {
        const bytes = messageContents(message).parts.get(match[3]);
        const part = message.Attachments.find((a) => a.PartID === match[3]);
        if (!bytes || !part) return send(404, { message: 'Not found' });
        // Untrusted bytes: a download under a sandbox, never a page of the catcher's origin.
        res.writeHead(200, {
          'content-type': /^[\w.+-]+\/[\w.+-]+$/.test(part.ContentType) ? part.ContentType : 'application/octet-stream',
          'content-disposition': `attachment; filename="${(part.FileName || `part-${part.PartID}`).replace(/[^\w.-]/g, '_')}"`,
          'content-security-policy': "default-src 'none'; sandbox",
          ...security,
        });
        return res.end(bytes);
      }
      return send(200, message);
    }
    if (url.pathname === '/' && get) return html(200, listPage(mailbox.messages, { smtp }));
    const view = /^\/view\/([0-9a-f-]{36})(\/html)?$/.exec(url.pathname);
    if (view && get) {
      const message = find(view[1]);
      if (!message) return html(404, page('Message not found: mail catcher', '<p><a href="/">All messages</a></p>\n<h1>Message not found</h1>\n<p>It may have been deleted, or the platform restarted.</p>'));
      if (view[2]) return html(200, message.HTML, MESSAGE_HTML_CSP);
      const part = url.searchParams.get('part') === 'text' || !message.HTML ? 'text' : 'html';
      return html(200, messagePage(message, part));
    }
    if (url.pathname.startsWith('/api/')) return send(404, { message: 'Not found' });
    html(404, page('Not found: mail catcher', '<p><a href="/">All messages</a></p>\n<h1>Page not found</h1>'));
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
