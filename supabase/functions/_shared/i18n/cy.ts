// Yr hyn y mae'r gweinydd yn ei ysgrifennu i berson sy'n darllen Cymraeg: what the server writes for
// a person who reads Welsh, in the register of Welsh public services (second person plural, the
// mutations the grammar asks for) and the terms of docs/welsh-glossary.md. Counts take the form
// Intl.PluralRules('cy') names (zero, one, two, few, many, other): `2 ddiwrnod`, `3 pherson`.
import type { Messages, NoticeContext, NoticeText, PluralForms } from './index.ts';
import { number, sessionNotices, text } from './notice-facts.ts';

const DAYS: PluralForms = { two: 'ddiwrnod', other: 'diwrnod' };
const CERTIFICATES: PluralForms = { two: 'dystysgrif', many: 'thystysgrif', other: 'tystysgrif' };
const ITEMS: PluralForms = { other: 'eitem' };
const PEOPLE: PluralForms = { two: 'berson', few: 'pherson', many: 'pherson', other: 'person' };

/** The course's title as the notice holds it (i18n/index.ts courseTitle chooses titles elsewhere). */
const course = (c: NoticeContext) => text(c.data.courseTitle);

/** A notice of a course needs its title; else the database's words are sent. */
function ofCourse(words: (c: NoticeContext) => NoticeText) {
  return (c: NoticeContext) => (course(c) ? words(c) : null);
}

const completeBy = (c: NoticeContext, at: unknown) => `Cwblhewch y cwrs erbyn ${c.date(at)}.`;
const wasDue = (c: NoticeContext) => `Roedd yn ddyledus ar ${c.date(c.data.dueAt)}.`;

interface DigestLine {
  personName?: unknown;
  courseTitle?: unknown;
  what?: unknown;
  at?: unknown;
}

export const cy: Messages = {
  language: 'cy',
  htmlLang: 'cy',
  months: ['Ionawr', 'Chwefror', 'Mawrth', 'Ebrill', 'Mai', 'Mehefin', 'Gorffennaf', 'Awst', 'Medi', 'Hydref', 'Tachwedd', 'Rhagfyr'],
  services: {
    UKPS: "Gwasanaeth Heddlu'r Deyrnas Unedig",
    UKAS: 'Gwasanaeth Ambiwlans y Deyrnas Unedig',
    UKFRS: 'Gwasanaeth Tân ac Achub y Deyrnas Unedig',
    UKHW: 'Priffyrdd y Deyrnas Unedig',
    AUX: 'Gwasanaethau Ategol',
    MISC: 'Gwasanaeth Amrywiol',
  },
  units: {
    hours: { other: 'awr' },
    days: DAYS,
  },
  email: {
    greeting: (name) => (name ? `Helo ${name},` : 'Helo,'),
    welcomeSubject: (site) => `Eich cyfrif ar ${site}`,
    welcomeMade: (site) => `Mae cyfrif wedi'i greu i chi ar ${site}.`,
    welcomeUsername: (username) => `Eich enw defnyddiwr yw ${username}.`,
    welcomePassword:
      'Defnyddiwch y ddolen isod i ddewis eich cyfrinair eich hun. Dim ond unwaith y mae\'n gweithio, ac mae\'n dod i ben ar ôl amser byr; os yw wedi dod i ben, defnyddiwch "Wedi anghofio eich cyfrinair?" ar y dudalen mewngofnodi.',
    footerWelcome: (site) => `Rydych yn cael yr e-bost hwn oherwydd bod gweinyddwr wedi eich ychwanegu at ${site}.`,
    footerSettings: (site) => `Rydych yn cael yr e-bost hwn oherwydd eich gosodiadau hysbysiadau ar ${site}.`,
    chooseEmails: 'Dewiswch pa negeseuon e-bost a gewch',
    links: {
      choosePassword: 'Dewiswch eich cyfrinair',
      openCourse: 'Agor y cwrs',
      seeTheirTraining: 'Gweld eu hyfforddiant',
      seeYourTeam: 'Gweld eich tîm',
      seeCertificate: 'Gweld y dystysgrif',
      seeYourCertificates: 'Gweld eich tystysgrifau',
      seeSession: 'Gweld y sesiwn',
      seeAssessment: 'Gweld yr asesiad',
      seeAssessments: 'Gweld yr asesiadau',
      openOnSite: 'Agor ar y wefan',
    },
  },
  notices: {
    ...sessionNotices({
      to: 'tan',
      days: DAYS,
      when: (times) => `Pryd: ${times}`,
      where: (venue) => `Ble: ${venue}`,
      online: (url) => `Ar-lein: ${url}`,
      note: (note) => `Nodyn: ${note}`,
      reason: (reason) => `Rheswm: ${reason}`,
      calendarRequest: 'Mae\'r gwahoddiad sydd ynghlwm yn rhoi\'r sesiwn yn eich calendr.',
      calendarCancel: 'Mae\'r gwahoddiad sydd ynghlwm yn tynnu\'r sesiwn o\'ch calendr.',
      booked: { title: (what) => `Lle wedi'i archebu: ${what}`, lead: 'Mae gennych le ar y sesiwn ystafell ddosbarth hon.' },
      waiting: {
        title: (what) => `Ar y rhestr aros: ${what}`,
        lead: 'Mae\'r sesiwn yn llawn, felly rydych ar ei rhestr aros. Byddwn yn anfon e-bost atoch os daw lle ar gael.',
      },
      offered: {
        title: (what) => `Mae lle ar gael i chi: ${what}`,
        lead: 'Mae lle wedi dod ar gael i chi ar y sesiwn hon.',
        acceptBy: (time, date) => `Derbyniwch ef erbyn ${time} ar ${date}, neu caiff ei gynnig i'r person nesaf sy'n aros.`,
        acceptOnPage: 'Derbyniwch ef ar dudalen y sesiwn, neu caiff ei gynnig i\'r person nesaf sy\'n aros.',
      },
      changed: {
        title: (what) => `Sesiwn wedi newid: ${what}`,
        lead: 'Mae\'r sesiwn rydych wedi archebu lle arni wedi newid. Dyma\'r manylion newydd.',
      },
      cancelled: { title: (what) => `Sesiwn wedi'i chanslo: ${what}`, lead: 'Mae\'r sesiwn hon wedi\'i chanslo.' },
      reminder: {
        title: (what, days, count) =>
          days === 1 ? `Nodyn atgoffa: ${what} yfory` : days === null ? `Nodyn atgoffa: ${what}` : `Nodyn atgoffa: ${what} ymhen ${count}`,
        lead: 'Mae eich sesiwn ystafell ddosbarth yn agosáu.',
      },
      approval: {
        title: (learner, what) => `Mae ${learner || 'rhywun yn eich tîm'} yn gofyn am gael archebu lle ar ${what}`,
        lead: 'Cymeradwywch neu gwrthodwch yr archeb ar dudalen eich tîm.',
      },
      declined: { title: (what) => `Archeb wedi'i gwrthod: ${what}`, lead: 'Cafodd eich cais am le ar y sesiwn hon ei wrthod.' },
      recorded: {
        title: (what) => `Asesiad wedi'i gofnodi: ${what}`,
        outcome: (competent, assessor) =>
          competent
            ? `Yn ôl asesiad ${assessor || 'eich aseswr'}, rydych yn gymwys.`
            : `Yn ôl asesiad ${assessor || 'eich aseswr'}, nid ydych yn gymwys eto. Gallwch gael eich asesu eto.`,
        verified: 'Mae dilyswr wedi gwirio\'r canlyniad.',
        awaitingVerifier: 'Mae\'r canlyniad yn aros i ddilyswr ei wirio.',
      },
      reassessment: {
        title: (learner, what) => `Mae ${learner || 'dysgwr'} yn gofyn am ailasesiad: ${what}`,
        lead: 'Trefnwch asesiad newydd ar eich tudalen asesiadau.',
      },
    }),
    'training-assigned': ofCourse((c) => ({ title: `Hyfforddiant gorfodol: ${course(c)}`, body: completeBy(c, c.data.dueAt) })),
    'training-due-soon': ofCourse((c) => ({
      title: `Mae ${course(c)} yn ddyledus ymhen ${c.count(number(c.data.days), DAYS)}`,
      body: completeBy(c, c.data.dueAt),
    })),
    'training-overdue': ofCourse((c) => ({ title: `Mae ${course(c)} yn hwyr`, body: wasDue(c) })),
    'manager-escalation': ofCourse((c) => ({ title: `Mae ${text(c.data.personName)} yn hwyr gyda ${course(c)}`, body: wasDue(c) })),
    'certificate-expiring': ofCourse((c) => ({
      title: `Mae eich tystysgrif ${course(c)} yn dod i ben ymhen ${c.count(number(c.data.days), DAYS)}`,
      body: `Mae'n dod i ben ar ${c.date(c.data.expiresAt)}.`,
    })),
    'certificate-expired': ofCourse((c) => ({
      title: `Mae eich tystysgrif ${course(c)} wedi dod i ben`,
      body: `Daeth i ben ar ${c.date(c.data.expiresAt)}.`,
    })),
    'certificate-issued': ofCourse((c) => ({
      title: `Tystysgrif wedi'i chyhoeddi: ${course(c)}`,
      body: `Cod gwirio ${text(c.data.verificationCode)}.`,
    })),
    'enrolment-approved': ofCourse((c) => ({ title: `Cofrestriad wedi'i gymeradwyo: ${course(c)}`, body: 'Gallwch ddechrau\'r cwrs.' })),
    'enrolment-declined': ofCourse((c) => ({
      title: `Cofrestriad wedi'i wrthod: ${course(c)}`,
      body: 'Cafodd eich cais i ymuno â\'r cwrs ei wrthod.',
    })),
    'manager-digest': (c) => {
      const overdue = number(c.data.overdue);
      const expiring = number(c.data.expiring);
      const people = number(c.data.people);
      if (![overdue, expiring, people].every(Number.isInteger)) return null;
      const lines = Array.isArray(c.data.lines) ? (c.data.lines as DigestLine[]) : [];
      return {
        title: `Eich tîm yr wythnos hon: ${overdue} yn hwyr, ${expiring} yn dod i ben`,
        body: [
          `${c.count(overdue, ITEMS)} yn hwyr a ${c.count(expiring, CERTIFICATES)} yn dod i ben o fewn 30 diwrnod, ymhlith ${c.count(people, PEOPLE)}.`,
          ...lines.map((l) =>
            l.what === 'overdue'
              ? `${text(l.personName)}: ${text(l.courseTitle)} yn hwyr ers ${c.date(l.at)}`
              : `${text(l.personName)}: tystysgrif ${text(l.courseTitle)} yn dod i ben ar ${c.date(l.at)}`
          ),
          ...(overdue + expiring > 10 ? [`A ${overdue + expiring - 10} arall ar dudalen eich tîm.`] : []),
        ].join('\n'),
      };
    },
  },
  validity: {
    validUntil: (date) => `Yn ddilys tan ${date}`,
    doesNotExpire: 'Nid yw\'n dod i ben',
    expiredOn: (date) => `Daeth i ben ar ${date}`,
    expired: 'Wedi dod i ben',
    revokedOn: (date) => `Dirymwyd ar ${date}`,
    revoked: 'Wedi\'i dirymu',
    expiringSoon: 'Yn dod i ben cyn bo hir',
    expiringValidUntil: (date) => `Yn dod i ben cyn bo hir: yn ddilys tan ${date}`,
    states: { valid: 'Yn ddilys', expiring: 'Yn dod i ben cyn bo hir', expired: 'Wedi dod i ben', revoked: 'Wedi\'i dirymu' },
  },
  certificate: {
    documentTitle: (title) => `Tystysgrif: ${title}`,
    documentSubject: (learner, title) => `${learner} wedi cwblhau ${title}`,
    completionTitle: 'Tystysgrif Cwblhau',
    certifyThat: 'Mae hyn i dystio bod',
    hasCompleted: 'wedi cwblhau\'r cwrs yn llwyddiannus',
    achievementTitle: 'TYSTYSGRIF CYFLAWNIAD',
    presentedTo: 'Cyflwynir y dystysgrif hon i',
    inRecognition: 'i gydnabod cwblhau\'n llwyddiannus',
    emergencyServices: 'Gwasanaethau Brys',
    serviceTrainingCertificate: (code) => `Tystysgrif Hyfforddiant ${code}`,
    trainingCertificate: 'Tystysgrif Hyfforddiant',
    awardedTo: 'Dyfarnwyd i',
    forCompleting: 'am gwblhau',
    completedOnDate: (date) => `Cwblhawyd ar ${date}`,
    issuedBy: 'Cyhoeddwyd gan',
    courseLength: 'Hyd y cwrs',
    verificationCode: 'Cod gwirio',
    verifyAt: 'Gwiriwch yn',
    certificate: 'Tystysgrif',
    learner: 'Dysgwr',
    course: 'Cwrs',
    service: 'Gwasanaeth',
    notSpecified: 'Heb ei nodi',
    completedOn: 'Cwblhawyd ar',
    validity: 'Dilysrwydd',
  },
  learningRecord: {
    documentTitle: (name) => `Cofnod dysgu: ${name}`,
    documentSubject: (name) => `Cyrsiau wedi'u cwblhau a gweithgareddau DPP ${name}`,
    continued: (name) => `Cofnod dysgu: ${name} (parhad)`,
    title: 'Cofnod dysgu',
    generatedOn: (date) => `Crëwyd ar ${date}`,
    totalHours: (hours) => `Cyfanswm yr oriau: ${hours}`,
    totals: (courses, courseHours, entries, cpdHours) =>
      `Cyrsiau wedi'u cwblhau: ${courses} (${courseHours})    Gweithgareddau DPP: ${entries} (${cpdHours})`,
    completedCourses: 'Cyrsiau wedi\'u cwblhau',
    noCompletedCourses: 'Dim cyrsiau wedi\'u cwblhau eto.',
    coursesNote:
      'Hyd y cwrs yw\'r oriau. Nid yw tystysgrifau a ddirymwyd yn cyfrif unrhyw oriau. Sgôr: yr ymgeisiau cwis gorau a lwyddodd yn y cwblhad hwnnw.',
    cpdActivities: 'Gweithgareddau DPP',
    noCpdActivities: 'Dim gweithgareddau DPP wedi\'u cofnodi eto.',
    columns: { completed: 'Cwblhawyd', course: 'Cwrs', hours: 'Oriau', score: 'Sgôr', certificate: 'Tystysgrif', date: 'Dyddiad', activity: 'Gweithgaredd' },
    recertification: (n) => `Ailardystio ${n}`,
    whatILearnt: 'Beth a ddysgais',
    reflection: 'Myfyrio',
    footer: (name, date) => `${name} - cofnod dysgu a grëwyd ar ${date}`,
    page: (page, pages) => `Tudalen ${page} o ${pages}`,
    csvHeader: ['Math', 'Dyddiad', 'Cwrs neu weithgaredd', 'Gwasanaeth', 'Oriau', 'Sgôr (%)', 'Cod y dystysgrif', 'Statws y dystysgrif',
      'Yn ddilys tan', 'Beth a ddysgais', 'Myfyrio'],
    csvCourse: 'Cwrs',
    csvCpdActivity: 'Gweithgaredd DPP',
  },
  exports: {
    complianceHeader: ['Enw', 'Enw defnyddiwr', 'E-bost', 'Rôl', 'Gwasanaethau', 'Cwrs', 'Statws', 'Dyddiad dyledus', 'Yn ddilys tan', 'Cynnydd (%)', 'Wedi\'i gydnabod o'],
    trainingStatuses: { overdue: 'Yn hwyr', 'due-soon': 'Yn ddyledus cyn bo hir', 'in-progress': 'Ar y gweill', done: 'Wedi\'i gwblhau', recognised: 'Wedi\'i gydnabod' },
    teamHeader: ['Enw', 'Enw defnyddiwr', 'Uned', 'Yn adrodd yn uniongyrchol', 'Yn hwyr', 'Yn ddyledus cyn bo hir', 'Ar y gweill', 'Wedi\'i gwblhau',
      'Tystysgrifau yn dod i ben (60 diwrnod)', 'Yn dod i ben nesaf', 'Gweithgarwch diwethaf',
      'Sesiynau wedi\'u harchebu', 'Sesiwn nesaf', 'Statws y sesiwn nesaf', 'Asesiadau ymarferol yn ddyledus', 'Asesiad ymarferol nesaf yn ddyledus',
      'Asesiadau ymarferol yn hwyr', 'Asesiadau ymarferol yn hwyr ers', 'Asesiadau ymarferol yn aros am lofnod'],
    bookingStatuses: { booked: 'Wedi\'i harchebu', requested: 'Gofynnwyd amdani', waiting: 'Ar restr aros', offered: 'Lle wedi\'i gynnig' },
  },
};
