// The facts of the classroom session and practical assessment notices (notifications.data, written
// by the booking and assessment functions in SQL), read the same way for every language: each
// catalogue (en-GB.ts, cy.ts) words them with sessionNotices(). Times are London's, 24-hour
// (`09:30`), dates `3 December 2026` / `3 Rhagfyr 2026`.
import type { NoticeContext, NoticeText, PluralForms } from './index.ts';
import { courseTitle } from './titles.ts';

export const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
export const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : Number(value));

/** `Trauma care: Practical day`: the course and the module, each in the reader's language where it has one. */
export function moduleTitleOf(c: Pick<NoticeContext, 'data' | 'language'>): string {
  const course = courseTitle({ title: text(c.data.courseTitle), titleCy: text(c.data.courseTitleCy) }, c.language);
  const module = courseTitle({ title: text(c.data.moduleTitle), titleCy: text(c.data.moduleTitleCy) }, c.language);
  return course && module ? `${course}: ${module}` : course || module;
}

/** `3 December 2026, 09:30 to 16:00`; over two days `3 December 2026, 09:30 to 4 December 2026, 12:00`. */
export function sessionTimes(c: NoticeContext, to: string): string {
  const day = c.date(c.data.startsAt);
  if (!day) return '';
  const start = `${day}, ${c.time(c.data.startsAt)}`;
  const endDay = c.date(c.data.endsAt);
  if (!endDay) return start;
  return endDay === day ? `${start} ${to} ${c.time(c.data.endsAt)}` : `${start} ${to} ${endDay}, ${c.time(c.data.endsAt)}`;
}

/** The venue's name and address on one line, or '' for a session held online only. */
export function venueOf(c: Pick<NoticeContext, 'data'>): string {
  return [text(c.data.venueName), text(c.data.venueAddress)].filter(Boolean).join(', ');
}

/** Days before the session of a reminder (data.threshold: 7, '7', '7 days', 'P7D'); null when not given. */
export function reminderDays(c: NoticeContext): number | null {
  const value = c.data.threshold;
  const n = typeof value === 'number' ? value : Number(/\d+/.exec(text(value))?.[0] ?? NaN);
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/** How one language words the session and assessment notices. */
export interface SessionWords {
  to: string;
  days: PluralForms;
  when: (times: string) => string;
  where: (venue: string) => string;
  online: (url: string) => string;
  note: (note: string) => string;
  reason: (reason: string) => string;
  calendarRequest: string;
  calendarCancel: string;
  booked: { title: (what: string) => string; lead: string };
  waiting: { title: (what: string) => string; lead: string };
  offered: { title: (what: string) => string; lead: string; acceptBy: (time: string, date: string) => string; acceptOnPage: string };
  changed: { title: (what: string) => string; lead: string };
  cancelled: { title: (what: string) => string; lead: string };
  reminder: { title: (what: string, days: number | null, count: string) => string; lead: string };
  approval: { title: (learner: string, what: string) => string; lead: string };
  declined: { title: (what: string) => string; lead: string };
  recorded: {
    title: (what: string) => string;
    outcome: (competent: boolean, assessor: string) => string;
    verified: string;
    awaitingVerifier: string;
  };
  reassessment: { title: (learner: string, what: string) => string; lead: string };
}

type Words = (c: NoticeContext) => NoticeText | null;

/** The ten kinds' words in one language. A notice without its titles gets the database's words. */
export function sessionNotices(w: SessionWords): Record<string, Words> {
  /** The lines every session notice shows after its first: when, where, the note, the invitation. */
  const details = (c: NoticeContext, options: { note?: boolean; calendar?: boolean } = {}) => {
    const times = sessionTimes(c, w.to);
    const venue = venueOf(c);
    const online = text(c.data.onlineUrl);
    const note = text(c.data.note);
    const method = c.data.method;
    return [
      times ? w.when(times) : '',
      venue ? w.where(venue) : '',
      online ? w.online(online) : '',
      options.note !== false && note ? w.note(note) : '',
      options.calendar !== false && method === 'REQUEST' ? w.calendarRequest : '',
      options.calendar !== false && method === 'CANCEL' ? w.calendarCancel : '',
    ];
  };
  const reason = (c: NoticeContext) => (text(c.data.reason) ? w.reason(text(c.data.reason)) : '');
  const lines = (...all: (string | string[])[]) => all.flat().filter(Boolean).join('\n');
  /** Only a notice that names its module is worded here. */
  const ofModule = (words: (c: NoticeContext, what: string) => NoticeText): Words => (c) => {
    const what = moduleTitleOf(c);
    return what ? words(c, what) : null;
  };
  const learner = (c: NoticeContext) => text(c.data.learnerName);

  return {
    'session-booked': ofModule((c, what) => ({ title: w.booked.title(what), body: lines(w.booked.lead, details(c)) })),
    'session-waiting': ofModule((c, what) => ({ title: w.waiting.title(what), body: lines(w.waiting.lead, details(c)) })),
    'session-place-offered': ofModule((c, what) => {
      const until = c.data.offeredUntil;
      const deadline = c.date(until) ? w.offered.acceptBy(c.time(until), c.date(until)) : w.offered.acceptOnPage;
      return { title: w.offered.title(what), body: lines(`${w.offered.lead} ${deadline}`, details(c)) };
    }),
    'session-changed': ofModule((c, what) => ({ title: w.changed.title(what), body: lines(w.changed.lead, details(c)) })),
    'session-cancelled': ofModule((c, what) => ({
      title: w.cancelled.title(what),
      body: lines(w.cancelled.lead, reason(c), details(c, { note: false })),
    })),
    'session-reminder': ofModule((c, what) => {
      const days = reminderDays(c);
      return {
        title: w.reminder.title(what, days, days === null ? '' : c.count(days, w.days)),
        body: lines(w.reminder.lead, details(c)),
      };
    }),
    'session-approval-requested': ofModule((c, what) => ({
      title: w.approval.title(learner(c), what),
      body: lines(w.approval.lead, details(c, { note: false, calendar: false })),
    })),
    'session-booking-declined': ofModule((c, what) => ({
      title: w.declined.title(what),
      body: lines(w.declined.lead, reason(c), details(c, { note: false })),
    })),
    'assessment-recorded': ofModule((c, what) => {
      const verified = c.data.verified;
      return {
        title: w.recorded.title(what),
        body: lines(
          w.recorded.outcome(c.data.outcome === 'competent', text(c.data.assessorName)),
          verified === true ? w.recorded.verified : verified === false ? w.recorded.awaitingVerifier : '',
        ),
      };
    }),
    'reassessment-requested': ofModule((c, what) => ({
      title: w.reassessment.title(learner(c), what),
      body: w.reassessment.lead,
    })),
  };
}
