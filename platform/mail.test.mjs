// The local mail catcher (platform/mail.mjs): real SMTP in from nodemailer, the JSON API tests use,
// and the pages a person reads, which must stay inert whatever a message holds.
/* global document, getComputedStyle -- the pages' checks run in the browser (page.evaluate) */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailbox, londonDateTime, MESSAGE_HTML_CSP, startMailServer, startSmtpCatcher } from './mail.mjs';
import { createMailer, DEFAULT_FROM, smtpFromEnv } from './mailer.mjs';
import AxeBuilder from '@axe-core/playwright';
import { AXE_TAGS, contrastProblems, cspViolations, expectAccessible, launchBrowser, screenshot } from '../e2e/browser.ts';

const mailbox = createMailbox();
/** @type {Awaited<ReturnType<typeof startSmtpCatcher>>} */
let catcher;
/** @type {Awaited<ReturnType<typeof startMailServer>>} */
let http;
/** @type {import('./mailer.mjs').Mailer} */
let mailer;

const HOSTILE = '<script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">';

/** @returns {Promise<any>} */
const api = async (/** @type {string} */ path) => (await fetch(`${http.url}${path}`)).json();
/** The newest message with this subject, in full, from the JSON API. */
const bySubject = async (/** @type {string} */ subject) => {
  const list = await api('/api/v1/messages');
  const summary = list.messages.find((/** @type {any} */ m) => m.Subject === subject);
  expect(summary, `no message "${subject}"`).toBeTruthy();
  return api(`/api/v1/message/${summary.ID}`);
};

beforeAll(async () => {
  catcher = await startSmtpCatcher({ mailbox, port: 0, maxBytes: 64 * 1024 });
  http = await startMailServer({ mailbox, port: 0, smtp: `127.0.0.1:${catcher.port}` });
  mailer = createMailer({ host: '127.0.0.1', port: catcher.port });
});
afterAll(async () => {
  mailer?.close();
  await catcher?.stop();
  await http?.stop();
});

describe('mail catcher: SMTP in, JSON out', () => {
  it('keeps a message sent with nodemailer, with its text, HTML, sender, every recipient and headers', async () => {
    const { messageId } = await mailer.send({ to: 'Ada Learner <ada@example.uk>, ben@example.uk', subject: 'Due in 3 days', text: 'Fire safety is due on 29 November 2026.', html: '<p>Fire safety is due on <strong>29 November 2026</strong>.</p>' });
    const message = await bySubject('Due in 3 days');
    expect(message.Text.trim()).toBe('Fire safety is due on 29 November 2026.');
    expect(message.HTML).toBe('<p>Fire safety is due on <strong>29 November 2026</strong>.</p>');
    expect(message.From).toEqual({ Name: 'Emergency Services Learning', Address: 'noreply@emergency-services-learning.uk' });
    expect(message.To).toEqual([{ Name: 'Ada Learner', Address: 'ada@example.uk' }, { Name: '', Address: 'ben@example.uk' }]);
    expect(`<${message.MessageID}>`).toBe(messageId);
    expect(message.Headers.Subject).toEqual(['Due in 3 days']);
    expect(new Date(message.Created).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const list = await api('/api/v1/messages');
    const summary = list.messages.find((/** @type {any} */ m) => m.ID === message.ID);
    expect(summary).toMatchObject({ Subject: 'Due in 3 days', Snippet: 'Fire safety is due on 29 November 2026.', From: message.From, To: message.To });
    expect(summary.HTML).toBeUndefined();
  });

  it('shows Cc, and the envelope recipients no header names as Bcc', async () => {
    // nodemailer's own transport, to send a Bcc: the envelope names a recipient no header does.
    const nodemailer = (await import('nodemailer')).default;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.port });
    await transport.sendMail({ from: 'x@example.uk', to: 'a@example.uk', cc: 'c@example.uk', bcc: 'hidden@example.uk', subject: 'Copies 2', text: 'y' });
    transport.close();
    const message = await bySubject('Copies 2');
    expect(message.To.map((/** @type {any} */ a) => a.Address)).toEqual(['a@example.uk']);
    expect(message.Cc.map((/** @type {any} */ a) => a.Address)).toEqual(['c@example.uk']);
    expect(message.Bcc.map((/** @type {any} */ a) => a.Address)).toEqual(['hidden@example.uk']);
  });

  it('lists newest first, refuses a message over the size limit with 552, and DELETE empties it', async () => {
    await mailer.send({ to: 'a@example.uk', subject: 'First', text: '1' });
    await mailer.send({ to: 'a@example.uk', subject: 'Second', text: '2' });
    const subjects = (await api('/api/v1/messages')).messages.map((/** @type {any} */ m) => m.Subject);
    expect(subjects.indexOf('Second')).toBeLessThan(subjects.indexOf('First'));

    const before = mailbox.messages.length;
    const tooBig = await mailer.send({ to: 'a@example.uk', subject: 'Too big', text: 'x'.repeat(100 * 1024) }).catch((error) => error);
    expect(tooBig).toBeInstanceOf(Error);
    expect(tooBig.responseCode).toBe(552);
    expect(mailbox.messages.length).toBe(before);

    expect((await fetch(`${http.url}/api/v1/messages`, { method: 'DELETE' })).status).toBe(200);
    expect(await api('/api/v1/messages')).toEqual({ total: 0, messages: [] });
    expect((await fetch(`${http.url}/api/v1/message/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
  });

  it('keeps a calendar invitation: its parts listed, each part and the source readable, a part served as an inert download', async () => {
    const nodemailer = (await import('nodemailer')).default;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.port });
    const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Catcher//EN', 'METHOD:REQUEST', 'BEGIN:VEVENT', 'UID:booking-1@example.uk',
      'DTSTAMP:20261130T090000Z', 'DTSTART:20261203T093000Z', 'SUMMARY:<script>x</script>', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
    await transport.sendMail({ from: 'x@example.uk', to: 'a@example.uk', subject: 'Invited', text: 'See the invitation', icalEvent: { method: 'REQUEST', filename: 'invite.ics', content: ics } });
    transport.close();
    const message = await bySubject('Invited');
    expect(message.Text.trim()).toBe('See the invitation');
    const calendar = message.Attachments.find((/** @type {any} */ a) => a.ContentType === 'text/calendar');
    const file = message.Attachments.find((/** @type {any} */ a) => a.FileName === 'invite.ics');
    expect(calendar, JSON.stringify(message.Attachments)).toBeTruthy();
    expect(file).toMatchObject({ ContentType: 'application/ics', Size: ics.length });
    for (const part of [calendar, file]) {
      const response = await fetch(`${http.url}/api/v1/message/${message.ID}/part/${part.PartID}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(await response.text()).toBe(ics);
    }
    const list = await api('/api/v1/messages');
    expect(list.messages.find((/** @type {any} */ m) => m.ID === message.ID).Attachments).toBe(2);
    const raw = await fetch(`${http.url}/api/v1/message/${message.ID}/raw`);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await raw.text()).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);
    expect((await fetch(`${http.url}/api/v1/message/${message.ID}/part/9`)).status).toBe(404);
    const view = await (await fetch(`${http.url}/view/${message.ID}`)).text();
    expect(view).toContain(`<a href="/api/v1/message/${message.ID}/part/${file.PartID}">invite.ics</a>`);
  });

  it('keeps only the newest messages past its cap on count and on total size', () => {
    const small = createMailbox({ max: 2 });
    for (const n of [1, 2, 3]) small.add(/** @type {any} */ ({ ID: String(n) }));
    expect(small.messages.map((m) => m.ID)).toEqual(['3', '2']);
    const light = createMailbox({ maxTotalBytes: 250 });
    for (const n of [1, 2, 3]) light.add(/** @type {any} */ ({ ID: String(n), Size: 100 }));
    expect(light.messages.map((m) => m.ID)).toEqual(['3', '2']);
  });
});

describe('mailer settings from the environment', () => {
  it('uses another SMTP server only when both SMTP_HOST and SMTP_PORT are set, and refuses a bad port', () => {
    expect(smtpFromEnv({})).toBeNull();
    expect(smtpFromEnv({ SMTP_HOST: 'smtp.example.uk' })).toBeNull();
    expect(smtpFromEnv({ SMTP_HOST: 'smtp.example.uk', SMTP_PORT: '587' })).toEqual({ host: 'smtp.example.uk', port: 587, from: DEFAULT_FROM, secure: false, user: undefined, pass: undefined });
    expect(smtpFromEnv({ SMTP_HOST: 'smtp.example.uk', SMTP_PORT: '465', SMTP_SECURE: 'true', SMTP_USER: 'u', SMTP_PASS: 'p', SMTP_FROM: 'A <a@example.uk>' }))
      .toEqual({ host: 'smtp.example.uk', port: 465, from: 'A <a@example.uk>', secure: true, user: 'u', pass: 'p' });
    expect(() => smtpFromEnv({ SMTP_HOST: 'smtp.example.uk', SMTP_PORT: 'abc' })).toThrow(/SMTP_PORT/);
  });
});

describe('mail catcher: pages', () => {
  it('formats times in UK time as "26 November 2026, 17:05"', () => {
    expect(londonDateTime('2026-11-26T17:05:00Z')).toBe('26 November 2026, 17:05');
    expect(londonDateTime('2026-07-01T08:30:00Z')).toBe('1 July 2026, 09:30');
  });

  it('escapes a hostile subject, sender and body on the list and message pages, and sandboxes the HTML part', async () => {
    const nodemailer = (await import('nodemailer')).default;
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.port });
    await transport.sendMail({ from: `"${HOSTILE}" <evil@example.uk>`, to: 'a@example.uk', subject: `Hello ${HOSTILE}`, text: `Text ${HOSTILE}`, html: `<p>Hi</p>${HOSTILE}` });
    transport.close();
    const message = await bySubject(`Hello ${HOSTILE}`);

    const list = await fetch(`${http.url}/`);
    expect(list.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
    const listHtml = await list.text();
    expect(listHtml).not.toMatch(/<script|<img/i);
    expect(listHtml).toContain('Hello &#60;script&#62;document.title=&#34;pwned&#34;&#60;/script&#62;');
    expect(listHtml).toContain(`href="/view/${message.ID}"`);

    for (const part of ['html', 'text']) {
      const view = await (await fetch(`${http.url}/view/${message.ID}?part=${part}`)).text();
      expect(view).not.toMatch(/<script|<img/i);
      expect(view).toContain('&#60;script&#62;');
    }
    const view = await (await fetch(`${http.url}/view/${message.ID}`)).text();
    expect(view).toContain(`<iframe title="HTML part of the message" sandbox="" src="/view/${message.ID}/html"></iframe>`);
    expect(view).not.toContain('srcdoc');

    const part = await fetch(`${http.url}/view/${message.ID}/html`);
    expect(part.headers.get('content-security-policy')).toBe(MESSAGE_HTML_CSP);
    expect(MESSAGE_HTML_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox; frame-ancestors 'self'");
    expect(part.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await part.text()).toBe(message.HTML);
    expect((await fetch(`${http.url}/view/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
  });

  it('passes axe and the contrast check in Chromium, and a hostile HTML part runs nothing', async () => {
    await mailer.send({ to: 'Ada Learner <ada@example.uk>', subject: 'Certificate issued: Fire safety', text: 'Your certificate for Fire safety was issued on 26 November 2026.', html: '<h1 style="color:#102a43">Certificate issued</h1><p>Your certificate for <strong>Fire safety</strong> was issued on 26 November 2026.</p>' });
    const browser = await launchBrowser();
    try {
      for (const width of [1366, 390]) {
        const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
        page.setDefaultTimeout(15_000);
        await page.goto(`${http.url}/`);
        expect(await page.title()).toMatch(/^Mail catcher: \d+ messages?$/);
        expect(await page.getAttribute('html', 'lang')).toBe('en-GB');
        await page.getByRole('table', { name: /newest first/ }).waitFor();
        await expectAccessible(page);
        await screenshot(page, `mail-catcher-list-${width}`);

        // Keyboard: the skip link, then the first link; the focused element shows an outline.
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
        expect(await page.evaluate(() => getComputedStyle(/** @type {Element} */ (document.activeElement)).outlineStyle)).toBe('solid');

        await page.getByRole('link', { name: 'Certificate issued: Fire safety' }).click();
        await page.getByRole('heading', { level: 1, name: 'Certificate issued: Fire safety' }).waitFor();
        const frame = page.frameLocator('iframe[title="HTML part of the message"]');
        await frame.getByRole('heading', { name: 'Certificate issued' }).waitFor();
        // axe cannot run inside a frame whose scripts are off (it waits for ever): the page around it is
        // checked, and the frame's own title is checked by hand (the message inside is not ours to fix).
        const axe = await new AxeBuilder({ page }).withTags(AXE_TAGS).exclude('iframe').analyze();
        expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
        expect(await contrastProblems(page)).toEqual([]);
        expect(await page.locator('iframe').getAttribute('sandbox')).toBe('');
        await screenshot(page, `mail-catcher-message-html-${width}`);
        await page.getByRole('link', { name: 'Text', exact: true }).click();
        await page.getByText('Your certificate for Fire safety was issued on 26 November 2026.').waitFor();
        expect(await page.getByRole('link', { name: 'Text', exact: true }).getAttribute('aria-current')).toBe('page');
        await expectAccessible(page);
        await screenshot(page, `mail-catcher-message-text-${width}`);
        await page.close();
      }

      // A hostile message: its subject shows as text and its HTML part runs no script.
      const nodemailer = (await import('nodemailer')).default;
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.port });
      await transport.sendMail({ from: 'evil@example.uk', to: 'a@example.uk', subject: `Attack ${HOSTILE}`, text: 'x', html: `<p>Hi</p>${HOSTILE}<script>alert(1)</script>` });
      transport.close();
      const page = await (await browser.newContext()).newPage();
      /** @type {string[]} */
      const dialogs = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        dialog.dismiss().catch(() => {});
      });
      await page.goto(`${http.url}/`);
      await page.getByRole('link', { name: `Attack ${HOSTILE}` }).click();
      await page.getByRole('heading', { level: 1, name: `Attack ${HOSTILE}` }).waitFor();
      const frame = page.frameLocator('iframe[title="HTML part of the message"]');
      await frame.getByText('Hi').waitFor();
      await page.waitForTimeout(300);
      expect(await page.title()).toBe(`Attack ${HOSTILE}: mail catcher`);
      const inner = page.frames().find((f) => f !== page.mainFrame());
      expect(inner).toBeTruthy();
      expect(await inner?.evaluate(() => document.title)).toBe('');
      expect(dialogs).toEqual([]);
      expect(await contrastProblems(page)).toEqual([]);
      // What Chromium refused inside the sandboxed part is the point of the test, not a page fault.
      cspViolations.length = 0;
    } finally {
      await browser.close();
    }
  });
});

describe('the platform wires the catcher', () => {
  it('starts it, gives the function SMTP_HOST/SMTP_PORT/SMTP_FROM/SITE_URL, and SMTP_HOST/SMTP_PORT send Auth elsewhere', async () => {
    const { groupMembers, startPlatformProcess } = await import('../scripts/platform-process.mjs');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'esl-mail-'));
    // The platform's own catcher still starts; Auth and the function are pointed at this test's one.
    const platform = await startPlatformProcess({ dataDir, env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(catcher.port), SMTP_FROM: 'Test Sender <sender@example.uk>' } });
    try {
      expect(platform.smtpPort).toEqual(expect.any(Number));
      expect(platform.smtpUrl).toBe(`smtp://127.0.0.1:${platform.smtpPort}`);
      expect(platform.smtpPort).not.toBe(catcher.port);
      expect((await fetch(`${platform.mailUrl}/`)).status).toBe(200);

      const deno = groupMembers(platform.pid).find((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('functions/api/index.ts');
        } catch {
          return false;
        }
      });
      expect(deno, 'the function process').toBeTruthy();
      const env = Object.fromEntries(
        fs.readFileSync(`/proc/${deno}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      );
      expect(env).toMatchObject({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(catcher.port), SMTP_FROM: 'Test Sender <sender@example.uk>', SITE_URL: platform.url });

      // Auth's reauthentication code for the demo student reaches the server SMTP_HOST/SMTP_PORT name.
      const login = await platform.api('POST', '/login', { body: { username: 'student', password: 'password123' } });
      expect(login.status).toBe(200);
      const token = (await login.json()).session.access_token;
      const sent = await fetch(`${platform.url}/auth/v1/reauthenticate`, { headers: { apikey: platform.anonKey, authorization: `Bearer ${token}` } });
      expect(sent.status).toBe(200);
      const message = mailbox.messages.find((m) => m.Subject === 'Confirm reauthentication');
      expect(message?.From).toEqual({ Name: 'Test Sender', Address: 'sender@example.uk' });
      expect(message?.Text).toMatch(/code: \d{6}/);
      expect((await (await fetch(`${platform.mailUrl}/api/v1/messages`)).json()).total).toBe(0);
    } finally {
      await platform.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
