// The notification emails: plain text and simple accessible HTML in the recipient's language
// (profiles.language: English, or Welsh from the catalogue of _shared/i18n/), with the
// site's name, a link to the thing the notice is about and one to the person's preferences. No
// images, no tracking: every link is the site's own address. Every value from the database is
// escaped in the HTML; links are built only from SITE_URL and the notice's app path.

//
// A session notice whose facts carry an iCalendar method (REQUEST or CANCEL) also gets the booking's
// calendar invitation (lib/calendar.ts), in the recipient's language, addressed to them.

import type { Language } from '../../_shared/language.ts';
import { type Messages, messages, noticeText } from '../../_shared/i18n/index.ts';
import { moduleTitleOf, venueOf } from '../../_shared/i18n/notice-facts.ts';
import { buildInvitation, invitationFacts, type InvitationMethod, siteHost } from './calendar.ts';

/** What a template needs of one claimed notification. */
export interface EmailNotice {
  kind: string;
  title: string;
  body: string;
  linkPath: string | null;
  recipientName: string;
  /** The recipient's language (profiles.language); English when not given. */
  language?: Language;
  /** The facts the notice was made from (account-welcome: the username). */
  data?: Record<string, unknown>;
  /** The recipient's address: a calendar invitation names them as its attendee. */
  recipientEmail?: string;
  /** When the notice was made: its invitation's DTSTAMP (the same on every attempt). */
  createdAt?: Date;
}

export interface EmailSite {
  siteName: string;
  /** The web app's address, without a trailing slash. */
  siteUrl: string;
  /** For account-welcome: the set-password link from Auth, made at send time. */
  actionLink?: string;
  /** The sender's address: a calendar invitation's organiser. */
  senderAddress?: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** A session notice's calendar invitation: nodemailer's icalEvent. */
  calendar?: { method: InvitationMethod; content: string };
}

/** Where people choose their notification emails (the profile page's Notifications section). */
export const PREFERENCES_PATH = '/profile';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

/** A subject on one line (a newline in a header would start another header). */
function oneLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, ' ').replace(/\s{2,}/g, ' ').trim().slice(0, 200);
}

/** An app path as an absolute link on the site; only paths (a leading single slash) are kept. */
export function siteLink(siteUrl: string, path: string | null): string {
  if (!path || !/^\/(?!\/)/.test(path)) return `${siteUrl}/`;
  return `${siteUrl}${path}`;
}

/** The words of the link to the item, by what it opens. */
function linkLabel(m: Messages, kind: string, path: string | null): string {
  const links = m.email.links;
  if (kind === 'account-welcome') return links.choosePassword;
  if (/^\/course\/[^/]+\/module\//.test(path ?? '')) {
    if (kind.startsWith('session-')) return links.seeSession;
    if (kind.startsWith('assessment-')) return links.seeAssessment;
  }
  if (path === '/instructor/assessments') return links.seeAssessments;
  if (path?.startsWith('/course/')) return links.openCourse;
  if (path?.startsWith('/team/')) return links.seeTheirTraining;
  if (path === '/team') return links.seeYourTeam;
  if (path?.startsWith('/verify/')) return links.seeCertificate;
  if (path === '/certificates') return links.seeYourCertificates;
  return links.openOnSite;
}

/** The email of one notification. */
export function renderNotificationEmail(notice: EmailNotice, site: EmailSite): RenderedEmail {
  const language = notice.language ?? 'en-GB';
  const m = messages(language);
  const siteName = oneLine(site.siteName);
  const welcome = notice.kind === 'account-welcome';
  const { title, body } = noticeText(language, notice);
  const subject = oneLine(welcome ? m.email.welcomeSubject(siteName) : title);
  const itemLink = welcome && site.actionLink ? site.actionLink : siteLink(site.siteUrl, notice.linkPath);
  const preferencesLink = siteLink(site.siteUrl, PREFERENCES_PATH);
  const label = linkLabel(m, notice.kind, notice.linkPath);
  const greeting = m.email.greeting(notice.recipientName.trim());
  const username = typeof notice.data?.username === 'string' ? notice.data.username : '';
  // A welcome's own body speaks of "the email we sent": this is that email, so it says it itself.
  const lines = welcome
    ? [
      m.email.welcomeMade(siteName),
      username ? m.email.welcomeUsername(username) : '',
      m.email.welcomePassword,
    ]
    : [title, body];
  const footer = welcome ? m.email.footerWelcome(siteName) : m.email.footerSettings(siteName);

  const text = [
    greeting,
    '',
    ...lines.filter((line) => line.trim() !== '').flatMap((line) => [line, '']),
    `${label}: ${itemLink}`,
    '',
    '--',
    footer,
    `${m.email.chooseEmails}: ${preferencesLink}`,
    '',
  ].join('\n');

  const paragraph = 'margin:0 0 16px 0;font-size:16px;line-height:1.5;';
  // Each line of a body is a paragraph of its own (a newline inside a <p> would read as a space).
  const bodyLines = (welcome ? lines : lines.slice(1)).flatMap((line) => line.split('\n'));
  const html = `<!doctype html>
<html lang="${m.htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:Arial,Helvetica,sans-serif;">
<main style="max-width:600px;margin:0 auto;">
<p style="${paragraph}">${escapeHtml(greeting)}</p>
${welcome ? '' : `<h1 style="margin:0 0 16px 0;font-size:22px;line-height:1.3;">${escapeHtml(title)}</h1>\n`}${
    bodyLines.filter((line) => line.trim() !== '').map((line) => `<p style="${paragraph}">${escapeHtml(line)}</p>`).join('\n')
  }
<p style="${paragraph}"><a href="${escapeHtml(itemLink)}" style="color:#0b4fa8;text-decoration:underline;">${escapeHtml(label)}</a></p>
<hr style="border:0;border-top:1px solid #6b6b6b;margin:24px 0;">
<p style="margin:0 0 8px 0;font-size:14px;line-height:1.5;color:#3d3d3d;">${escapeHtml(footer)}</p>
<p style="margin:0;font-size:14px;line-height:1.5;color:#3d3d3d;"><a href="${escapeHtml(preferencesLink)}" style="color:#0b4fa8;text-decoration:underline;">${escapeHtml(m.email.chooseEmails)}</a></p>
<p style="margin:16px 0 0 0;font-size:14px;line-height:1.5;color:#3d3d3d;">${escapeHtml(siteName)}</p>
</main>
</body>
</html>
`;
  const calendar = invitationOf(notice, site, language, { subject, label, itemLink });
  return calendar ? { subject, text, html, calendar } : { subject, text, html };
}

/** A session notice's calendar invitation, or undefined when its facts ask for none (or lack any it needs). */
function invitationOf(
  notice: EmailNotice,
  site: EmailSite,
  language: Language,
  words: { subject: string; label: string; itemLink: string },
): RenderedEmail['calendar'] {
  const data = notice.data ?? {};
  const facts = invitationFacts(data);
  if (!facts || !notice.recipientEmail || !site.senderAddress) return undefined;
  const context = { data, language };
  // The calendar's own description: the notice without its line about the attached invitation.
  const { title, body } = noticeText(language, { ...notice, data: { ...data, method: null } });
  const content = buildInvitation({
    ...facts,
    stamp: notice.createdAt ?? new Date(),
    siteHost: siteHost(site.siteUrl),
    siteName: oneLine(site.siteName),
    summary: moduleTitleOf(context) || words.subject,
    description: [title, body, `${words.label}: ${words.itemLink}`].filter((line) => line.trim() !== '').join('\n\n'),
    location: venueOf(context) || (typeof data.onlineUrl === 'string' ? data.onlineUrl : ''),
    url: words.itemLink,
    organizer: { name: oneLine(site.siteName), email: site.senderAddress },
    attendee: { name: notice.recipientName, email: notice.recipientEmail },
  });
  return { method: facts.method, content };
}
