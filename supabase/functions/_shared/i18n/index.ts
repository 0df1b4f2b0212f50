// The server's message catalogue: everything the server writes for a person (notification emails,
// certificates, the learning record, CSV headers) in the language of their profile
// (profiles.language). English: en-GB.ts, Welsh: cy.ts; the terms are docs/welsh-glossary.md's.
//
// Dates are `22 November 2026` and `22 Tachwedd 2026`, the day in London. Deno's Intl has no Welsh
// month names (it answers 'cy' with `November 22, 2026`), so the months are the catalogue's own; its
// plural rules do know Welsh (zero, one, two, few, many, other), and count words use them.
import { clockTime, type DateInput, isoDate, longDate, toDate } from '../dates.ts';
import type { CertificateState } from '../certificates.ts';
import { DEFAULT_LANGUAGE, type Language, toLanguage } from '../language.ts';
import { cy } from './cy.ts';
import { enGB } from './en-GB.ts';

export { courseTitle } from './titles.ts';

export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** A notice as the email shows it: its heading and its body (one or more lines). */
export interface NoticeText {
  title: string;
  body: string;
}

/** The facts a notice was made from (notifications.data), and how to word dates and counts. */
export interface NoticeContext {
  data: Record<string, unknown>;
  language: Language;
  date: (value: unknown) => string;
  /** `09:30`: 24-hour, London. */
  time: (value: unknown) => string;
  count: (n: number, forms: PluralForms) => string;
}

export interface Messages {
  language: Language;
  /** The html element's lang. */
  htmlLang: string;
  months: readonly string[];
  services: Record<string, string>;
  units: { hours: PluralForms; days: PluralForms };
  email: {
    greeting: (name: string) => string;
    welcomeSubject: (site: string) => string;
    welcomeMade: (site: string) => string;
    welcomeUsername: (username: string) => string;
    welcomePassword: string;
    footerWelcome: (site: string) => string;
    footerSettings: (site: string) => string;
    chooseEmails: string;
    links: {
      choosePassword: string;
      openCourse: string;
      seeTheirTraining: string;
      seeYourTeam: string;
      seeCertificate: string;
      seeYourCertificates: string;
      seeSession: string;
      seeAssessment: string;
      seeAssessments: string;
      openOnSite: string;
    };
  };
  /** Each kind's words from its facts; a kind not here (or a notice without its facts) is sent in the database's own words. */
  notices: Record<string, (context: NoticeContext) => NoticeText | null>;
  validity: {
    validUntil: (date: string) => string;
    doesNotExpire: string;
    expiredOn: (date: string) => string;
    expired: string;
    revokedOn: (date: string) => string;
    revoked: string;
    expiringSoon: string;
    expiringValidUntil: (date: string) => string;
    states: Record<CertificateState, string>;
  };
  certificate: {
    documentTitle: (course: string) => string;
    documentSubject: (learner: string, course: string) => string;
    completionTitle: string;
    certifyThat: string;
    hasCompleted: string;
    achievementTitle: string;
    presentedTo: string;
    inRecognition: string;
    emergencyServices: string;
    serviceTrainingCertificate: (code: string) => string;
    trainingCertificate: string;
    awardedTo: string;
    forCompleting: string;
    completedOnDate: (date: string) => string;
    /** `Issued by Emergency Services Learning` */
    issuedBy: string;
    /** `Course length: 6 hours` */
    courseLength: string;
    /** `Verification code: …` */
    verificationCode: string;
    /** `Verify at https://…` */
    verifyAt: string;
    certificate: string;
    learner: string;
    course: string;
    service: string;
    notSpecified: string;
    completedOn: string;
    validity: string;
  };
  learningRecord: {
    documentTitle: (name: string) => string;
    documentSubject: (name: string) => string;
    continued: (name: string) => string;
    title: string;
    generatedOn: (date: string) => string;
    totalHours: (hours: number) => string;
    totals: (courses: number, courseHours: string, entries: number, cpdHours: string) => string;
    completedCourses: string;
    noCompletedCourses: string;
    coursesNote: string;
    cpdActivities: string;
    noCpdActivities: string;
    columns: { completed: string; course: string; hours: string; score: string; certificate: string; date: string; activity: string };
    recertification: (n: number) => string;
    whatILearnt: string;
    reflection: string;
    footer: (name: string, date: string) => string;
    page: (page: number, pages: number) => string;
    csvHeader: readonly string[];
    csvCourse: string;
    csvCpdActivity: string;
  };
  /** The administrators' and managers' CSV files (the user export keeps the import's English columns). */
  exports: {
    complianceHeader: readonly string[];
    trainingStatuses: Record<'overdue' | 'due-soon' | 'in-progress' | 'done' | 'recognised', string>;
    teamHeader: readonly string[];
    bookingStatuses: Record<'booked' | 'requested' | 'waiting' | 'offered', string>;
  };
}

const CATALOGUES: Record<Language, Messages> = { 'en-GB': enGB, cy };

/** The catalogue of a language (anything unknown reads as English). */
export function messages(language: unknown = DEFAULT_LANGUAGE): Messages {
  return CATALOGUES[toLanguage(language)];
}

const pluralRules = new Map<Language, Intl.PluralRules>();

/** The word for a count: Intl.PluralRules picks the form (Welsh has six). */
export function pluralForm(language: Language, n: number, forms: PluralForms): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return forms[rules.select(n)] ?? forms.other;
}

/** `3 days`, `2 ddiwrnod`: the number and its word. */
export function count(language: Language, n: number, forms: PluralForms): string {
  return `${n} ${pluralForm(language, n, forms)}`;
}

/** `22 November 2026`, `22 Tachwedd 2026` (the day in London); `empty` when there is no date. */
export function formatDate(language: Language, value: DateInput, empty = ''): string {
  if (language === 'en-GB') return longDate(value, empty);
  const date = toDate(value);
  if (!date) return empty;
  const [year, month, day] = isoDate(date).split('-').map(Number);
  return `${day} ${messages(language).months[month - 1]} ${year}`;
}

/** `6 hours`, `6 awr` (fractions to two places, as _shared/cpd.ts hoursText). */
export function hoursText(language: Language, hours: number): string {
  const text = Number.isInteger(hours) ? String(hours) : String(Math.round(hours * 100) / 100);
  return `${text} ${pluralForm(language, hours, messages(language).units.hours)}`;
}

/** A service's name in the language (a code not known shows as it is). */
export function serviceName(language: Language, code: string): string {
  return messages(language).services[code] ?? code;
}


type Validity = { state: CertificateState; expiresAt: DateInput; revokedAt: DateInput };

/** A certificate's validity, as _shared/certificates.ts validityText words it in English. */
export function validityText(language: Language, c: Validity): string {
  const v = messages(language).validity;
  switch (c.state) {
    case 'revoked':
      return c.revokedAt ? v.revokedOn(formatDate(language, c.revokedAt)) : v.revoked;
    case 'expired':
      return c.expiresAt ? v.expiredOn(formatDate(language, c.expiresAt)) : v.expired;
    default:
      return c.expiresAt ? v.validUntil(formatDate(language, c.expiresAt)) : v.doesNotExpire;
  }
}

/** The same with an expiring certificate's state first (the learning record). */
export function validityTextWithState(language: Language, c: Validity): string {
  if (c.state !== 'expiring') return validityText(language, c);
  const v = messages(language).validity;
  return c.expiresAt ? v.expiringValidUntil(formatDate(language, c.expiresAt)) : v.expiringSoon;
}

/**
 * A notice's heading and body in the language: the kind's words from the notice's facts, or the
 * database's own words (English) when the catalogue has none for the kind or its facts are missing.
 */
export function noticeText(language: Language, notice: { kind: string; title: string; body: string; data?: Record<string, unknown> | null }): NoticeText {
  const words = messages(language).notices?.[notice.kind];
  const context: NoticeContext = {
    data: notice.data ?? {},
    language,
    date: (value) => formatDate(language, value as DateInput),
    time: (value) => clockTime(value as DateInput),
    count: (n, forms) => count(language, n, forms),
  };
  return words?.(context) ?? { title: notice.title, body: notice.body };
}

export type { Language };
