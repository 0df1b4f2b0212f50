// Yr hyn y mae'r gweinydd yn ei ysgrifennu i berson sy'n darllen Cymraeg: what the server writes for
// a person who reads Welsh, in the register of Welsh public services (second person plural, the
// mutations the grammar asks for) and the terms of docs/welsh-glossary.md. Counts take the form
// Intl.PluralRules('cy') names (zero, one, two, few, many, other): `2 ddiwrnod`, `3 pherson`.
import type { Messages, NoticeContext, NoticeText, PluralForms } from './index.ts';

const DAYS: PluralForms = { two: 'ddiwrnod', other: 'diwrnod' };
const CERTIFICATES: PluralForms = { two: 'dystysgrif', many: 'thystysgrif', other: 'tystysgrif' };
const ITEMS: PluralForms = { other: 'eitem' };
const PEOPLE: PluralForms = { two: 'berson', few: 'pherson', many: 'pherson', other: 'person' };

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : Number(value));

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
      openOnSite: 'Agor ar y wefan',
    },
  },
  notices: {
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
    complianceHeader: ['Enw', 'Enw defnyddiwr', 'E-bost', 'Rôl', 'Gwasanaethau', 'Cwrs', 'Statws', 'Dyddiad dyledus', 'Yn ddilys tan', 'Cynnydd (%)'],
    trainingStatuses: { overdue: 'Yn hwyr', 'due-soon': 'Yn ddyledus cyn bo hir', 'in-progress': 'Ar y gweill', done: 'Wedi\'i gwblhau' },
    teamHeader: ['Enw', 'Enw defnyddiwr', 'Uned', 'Yn adrodd yn uniongyrchol', 'Yn hwyr', 'Yn ddyledus cyn bo hir', 'Ar y gweill', 'Wedi\'i gwblhau',
      'Tystysgrifau yn dod i ben (60 diwrnod)', 'Yn dod i ben nesaf', 'Gweithgarwch diwethaf'],
  },
};
