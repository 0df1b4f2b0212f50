// The access-control matrix: every /api endpoint x persona, walked against the real
// platform. The expected statuses live in docs/ACCESS-MATRIX.md (the readable table); this file
// holds only how to call each endpoint. Every write runs on a fresh world, so one persona's success
// never changes what the next one meets. A route the app serves but the table lacks fails the test,
// so the table cannot fall behind the code.
//
// The personas and the objects they meet (a "world"):
//   learner          enrolled (ACTIVE) on {course}; owns {enrollment}, an attempt and {certificate}
//   other learner    enrolled on another instructor's course only
//   instructor       author of {course} (service UKPS) with {module} (quiz {quiz}, {question}) and {module2}
//   other instructor another service (UKFRS), author of a different course
//   admin            the seeded administrator
//   org admin        the administrator of the world's organisation, where the learner
//                    and {victim} belong; its statuses are the table "Organisations' personas"
//   named assessor   a STUDENT of that organisation whom it named assessor of {assessmentCourse}
//                    (the second column of "Organisations' personas")
// {pending} is a third user's PENDING enrolment on {course}; {victim} a fresh user for deletes.
//
// Run `MATRIX_PRINT=1 deno test … access_matrix_test.ts` to print the observed table.
import assert from 'node:assert/strict';
import { app, call, closePoolAfterTests, config, db, login, register, test, unique } from './helpers.ts';
import { scorm12Package } from './scorm_packages.ts';
import { signPending } from '../api/lib/credentials/sign.ts';
import { credentialUrls } from '../api/lib/credentials/urls.ts';

const PERSONAS = ['visitor', 'learner', 'other learner', 'instructor', 'other instructor', 'admin'] as const;
/** The personas of an organisation, in their own table (docs/ACCESS-MATRIX.md, "Organisations' personas"). */
const ORG_PERSONAS = ['org admin', 'named assessor'] as const;
type PersonaName = (typeof PERSONAS)[number] | (typeof ORG_PERSONAS)[number];

interface Persona {
  name: PersonaName;
  id?: string;
  username?: string;
  email?: string;
  password?: string;
  token?: string;
}

/** The objects a call may name in its path or body. */
interface World {
  course: string;
  module: string;
  module2: string;
  quiz: string;
  question: string;
  question2: string;
  enrollment: string;
  pending: string;
  certificate: string;
  code: string;
  learner: string;
  victim: string;
  rule: string;
  cpd: string;
  /** The learner's notice. */
  notice: string;
  /** A SCORM module (its own course of the instructor's, the learner enrolled), its SCO,
   * and the learner's open run-time session on it. */
  scormCourse: string;
  scormModule: string;
  sco: string;
  scormSession: string;
  /** A classroom session module (its own course of the instructor's, the learner enrolled), two
   * national dates of it, and the learner's booking of the first. */
  sessionCourse: string;
  sessionModule: string;
  classroomSession: string;
  classroomSession2: string;
  sessionBooking: string;
  /** An organisation (one for the whole walk) and a fresh top-level unit of it. */
  organisation: string;
  unit: string;
  /** A SCIM token of the organisation (its id). */
  scimToken: string;
  /** An email domain of the organisation. */
  domain: string;
  /** A practical assessment module (its own course of the instructor's, the learner enrolled; a
   * second signature needed) with two criteria, the first critical. The learner's competent record,
   * signed by the instructor and awaiting its countersignature, with an evidence file; the
   * instructor's draft of the learner (both criteria judged, competent: ready to sign); the named
   * assessor, named by the organisation for the course. */
  assessmentCourse: string;
  assessmentModule: string;
  criterion: string;
  criterion2: string;
  signedRecord: string;
  draftRecord: string;
  evidence: string;
  namedAssessor: string;
  /** The national issuer, its key that signed the learner's credential (of {certificate}, shared),
   * and the status list it is in. */
  issuer: string;
  credential: string;
  shareId: string;
  issuerKey: string;
  statusList: string;
  /** Recognition: an issuer the organisation trusts, an achievement of it counted for {course}, and
   * a credential of another issuer the learner uploaded. */
  trustedIssuer: string;
  trustedIssuerUrl: string;
  equivalence: string;
  heldCredential: string;
}

interface Endpoint {
  /** JSON body, built for the persona and world. */
  body?: (w: World, p: Persona) => unknown;
  /** multipart body instead of JSON. */
  form?: () => FormData;
  /** Steps before the call (e.g. opening a quiz before answering it). */
  prepare?: (w: World, p: Persona) => Promise<void>;
  /** Undoes a global change after each call (roles, settings). */
  restore?: () => Promise<void>;
  /** The token to send instead of the persona's own (e.g. a second session for logout). */
  token?: (p: Persona) => Promise<string | undefined>;
}

const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const MATRIX_DOMAIN = `matrix-${unique().slice(-8).toLowerCase()}.example.uk`;
/** The organisation's sign-in as a write finds it: set up with OpenID Connect, not switched on. */
const withSignIn = async (w: World) => {
  await db.sql`insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id)
    values (${w.organisation}, 'oidc', ${w.organisation}) on conflict (organisation_id) do nothing`;
};
const withDomain = async (w: World) => {
  await db.sql`insert into public.organisation_domains (domain, organisation_id) values (${w.domain}, ${w.organisation}) on conflict do nothing`;
};
const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const PNG = Uint8Array.from(atob(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
), (ch) => ch.charCodeAt(0));
const image = (field: string) => () => {
  const form = new FormData();
  form.append(field, new File([PNG], 'image.png', { type: 'image/png' }));
  return form;
};

async function openQuiz(w: World, p: Persona) {
  if (p.token) await call('GET', `/api/modules/${w.module}/quiz`, { token: p.token });
}

/** The world's practical due: valid a month from its signing, no second signature needed (so the
 * signed record signs it off), and the learner may ask to be assessed again. */
async function practicalDue(w: World) {
  await db.sql`update public.assessment_settings set needs_verifier = false, valid_months = 1 where module_id = ${w.assessmentModule}`;
}

/** The world's draft taken away: one draft per learner and module, so a new record may start. */
async function withoutDraft(w: World) {
  await db.sql`delete from public.assessment_records where id = ${w.draftRecord}`;
}

const settingsColumns = ['siteName', 'adminEmail', 'courseAccess', 'certificateTemplate', 'footerText', 'enableAnalytics', 'autoEnrollment'];

/** How to call each endpoint. Keys are `METHOD /api/path` with {placeholders} from the world. */
const ENDPOINTS: Record<string, Endpoint> = {
  'GET /api/user': {},
  'POST /api/register': {
    body: () => {
      const id = unique();
      return { username: `reg_${id}`, email: `reg_${id}@example.test`, name: 'Matrix Registrant', password: `pw-${id}-Secret`, confirmPassword: `pw-${id}-Secret` };
    },
  },
  'POST /api/login': { body: () => ({ username: loginUser.username, password: loginUser.password }) },
  'POST /api/logout': { token: async (p) => (p.username ? await login(p.username, p.password!) : undefined) },
  'GET /api/courses': {},
  'GET /api/courses/{course}': {},
  'GET /api/courses/{course}/modules': {},
  'GET /api/modules/{module}': {},
  'POST /api/modules/{module}/complete': {},
  'POST /api/courses/{course}/enroll': {},
  'PUT /api/enrollments/{enrollment}': { body: (w) => ({ id: w.enrollment, progress: 40, completed: false }) },
  'DELETE /api/enrollments/{enrollment}': {},
  'GET /api/modules/{module}/quiz': {},
  'POST /api/quizzes/{quiz}/attempts': {
    prepare: openQuiz,
    body: (w) => ({ answers: { [w.question]: [0], [w.question2]: [0] } }),
  },
  'GET /api/users/{learner}/enrollments': {},
  'GET /api/certificates': {},
  'GET /api/certificates/{certificate}/pdf': {},
  'GET /api/certificates/verify/{code}': {},
  'PUT /api/profile': { body: (_w, p) => ({ name: 'Matrix Persona', email: p.email ?? 'nobody@example.test' }) },
  'PUT /api/profile/language': { body: () => ({ language: 'cy' }) },
  'PUT /api/profile/password': {
    body: (_w, p) => ({ currentPassword: p.password ?? 'x', newPassword: p.password ?? 'abcdefgh', confirmPassword: p.password ?? 'abcdefgh' }),
  },
  // A password session is never a recovery link's: 403 for everyone signed in.
  'PUT /api/profile/password/recovery': { body: () => ({ newPassword: 'Matrix-recovered-1', confirmPassword: 'Matrix-recovered-1' }) },
  'POST /api/courses': {
    body: () => ({ title: 'Matrix course', description: 'A course created by the access matrix test.', service: 'UKPS' }),
  },
  'PUT /api/courses/{course}': { body: () => ({ title: 'Renamed by the matrix' }) },
  'DELETE /api/courses/{course}': {},
  'GET /api/courses/{course}/deletion': {},
  'POST /api/courses/{course}/archive': {},
  'POST /api/courses/{course}/restore': {},
  'POST /api/courses/{course}/cover': { form: image('coverImage') },
  'POST /api/courses/{course}/modules': {
    body: () => ({ title: 'Matrix module', content: 'Module content written by the access matrix test.' }),
  },
  'PUT /api/courses/{course}/modules/reorder': { body: (w) => ({ moduleIds: [w.module2, w.module] }) },
  'PUT /api/modules/{module}': { body: () => ({ title: 'Renamed module' }) },
  'DELETE /api/modules/{module}': {},
  'POST /api/modules/{module}/images': { form: image('moduleImage') },
  // The matrix's module is a content module: its author and admins get 409 (not a SCORM module);
  // scorm_test.ts proves the uploads themselves.
  'POST /api/modules/{module}/scorm': {
    form: () => {
      const form = new FormData();
      form.append('package', new File([scorm12Package() as Uint8Array<ArrayBuffer>], 'package.zip', { type: 'application/zip' }));
      return form;
    },
  },
  'GET /api/modules/{module}/scorm': {},
  'PUT /api/modules/{module}/scorm/settings': { body: () => ({ completionRule: 'passed', scoreIsQuizScore: false }) },
  'GET /api/modules/{module}/quiz/authoring': {},
  'PUT /api/modules/{module}/quiz': { body: () => ({ title: 'Matrix quiz', passingScore: 60 }) },
  'DELETE /api/modules/{module}/quiz': {},
  'POST /api/quizzes/{quiz}/questions': {
    body: () => ({ questionText: 'Which answer is right?', options: [{ text: 'This', isCorrect: true }, { text: 'That' }] }),
  },
  'PUT /api/quizzes/{quiz}/questions/reorder': { body: (w) => ({ questionIds: [w.question2, w.question] }) },
  'PUT /api/questions/{question}': {
    body: () => ({ questionText: 'Which answer is right now?', options: [{ text: 'This', isCorrect: true }, { text: 'That' }] }),
  },
  'DELETE /api/questions/{question}': {},
  'GET /api/instructor/stats': {},
  'GET /api/instructor/students': {},
  'GET /api/instructor/analytics': {},
  'POST /api/enrollments/{pending}/approve': {},
  'POST /api/enrollments/{pending}/decline': {},
  'GET /api/users': {},
  'POST /api/users': {
    body: () => {
      const id = unique();
      return { username: `added_${id}`, email: `added_${id}@example.test`, name: 'Matrix Added User' };
    },
  },
  'PUT /api/users/{learner}': { body: () => ({ name: 'Renamed Learner' }) },
  'DELETE /api/users/{victim}': {},
  'POST /api/users/{victim}/deactivate': {},
  'POST /api/users/{victim}/reactivate': {},
  'POST /api/users/{victim}/reset-password': {},
  'GET /api/organisations': {},
  'POST /api/organisations': {
    body: () => ({ name: 'Matrix organisation', code: `M${unique().slice(-12)}`, service: 'UKPS' }),
  },
  'GET /api/organisations/{organisation}/units': {},
  'POST /api/organisations/{organisation}/units': { body: () => ({ name: `Matrix unit ${unique()}` }) },
  'PUT /api/organisations/{organisation}/units/{unit}': { body: () => ({ name: `Matrix unit renamed ${unique()}` }) },
  'GET /api/organisations/{organisation}/scim': {},
  'POST /api/organisations/{organisation}/scim/tokens': { body: () => ({ label: 'Matrix identity system' }) },
  'DELETE /api/organisations/{organisation}/scim/tokens/{scimToken}': {},
  // Sign-in through the organisation's identity provider (sign_in_test.ts): its administrators'.
  'GET /api/organisations/{organisation}/sign-in': {},
  'PUT /api/organisations/{organisation}/sign-in': { body: (w) => ({ protocol: 'oidc', tenantId: w.organisation }) },
  'POST /api/organisations/{organisation}/sign-in/switch': { prepare: withSignIn, body: () => ({ enabled: false, passwordSignIn: true }) },
  'DELETE /api/organisations/{organisation}/sign-in': { prepare: withSignIn },
  // Its email domains: national administrators' alone.
  'POST /api/organisations/{organisation}/domains': { body: () => ({ domain: `matrix-${unique().slice(-8).toLowerCase()}.example.uk` }) },
  'DELETE /api/organisations/{organisation}/domains/{domain}': { prepare: withDomain },
  // How a work address signs in: anyone's to ask (without an address: 400).
  'GET /api/sign-in/organisation': {},
  // SCIM: the bearer must be a SCIM token of an organisation (scim_test.ts); a person's session is none.
  'GET /api/scim/v2/Users': {},
  'POST /api/scim/v2/Users': { body: () => ({ schemas: [SCIM_USER], userName: `matrix.${unique()}@example.test` }) },
  'GET /api/scim/v2/Users/{learner}': {},
  'PUT /api/scim/v2/Users/{learner}': { body: () => ({ schemas: [SCIM_USER], userName: `matrix.${unique()}@example.test` }) },
  'PATCH /api/scim/v2/Users/{learner}': { body: () => ({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }) },
  'DELETE /api/scim/v2/Users/{learner}': {},
  'GET /api/scim/v2/Groups': {},
  'POST /api/scim/v2/Groups': { body: () => ({ schemas: [SCIM_GROUP], displayName: `Matrix group ${unique()}` }) },
  'GET /api/scim/v2/Groups/{unit}': {},
  'PUT /api/scim/v2/Groups/{unit}': { body: () => ({ schemas: [SCIM_GROUP], displayName: `Matrix group ${unique()}` }) },
  'PATCH /api/scim/v2/Groups/{unit}': { body: () => ({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Matrix' }] }) },
  'DELETE /api/scim/v2/Groups/{unit}': {},
  'GET /api/scim/v2/ServiceProviderConfig': {},
  'GET /api/scim/v2/Schemas': {},
  'GET /api/scim/v2/ResourceTypes': {},
  'GET /api/roles': {},
  'PUT /api/roles/INSTRUCTOR/services': {
    body: () => ({ services: ['UKPS'] }),
    restore: async () => {
      await db.sql`update public.profiles p set services = array(select jsonb_array_elements_text(x.value))::public.service_code[]
        from jsonb_each(${db.sql.json(instructorServicesBefore)}) x where p.id = x.key::uuid`;
    },
  },
  'GET /api/settings': {},
  'PUT /api/settings': {
    // The settings as they are: an admin's save changes nothing the other suites rely on.
    body: () => Object.fromEntries(settingsColumns.map((k) => [k, settingsBefore[k]])),
  },
  'GET /api/audit': {},
  'GET /api/audit/export.csv': {},
  'POST /api/admin/users/import/preview': {
    body: () => ({ csv: `username,email,name\nprev_${unique()},prev_${unique()}@example.test,Matrix Preview\n` }),
  },
  'POST /api/admin/users/import': {
    body: () => {
      const id = unique();
      return { importId: crypto.randomUUID(), part: 1, rows: [{ line: 2, username: `imp_${id}`, email: `imp_${id}@example.test`, name: 'Matrix Imported' }] };
    },
  },
  'GET /api/admin/users/export.csv': {},
  // Recertification, revocation, mandatory training, compliance, learning record.
  'POST /api/courses/{course}/recertify': {},
  // Open Badges: issuers' documents and verification are anyone's; the passport its holder's; an
  // achievement is written by the course's editors; an issuer's key is rotated by its administrators.
  'GET /api/issuers/{issuer}': {},
  'GET /api/issuers/{issuer}/image.png': {},
  'GET /api/issuers/{issuer}/keys/{issuerKey}': {},
  'GET /api/issuers/{issuer}/status/{statusList}': {},
  'POST /api/issuers/{issuer}/keys/rotate': {},
  'GET /api/credentials/shared/{shareId}': {},
  'POST /api/credentials/verify': { body: () => ({ hello: 'matrix' }) },
  'GET /api/passport': {},
  'GET /api/passport/{credential}/credential.json': {},
  'GET /api/passport/{credential}/badge.png': {},
  'PATCH /api/passport/{credential}': { body: () => ({ shareEnabled: true }) },
  'GET /api/courses/{course}/achievement': {},
  'PUT /api/courses/{course}/achievement': { body: () => ({ name: 'Matrix', description: 'Matrix achievement', criteria: 'Completes the matrix' }) },
  'GET /api/admin/certificates': {},
  'POST /api/admin/certificates/{certificate}/revoke': { body: () => ({ reason: 'Issued in error (access matrix)' }) },
  // Reissue after a name correction.
  'POST /api/admin/certificates/{certificate}/reissue': {},
  'GET /api/required-training': {},
  'POST /api/required-training': { body: (w) => ({ courseId: w.course, role: 'INSTRUCTOR', service: 'UKPS' }) },
  'PUT /api/required-training/{rule}': { body: () => ({ dueWithinDays: 45 }) },
  'DELETE /api/required-training/{rule}': {},
  'GET /api/me/required-training': {},
  'GET /api/compliance': {},
  'GET /api/compliance/people': {},
  'GET /api/compliance/units': {},
  'GET /api/compliance/export.csv': {},
  // A line manager's team (none of these personas has reports: an empty team, every person 404).
  'GET /api/team': {},
  'GET /api/team/export.csv': {},
  'GET /api/team/{learner}': {},
  'GET /api/me/learning-record': {},
  'GET /api/me/learning-record.pdf': {},
  'GET /api/me/learning-record.csv': {},
  'GET /api/admin/users/{learner}/learning-record': {},
  'GET /api/admin/users/{learner}/learning-record.pdf': {},
  'GET /api/admin/users/{learner}/learning-record.csv': {},
  'GET /api/me/cpd-entries': {},
  'GET /api/me/cpd-entries/{cpd}': {},
  'POST /api/me/cpd-entries': {
    body: () => ({ activityDate: '2026-01-15', activity: 'Matrix reading', hours: 1.5, learnt: 'What the matrix taught' }),
  },
  'PUT /api/me/cpd-entries/{cpd}': {
    body: () => ({ activityDate: '2026-01-16', activity: 'Matrix reading again', hours: 2, learnt: 'More of the same' }),
  },
  'DELETE /api/me/cpd-entries/{cpd}': {},
  'GET /api/notifications': {},
  'PUT /api/notifications/{notice}/read': {},
  // The SCORM run-time.
  'GET /api/modules/{scormModule}/scorm/player': {},
  'POST /api/modules/{scormModule}/scorm/scos/{sco}/sessions': {},
  'PUT /api/scorm/sessions/{scormSession}': { body: () => ({ seq: 1, values: { 'cmi.core.lesson_status': 'incomplete' } }) },
  'GET /api/modules/{scormModule}/scorm/learners': {},
  // Classroom sessions.
  'GET /api/modules/{sessionModule}/sessions': {},
  'POST /api/modules/{sessionModule}/sessions': {
    body: () => ({ startsAt: '2099-07-14T09:00:00Z', endsAt: '2099-07-14T15:00:00Z', venueName: 'Matrix centre', capacity: 5 }),
  },
  'POST /api/modules/{sessionModule}/booking': { body: (w) => ({ sessionId: w.classroomSession }) },
  'GET /api/modules/{sessionModule}/trainers': {},
  'GET /api/sessions/{classroomSession}': {},
  'PATCH /api/sessions/{classroomSession}': { body: () => ({ note: 'Matrix note' }) },
  'POST /api/sessions/{classroomSession}/cancel': { body: () => ({ reason: 'Matrix cancellation' }) },
  'GET /api/sessions/{classroomSession}/bookings.csv': {},
  'POST /api/sessions/{classroomSession}/walk-ins': { body: (w) => ({ userId: w.learner }) },
  'GET /api/sessions/{classroomSession}/people': {},
  'PUT /api/sessions/{classroomSession}/register/{sessionBooking}': { body: () => ({ attendance: 'attended' }) },
  'POST /api/sessions/{classroomSession}/register/all-attended': {},
  'GET /api/bookings/requests': {},
  'PUT /api/bookings/{sessionBooking}': { body: (w) => ({ sessionId: w.classroomSession2 }) },
  'POST /api/bookings/{sessionBooking}/cancel': {},
  'POST /api/bookings/{sessionBooking}/accept': {},
  'POST /api/bookings/{sessionBooking}/decline': {},
  'POST /api/bookings/{sessionBooking}/approve': {},
  'POST /api/bookings/{sessionBooking}/refuse': {},
  'GET /api/instructor/sessions': {},
  // Practical assessments (practical_assessments_test.ts proves the rules in depth). The assessors of
  // the learner: the instructor (national, UKPS), the admin and the named assessor.
  'GET /api/modules/{assessmentModule}/assessment': {},
  'PUT /api/modules/{assessmentModule}/assessment': { body: () => ({ needsVerifier: true, validMonths: 24 }) },
  'GET /api/modules/{assessmentModule}/assessment/criteria': {},
  'POST /api/modules/{assessmentModule}/assessment/criteria': { body: () => ({ title: 'Matrix criterion added', critical: false }) },
  'POST /api/modules/{assessmentModule}/assessment/reassessment': { prepare: practicalDue, body: () => ({ reason: 'Matrix reassessment' }) },
  'GET /api/modules/{assessmentModule}/assessment/learners': {},
  'POST /api/modules/{assessmentModule}/assessment/records': { prepare: withoutDraft, body: (w) => ({ learnerId: w.learner }) },
  'PUT /api/assessment-criteria/{criterion}': { body: () => ({ title: 'Matrix critical criterion renamed', critical: true }) },
  // The criterion has judgements in the learner's records: kept (409) even for its author.
  'DELETE /api/assessment-criteria/{criterion}': {},
  'GET /api/assessment-records/{signedRecord}': {},
  'GET /api/assessment-records/{draftRecord}': {},
  'PUT /api/assessment-records/{draftRecord}': {
    body: (w) => ({
      judgements: [{ criterionId: w.criterion, result: 'competent' }, { criterionId: w.criterion2, result: 'not-yet-competent', note: 'Matrix note' }],
      outcome: 'competent',
      notes: 'Saved by the access matrix',
    }),
  },
  'DELETE /api/assessment-records/{draftRecord}': {},
  'POST /api/assessment-records/{draftRecord}/sign': {},
  'POST /api/assessment-records/{signedRecord}/verify': {},
  'POST /api/assessment-records/{draftRecord}/evidence': { form: image('file') },
  'GET /api/assessment-evidence/{evidence}': {},
  'GET /api/instructor/assessments': {},
  'GET /api/instructor/assessments/export.csv': {},
  'GET /api/courses/{assessmentCourse}/assessors': {},
  'POST /api/courses/{assessmentCourse}/assessors': { body: () => ({ personId: candidate }) },
  'DELETE /api/courses/{assessmentCourse}/assessors/{namedAssessor}': {},
  'GET /api/compliance/practicals': {},
  'GET /api/compliance/practicals/people': {},
  'POST /api/notifications/read-all': {},
  'POST /api/notifications/deliver': {},
  'GET /api/notifications/deliveries': {},
  'POST /api/notifications/{notice}/resend': {
    // Only a sent or failed email can be sent again: the world's notice as the worker leaves a sent one.
    prepare: async (w) => {
      await db.sql`update public.notifications set email_status = 'sent', email_attempts = 1, email_sent_at = now() where id = ${w.notice}`;
    },
  },
  'GET /api/me/notification-preferences': {},
  'PUT /api/me/notification-preferences': { body: () => ({ language: 'en-GB', email: { 'training-due-soon': false } }) },
  'GET /api/recognition/trusted-issuers': {},
  'POST /api/recognition/trusted-issuers': {
    body: (w) => ({ organisationId: w.organisation, issuerId: `https://matrix-${unique().slice(-8)}.example.org/issuer`, name: 'Matrix college' }),
  },
  'DELETE /api/recognition/trusted-issuers/{trustedIssuer}': {},
  'GET /api/recognition/equivalences': {},
  'POST /api/recognition/equivalences': {
    body: (w) => ({
      organisationId: w.organisation, courseId: w.course, issuerId: w.trustedIssuerUrl,
      achievementId: `https://matrix.example.org/achievements/${unique()}`, achievementName: 'Matrix driving',
    }),
  },
  'DELETE /api/recognition/equivalences/{equivalence}': {},
  'GET /api/passport/held': {},
  // Not a signed credential: 400 for anyone signed in (recognition_test.ts uploads real ones).
  'POST /api/passport/held': { body: () => ({ type: ['VerifiableCredential'], issuer: 'https://nobody.example.org' }) },
  'GET /api/passport/held/{heldCredential}/credential.json': {},
  'DELETE /api/passport/held/{heldCredential}': {},
};

// ---- The expected table, read from docs/ACCESS-MATRIX.md ----

const matrixFile = new URL('../../../docs/ACCESS-MATRIX.md', import.meta.url);
const expected = new Map<string, number[]>();
const expectedOrg = new Map<string, number[]>();
let orgSection = false;
for (const line of Deno.readTextFileSync(matrixFile).split('\n')) {
  if (line.startsWith('## ')) orgSection = line.startsWith("## Organisations' personas");
  const cells = line.split('|').map((s) => s.trim());
  const match = /^`((?:GET|POST|PUT|PATCH|DELETE) \/api\/\S*)`$/.exec(cells[1] ?? '');
  if (!match) continue;
  if (orgSection) expectedOrg.set(match[1], cells.slice(2, 2 + ORG_PERSONAS.length).map(Number));
  else expected.set(match[1], cells.slice(2, 2 + PERSONAS.length).map(Number));
}

// ---- Personas and worlds ----

async function persona(name: PersonaName, role: 'STUDENT' | 'INSTRUCTOR' | 'ADMIN', services: string[]): Promise<Persona> {
  const made = await register();
  await db.sql`update public.profiles set role = ${role}::public.user_role, services = ${db.sql.array(services)}::public.service_code[]
    where id = ${made.user.id}`;
  return { name, id: made.user.id, username: made.input.username, email: made.input.email, password: made.input.password, token: made.session.access_token };
}

const loginUser = (await register()).input;
const learner = await persona('learner', 'STUDENT', ['UKPS']);
const otherLearner = await persona('other learner', 'STUDENT', ['UKFRS']);
// AUX as well: the world's required-training rule is for AUX students, so the instructor may manage it
// while its auto-enrolment reaches none of the personas.
const instructor = await persona('instructor', 'INSTRUCTOR', ['UKPS', 'AUX']);
const otherInstructor = await persona('other instructor', 'INSTRUCTOR', ['UKFRS']);
const pendingUser = await persona('learner', 'STUDENT', ['UKPS']);
// A fresh administrator: password changes and the like never touch the seeded admin.
const admin = await persona('admin', 'ADMIN', ['UKPS', 'UKAS', 'UKFRS', 'UKHW', 'AUX', 'MISC']);
const personas: Persona[] = [{ name: 'visitor' }, learner, otherLearner, instructor, otherInstructor, admin];

const [settingsBefore] = await db.sql<Record<string, unknown>[]>`
  select site_name, admin_email, course_access::text, certificate_template::text, footer_text, enable_analytics, auto_enrollment
  from public.settings`;
/** The organisation's administrator; the learner is of the organisation (below). */
const orgAdmin = await persona('org admin', 'ADMIN', ['UKPS']);
/** A STUDENT of the organisation, which names them assessor of each world's practical course: an
 * assessor only by being named. */
const namedAssessor = await persona('named assessor', 'STUDENT', ['UKPS']);
const orgPersonas: Persona[] = [orgAdmin, namedAssessor];
/** A person of the organisation whom no world names: the one an administrator names assessor. */
const candidate = (await register()).user.id;

const instructorServicesBefore = Object.fromEntries(
  (await db.sql<{ id: string; services: string[] }[]>`
    select id, services::text[] as services from public.profiles where role = 'INSTRUCTOR'`).map((r) => [r.id, r.services]),
);

/** The other instructor's course, where the other learner is enrolled. */
const [otherCourse] = await db.sql<{ id: string }[]>`
  insert into public.courses (title, description, service, author_id, status)
  values ('Matrix other course', 'The other instructor''s course.', 'UKFRS', ${otherInstructor.id!}, 'ACTIVE') returning id`;
await db.sql`insert into public.enrollments (user_id, course_id, status) values (${otherLearner.id!}, ${otherCourse.id}, 'ACTIVE')`;

/** The organisation whose units the walk reads and writes. */
const [organisation] = await db.sql<{ id: string }[]>`
  insert into public.organisations (name, code, service)
  values ('Matrix organisation', ${`MX${unique().slice(-12)}`}, 'UKPS') returning id`;
await db.sql`update public.profiles set organisation_id = ${organisation.id}::uuid
  where id in (${learner.id!}::uuid, ${orgAdmin.id!}::uuid, ${namedAssessor.id!}::uuid, ${candidate}::uuid)`;

/** A fresh world: the instructor's course with two modules, a quiz of two questions, the learner's
 * enrolment, attempt and certificate, a pending enrolment, and a user to delete. One statement. */
async function freshWorld(withVictim = false, withPractical = false): Promise<World> {
  // A user to delete costs a sign-up (a bcrypt hash): made only for the row that deletes one.
  const victim = withVictim ? (await register()).user.id : crypto.randomUUID();
  // Of the organisation, as the learner: its administrator may act on them.
  if (withVictim) await db.sql`update public.profiles set organisation_id = ${organisation.id}::uuid where id = ${victim}::uuid`;
  const [w] = await db.sql<World[]>`
    with course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Matrix course', 'A course made for the access matrix.', 'UKPS', ${instructor.id!}, 'ACTIVE') returning id
    ), m1 as (
      insert into public.course_modules (course_id, title, content, order_index)
      select id, 'Matrix module one', 'Content of the first module of the matrix course.', 1 from course returning id
    ), m2 as (
      insert into public.course_modules (course_id, title, content, order_index)
      select id, 'Matrix module two', 'Content of the second module of the matrix course.', 2 from course returning id
    ), quiz as (
      insert into public.quizzes (module_id, title, passing_score) select id, 'Matrix quiz', 50 from m1 returning id
    ), q1 as (
      insert into public.quiz_questions (quiz_id, question_text, order_index, options, correct_answers)
      select id, 'First matrix question?', 1, '[{"text":"A","isCorrect":true},{"text":"B","isCorrect":false}]', '[0]' from quiz returning id
    ), q2 as (
      insert into public.quiz_questions (quiz_id, question_text, order_index, options, correct_answers)
      select id, 'Second matrix question?', 2, '[{"text":"A","isCorrect":true},{"text":"B","isCorrect":false}]', '[0]' from quiz returning id
    ), enrolment as (
      insert into public.enrollments (user_id, course_id, status) select ${learner.id!}::uuid, id, 'ACTIVE' from course returning id
    ), pending as (
      insert into public.enrollments (user_id, course_id, status) select ${pendingUser.id!}::uuid, id, 'PENDING' from course returning id
    ), attempt as (
      insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, completed_at)
      select ${learner.id!}::uuid, id, 1, 2, false, now() from quiz returning id
    ), certificate as (
      -- Expiring within 60 days, so the learner may start recertification.
      insert into public.certificates (user_id, course_id, learner_name, course_title, service, expires_at)
      select ${learner.id!}::uuid, id, 'Matrix Learner', 'Matrix course', 'UKPS', now() + interval '10 days' from course
      returning id, verification_code
    ), rule as (
      -- For a service none of the personas is in, so its auto-enrolment changes nothing they meet.
      insert into public.required_training (course_id, role, service, created_by)
      select id, 'STUDENT', 'AUX', ${instructor.id!}::uuid from course returning id
    ), cpd as (
      insert into public.cpd_entries (user_id, activity_date, activity, hours, learnt)
      values (${learner.id!}::uuid, current_date - 2, 'Matrix CPD', 1, 'Matrix notes') returning id
    ), scorm_course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Matrix SCORM course', 'A SCORM course made for the access matrix.', 'UKPS', ${instructor.id!}, 'ACTIVE') returning id
    ), scorm_module as (
      insert into public.course_modules (course_id, title, order_index, kind)
      select id, 'Matrix SCORM module', 1, 'scorm' from scorm_course returning id, course_id
    ), scorm_package as (
      insert into public.scorm_packages (module_id, course_id, version, title, scos, storage_prefix, file_count, unpacked_bytes)
      select id, course_id, '1.2', 'Matrix package', '[{"id":"sco-1","title":"One","href":"index.html"}]', id::text || '/1/', 1, 10
      from scorm_module returning module_id
    ), scorm_enrolment as (
      insert into public.enrollments (user_id, course_id, status) select ${learner.id!}::uuid, id, 'ACTIVE' from scorm_course returning id
    ), scorm_attempt as (
      insert into public.scorm_attempts (user_id, module_id, sco_id) select ${learner.id!}::uuid, id, 'sco-1' from scorm_module returning id
    ), scorm_session as (
      insert into public.scorm_sessions (attempt_id, user_id) select id, ${learner.id!}::uuid from scorm_attempt returning id
    ), notice as (
      insert into public.notifications (recipient_id, kind, person_id, course_id, occasion, title)
      select ${learner.id!}::uuid, 'training-overdue', ${learner.id!}::uuid, id, current_date, 'Matrix notice' from course
      returning id
    )
    select (select id from course) as course, (select id from m1) as module, (select id from m2) as module2,
           (select id from quiz) as quiz, (select id from q1) as question, (select id from q2) as question2,
           (select id from enrolment) as enrollment, (select id from pending) as pending,
           (select id from certificate) as certificate, (select verification_code from certificate) as code,
           ${learner.id!}::uuid as learner, ${victim}::uuid as victim, (select id from attempt) as attempt,
           (select id from rule) as rule, (select id from cpd) as cpd, (select id from notice) as notice,
           (select id from scorm_course) as scorm_course, (select id from scorm_module) as scorm_module, 'sco-1' as sco,
           (select id from scorm_session) as scorm_session`;
  const [unit] = await db.sql<{ id: string }[]>`
    insert into public.units (organisation_id, name) values (${organisation.id}, ${`Matrix unit ${unique()}`}) returning id`;
  const [scimToken] = await db.sql<{ id: string }[]>`
    insert into public.scim_tokens (organisation_id, label, token_hash, token_hint)
    values (${organisation.id}, 'Matrix', sha256(convert_to(${unique()}, 'UTF8')), 'abcd') returning id`;
  // A statement of its own: the dates' trigger reads their module, which a sibling insert would hide.
  const [sessions] = await db.sql<{ sessionCourse: string; sessionModule: string }[]>`
    with session_course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Matrix session course', 'A classroom course made for the access matrix.', 'UKPS', ${instructor.id!}, 'ACTIVE') returning id
    ), session_module as (
      insert into public.course_modules (course_id, title, content, order_index, kind)
      select id, 'Matrix session module', 'The introduction to the matrix classroom day.', 1, 'session' from session_course
      returning id, course_id
    ), session_enrolment as (
      insert into public.enrollments (user_id, course_id, status) select ${learner.id!}::uuid, id, 'ACTIVE' from session_course returning id
    )
    select (select id from session_course) as session_course, (select id from session_module) as session_module`;
  const [dates] = await db.sql<{ first: string; second: string }[]>`
    with first as (
      insert into public.classroom_sessions (module_id, course_id, starts_at, ends_at, venue_name, capacity, booking_closes_at)
      values (${sessions.sessionModule}, ${sessions.sessionCourse}, now() + interval '10 days', now() + interval '10 days 6 hours',
        'Matrix centre', 5, now() + interval '9 days') returning id
    ), second as (
      insert into public.classroom_sessions (module_id, course_id, starts_at, ends_at, venue_name, capacity, booking_closes_at)
      values (${sessions.sessionModule}, ${sessions.sessionCourse}, now() + interval '12 days', now() + interval '12 days 6 hours',
        'Matrix centre', 5, now() + interval '11 days') returning id
    )
    select (select id from first) as first, (select id from second) as second`;
  const [booking] = await db.sql<{ id: string }[]>`
    insert into public.session_bookings (session_id, module_id, user_id, status)
    values (${dates.first}, ${sessions.sessionModule}, ${learner.id!}, 'booked') returning id`;
  // The learner's credential of the certificate, signed and shared.
  const [pending] = await db.sql<{ id: string }[]>`select id from public.credentials where certificate_id = ${w.certificate}`;
  await signPending(db, credentialUrls(config), { credentialIds: [pending.id] });
  const [credential] = await db.sql<{ credential: string; shareId: string; issuerKey: string; statusList: string }[]>`
    update public.credentials set share_enabled = true where id = ${pending.id}
    returning id as credential, share_id, key_id as issuer_key, status_list_id as status_list`;
  const trustedIssuerUrl = `https://matrix-${unique().slice(-8)}.example.org/issuer`;
  const [recognition] = await db.sql<{ trustedIssuer: string; equivalence: string; heldCredential: string }[]>`
    with issuer as (
      insert into public.trusted_issuers (organisation_id, issuer_id, name)
      values (${organisation.id}, ${trustedIssuerUrl}, 'Matrix issuer') returning id
    ), equivalence as (
      insert into public.recognition_equivalences (organisation_id, course_id, issuer_id, achievement_id, achievement_name)
      select ${organisation.id}, ${w.course}, ${trustedIssuerUrl}, 'https://matrix.example.org/a1', 'Matrix achievement'
      from issuer returning id
    )
    select (select id from issuer) as trusted_issuer, (select id from equivalence) as equivalence,
           private.record_held_credential(${learner.id!}, '{}', encode(sha256(convert_to(${unique()}, 'UTF8')), 'hex'),
             ${trustedIssuerUrl}, 'Matrix issuer', 'https://matrix.example.org/a1', 'Matrix achievement', null, null, false,
             '{}') as held_credential`;
  return {
    ...w, issuer: 'national', ...credential, organisation: organisation.id, ...recognition, trustedIssuerUrl, unit: unit.id,
    scimToken: scimToken.id, domain: MATRIX_DOMAIN,
    sessionCourse: sessions.sessionCourse, sessionModule: sessions.sessionModule, classroomSession: dates.first,
    classroomSession2: dates.second, sessionBooking: booking.id, ...await (withPractical ? practicalWorld() : noPractical()),
  };
}

/** A row names the practical assessment's objects: only its worlds make them (a storage upload each). */
const PRACTICAL = /\{(assessmentCourse|assessmentModule|criterion|signedRecord|draftRecord|evidence|namedAssessor)\}/;

/** Ids of a practical assessment no world made, for the rows that name none. */
function noPractical() {
  const none = () => crypto.randomUUID();
  return {
    assessmentCourse: none(), assessmentModule: none(), criterion: none(), criterion2: none(), signedRecord: none(),
    draftRecord: none(), evidence: none(), namedAssessor: none(),
  };
}

const EVIDENCE_BUCKET = 'assessment-evidence';
const storageHeaders = { authorization: `Bearer ${config.serviceRoleKey}`, apikey: config.serviceRoleKey };

/** The world's practical assessment (see World), its evidence file stored as the api function stores one. */
async function practicalWorld() {
  // Statements of their own, as the sessions': the settings' and criteria's triggers read their module.
  const [course] = await db.sql<{ assessmentCourse: string; assessmentModule: string }[]>`
    with assessment_course as (
      insert into public.courses (title, description, service, author_id, status)
      values ('Matrix practical course', 'A practical assessment course made for the access matrix.', 'UKPS', ${instructor.id!}, 'ACTIVE')
      returning id
    ), assessment_module as (
      insert into public.course_modules (course_id, title, content, order_index, kind)
      select id, 'Matrix practical', 'The introduction to the matrix practical.', 1, 'assessment' from assessment_course returning id
    ), assessment_enrolment as (
      insert into public.enrollments (user_id, course_id, status) select ${learner.id!}::uuid, id, 'ACTIVE' from assessment_course
    ), named as (
      insert into public.course_assessors (course_id, person_id, organisation_id, named_by)
      select id, ${namedAssessor.id!}::uuid, ${organisation.id}::uuid, ${orgAdmin.id!}::uuid from assessment_course
    )
    select (select id from assessment_course) as assessment_course, (select id from assessment_module) as assessment_module`;
  const signedRecord = crypto.randomUUID();
  const draftRecord = crypto.randomUUID();
  const objectName = `${signedRecord}/${crypto.randomUUID()}.png`;
  const [parts] = await db.sql<{ criterion: string; criterion2: string; evidence: string }[]>`
    with settings as (
      insert into public.assessment_settings (module_id, needs_verifier, valid_months) values (${course.assessmentModule}, true, 12)
    ), criteria as (
      insert into public.assessment_criteria (module_id, order_index, title, critical)
      values (${course.assessmentModule}, 1, 'Matrix critical criterion', true), (${course.assessmentModule}, 2, 'Matrix criterion', false)
      returning id, order_index, title, critical
    ), record as (
      insert into public.assessment_records (id, module_id, course_id, learner_id, cycle, assessor_id, outcome, learner_name, assessor_name)
      values (${signedRecord}, ${course.assessmentModule}, ${course.assessmentCourse}, ${learner.id!}, 1, ${instructor.id!},
             'competent', 'Matrix Learner', 'Matrix Instructor')
      returning id
    ), judgements as (
      insert into public.assessment_judgements (record_id, criterion_id, result, criterion_title, critical)
      select r.id, c.id, 'competent', c.title, c.critical from record r cross join criteria c
    ), evidence as (
      insert into public.assessment_evidence (record_id, object_name, content_type, size_bytes, original_name, uploaded_by)
      select id, ${objectName}, 'image/png', ${PNG.byteLength}, 'matrix.png', ${instructor.id!}::uuid from record returning id
    )
    select (select id from criteria where order_index = 1) as criterion, (select id from criteria where order_index = 2) as criterion2,
           (select id from evidence) as evidence`;
  // Signed once its judgements and evidence are in (a signed record's parts never change); then the
  // draft, one per learner and module.
  await db.sql`update public.assessment_records set signed_at = now() where id = ${signedRecord}`;
  await db.sql`
    with record as (
      insert into public.assessment_records (id, module_id, course_id, learner_id, cycle, assessor_id, outcome, learner_name, assessor_name)
      values (${draftRecord}, ${course.assessmentModule}, ${course.assessmentCourse}, ${learner.id!}, 1, ${instructor.id!},
             'competent', 'Matrix Learner', 'Matrix Instructor')
      returning id
    )
    insert into public.assessment_judgements (record_id, criterion_id, result, criterion_title, critical)
    select r.id, c.id, 'competent', c.title, c.critical from record r cross join public.assessment_criteria c
    where c.module_id = ${course.assessmentModule}`;
  const stored = await fetch(`${config.supabaseUrl}/storage/v1/object/${EVIDENCE_BUCKET}/${objectName}`, {
    method: 'POST', headers: { ...storageHeaders, 'content-type': 'image/png' }, body: PNG,
  });
  assert.ok(stored.ok, `evidence upload: ${stored.status} ${await stored.text()}`);
  return { ...course, ...parts, signedRecord, draftRecord, namedAssessor: namedAssessor.id! };
}

/** Removes a world's course (modules, quizzes and enrolments go with it), so the other suites
 * sharing this platform never meet the matrix's data. */
async function removeWorld(w: World) {
  const files = await db.sql<{ name: string }[]>`
    select o.name from storage.objects o join public.assessment_records r on split_part(o.name, '/', 1) = r.id::text
    where o.bucket_id = ${EVIDENCE_BUCKET} and r.course_id = ${w.assessmentCourse}`;
  if (files.length > 0) {
    const removed = await fetch(`${config.supabaseUrl}/storage/v1/object/${EVIDENCE_BUCKET}`, {
      method: 'DELETE', headers: { ...storageHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ prefixes: files.map((f) => f.name) }),
    });
    await removed.body?.cancel();
  }
  await db.sql`select private.erase_course(id) from public.courses
    where id in (${w.course}, ${w.scormCourse}, ${w.sessionCourse}, ${w.assessmentCourse})`;
  await db.sql`delete from public.cpd_entries where id = ${w.cpd}`;
  await db.sql`delete from public.units where organisation_id = ${w.organisation} and parent_id is not null`;
  await db.sql`delete from public.units where id = ${w.unit}`;
}

function fill(template: string, w: World): string {
  return template.replace(/\{(\w+)\}/g, (_, key: keyof World) => String(w[key]));
}

async function callAs(key: string, endpoint: Endpoint, p: Persona, w: World): Promise<number> {
  const [method, template] = key.split(' ');
  await endpoint.prepare?.(w, p);
  const token = endpoint.token ? await endpoint.token(p) : p.token;
  const answer = endpoint.form
    ? await call(method, fill(template, w), { token, raw: endpoint.form() })
    : await call(method, fill(template, w), { token, body: endpoint.body?.(w, p) });
  assert.ok(answer.status < 500, `${key} as ${p.name}: ${answer.status} ${answer.text}`);
  await endpoint.restore?.();
  return answer.status;
}

// ---- The walk ----

test('the matrix lists every route the api serves, and nothing it does not', async () => {
  const served = new Set(
    app.routes
      .filter((r) => ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(r.method) && !r.path.endsWith('*'))
      .map((r) => `${r.method} ${r.path}`),
  );
  const listed = new Set(Object.keys(ENDPOINTS).map((k) => k.replace(/\{\w+\}|INSTRUCTOR/g, ':p')));
  const normalise = (k: string) => k.replace(/:\w+/g, ':p');
  const missing = [...served].filter((k) => !listed.has(normalise(k)));
  assert.deepEqual(missing, [], 'routes with no row in the access matrix');
  const tableMissing = Object.keys(ENDPOINTS).filter((k) => !expected.has(k));
  assert.deepEqual(tableMissing, [], 'endpoints with no row in docs/ACCESS-MATRIX.md');
  const stale = [...expected.keys()].filter((k) => !(k in ENDPOINTS));
  assert.deepEqual(stale, [], 'rows in docs/ACCESS-MATRIX.md for no endpoint');
  const orgMissing = Object.keys(ENDPOINTS).filter((k) => !expectedOrg.has(k));
  assert.deepEqual(orgMissing, [], "endpoints with no row in docs/ACCESS-MATRIX.md's Organisations' personas");
  const orgStale = [...expectedOrg.keys()].filter((k) => !(k in ENDPOINTS));
  assert.deepEqual(orgStale, [], "rows in the Organisations' personas table for no endpoint");
});

const observed: string[] = [];
const observedOrg: string[] = [];
let cases = 0;
const shared = await freshWorld(false, true);
// Password and session changes go last, so they cannot disturb the other rows.
const order = Object.keys(ENDPOINTS).sort((a, b) => Number(a.includes('/profile/password')) - Number(b.includes('/profile/password')));

for (const key of order) {
  test(`access matrix: ${key}`, async () => {
    const endpoint = ENDPOINTS[key];
    const writes = !key.startsWith('GET ');
    const statuses: number[] = [];
    for (const p of personas) {
      const world = writes ? await freshWorld(key.includes('{victim}'), PRACTICAL.test(key)) : shared;
      statuses.push(await callAs(key, endpoint, p, world));
      cases += 1;
      if (writes) await removeWorld(world);
    }
    const orgStatuses: number[] = [];
    for (const p of orgPersonas) {
      const world = writes ? await freshWorld(key.includes('{victim}'), PRACTICAL.test(key)) : shared;
      orgStatuses.push(await callAs(key, endpoint, p, world));
      cases += 1;
      if (writes) await removeWorld(world);
    }
    observed.push(`| \`${key}\` | ${statuses.join(' | ')} |`);
    observedOrg.push(`| \`${key}\` | ${orgStatuses.join(' | ')} |`);
    if (!Deno.env.get('MATRIX_PRINT')) {
      assert.deepEqual(statuses, expected.get(key), `${key}: ${PERSONAS.join(', ')}`);
      assert.deepEqual(orgStatuses, expectedOrg.get(key), `${key}: ${ORG_PERSONAS.join(', ')}`);
    }
  });
}

// ---- Auth and Storage called directly: the second table of docs/ACCESS-MATRIX.md ----
// Each persona calls with the anon key as `apikey` and its own token (a visitor: the anon key), as
// supabase-js does. A list's cell also says what it returned: `200 (none)` or `200 (files)`.

const DIRECT: Record<string, (w: World, p: Persona) => Promise<string>> = {
  'POST /storage/v1/object/list/course-covers': async (w, p) => {
    const answer = await direct('POST', '/storage/v1/object/list/course-covers', p, JSON.stringify({ prefix: w.course }));
    const body = await answer.json();
    return answer.status === 200 ? `200 (${Array.isArray(body) && body.length > 0 ? 'files' : 'none'})` : String(answer.status);
  },
  'POST /storage/v1/object/course-covers/{course}/planted.png': async (w, p) =>
    status(await direct('POST', `/storage/v1/object/course-covers/${w.course}/planted.png`, p, PNG_BYTES, 'image/png')),
  'DELETE /storage/v1/object/course-covers/{cover}': async (w, p) => {
    const answer = await direct('DELETE', `/storage/v1/object/course-covers/${w.course}/matrix.png`, p);
    await answer.body?.cancel();
    const [kept] = await db.sql`select 1 from storage.objects where bucket_id = 'course-covers' and name = ${`${w.course}/matrix.png`}`;
    return kept ? `${answer.status} (kept)` : `${answer.status} (deleted)`;
  },
  'GET /auth/v1/admin/users': async (_w, p) => status(await direct('GET', '/auth/v1/admin/users', p)),
  'POST /auth/v1/signup (username = another account\'s email)': async (_w, p) => status(await direct('POST', '/auth/v1/signup', p,
    JSON.stringify({ email: `${unique()}@example.test`, password: `pw-${unique()}-secret`, data: { username: learner.email, name: 'Squatter' } }), 'application/json')),
  // 16.3: with a session of its own (the persona's shared one stays as it is), 25 hours old.
  'PUT /auth/v1/user (password, session over 24 hours old, no emailed code)': async (_w, p) => {
    const session = await oldSession(p);
    try {
      const answer = await direct('PUT', '/auth/v1/user', { ...p, token: session ?? undefined },
        JSON.stringify({ password: `pw-${unique()}-taken` }), 'application/json');
      const body = await answer.json().catch(() => ({}));
      return answer.status === 400 ? `400 (${body.error_code})` : String(answer.status);
    } finally {
      if (session) await direct('POST', '/auth/v1/logout?scope=local', { ...p, token: session }).then(status);
    }
  },
  'PUT /auth/v1/user (email)': async (_w, p) => {
    const session = await oldSession(p);
    try {
      const answer = await direct('PUT', '/auth/v1/user', { ...p, token: session ?? undefined },
        JSON.stringify({ email: `${unique()}@example.test` }), 'application/json');
      await answer.body?.cancel();
      if (!p.id) return String(answer.status);
      const [row] = await db.sql<{ email: string }[]>`select email from auth.users where id = ${p.id}::uuid`;
      return `${answer.status} (${row.email === p.email ? 'unchanged until both addresses confirm' : 'changed'})`;
    } finally {
      if (p.id) await db.sql`update auth.users set email_change = '', email_change_token_new = '', email_change_token_current = '',
          email_change_confirm_status = 0, email_change_sent_at = null where id = ${p.id}::uuid`;
      if (session) await direct('POST', '/auth/v1/logout?scope=local', { ...p, token: session }).then(status);
    }
  },
  // A reset link for any address answers alike whether the address has an account or not.
  'POST /auth/v1/recover (known and unknown address)': async (_w, p) => {
    const ask = async (email: string) => {
      const answer = await direct('POST', '/auth/v1/recover', p, JSON.stringify({ email }), 'application/json');
      return `${answer.status} ${await answer.text()}`;
    };
    const known = await ask(learner.email ?? '');
    const unknown = await ask(`nobody.${unique()}@example.test`);
    return known === unknown ? `${known.split(' ')[0]} (the same answer)` : `${known} / ${unknown}`;
  },
  'POST /auth/v1/admin/generate_link': async (_w, p) =>
    status(await direct('POST', '/auth/v1/admin/generate_link', p, JSON.stringify({ type: 'recovery', email: learner.email }), 'application/json')),
  'POST /auth/v1/signup (no apikey)': async () => {
    const answer = await fetch(`${config.supabaseUrl}/auth/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return status(answer);
  },
};

const PNG_BYTES = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

async function status(answer: Response): Promise<string> {
  await answer.body?.cancel();
  return String(answer.status);
}

/** A new session of the persona's (none for a visitor) that looks 25 hours old. */
async function oldSession(p: Persona): Promise<string | null> {
  if (!p.email || !p.password) return null;
  const answer = await fetch(`${config.supabaseUrl}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: p.email, password: p.password }),
  });
  assert.equal(answer.status, 200);
  const token = String((await answer.json()).access_token);
  const claims = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  await db.sql`update auth.sessions set created_at = now() - interval '25 hours' where id = ${claims.session_id}::uuid`;
  return token;
}

function direct(method: string, path: string, p: Persona, body?: BodyInit, type?: string): Promise<Response> {
  const headers: Record<string, string> = { apikey: config.anonKey, authorization: `Bearer ${p.token ?? config.anonKey}` };
  if (type) headers['content-type'] = type;
  return fetch(`${config.supabaseUrl}${path}`, { method, headers, body });
}

const expectedDirect = new Map<string, string[]>();
for (const line of Deno.readTextFileSync(matrixFile).split('\n')) {
  const cells = line.split('|').map((s) => s.trim());
  const match = /^`((?:GET|POST|PUT|DELETE) \/(?:auth|storage)\/v1\/[^`]*)`$/.exec(cells[1] ?? '');
  if (match) expectedDirect.set(match[1], cells.slice(2, 2 + PERSONAS.length));
}

test('direct Auth and Storage: every row of the table is walked, and nothing else', async () => {
  assert.deepEqual([...expectedDirect.keys()].sort(), Object.keys(DIRECT).sort());
});

for (const [key, run] of Object.entries(DIRECT)) {
  test(`access matrix (direct): ${key}`, async () => {
    const results: string[] = [];
    for (const p of personas) {
      const w = await freshWorld();
      // A stored cover of the world's course, as the upload path would leave it.
      await db.sql`insert into storage.objects (bucket_id, name) values ('course-covers', ${`${w.course}/matrix.png`})`;
      try {
        results.push(await run(w, p));
      } finally {
        await db.sql`delete from storage.objects where bucket_id = 'course-covers' and name like ${`${w.course}/%`}`;
        await removeWorld(w);
      }
    }
    observed.push(`| \`${key}\` | ${results.join(' | ')} |`);
    if (Deno.env.get('MATRIX_PRINT')) console.log(observed.at(-1));
    else assert.deepEqual(results, expectedDirect.get(key), `${key}: ${PERSONAS.join(', ')}`);
  });
}

// ---- Object level: what a refused persona would see of another's objects in lists ----

test('object level: others see none of the learner\'s enrolment, certificate or progress in their own lists', async () => {
  const w = await freshWorld();
  try {
    const certificates = await call('GET', '/api/certificates', { token: otherLearner.token });
    assert.ok(!JSON.stringify(certificates.json).includes(w.certificate), 'another learner lists the learner\'s certificate');
    const course = await call('GET', `/api/courses/${w.course}`, { token: otherLearner.token });
    assert.equal(course.json.enrollment, null, 'another learner sees the learner\'s enrolment on the course');
    const students = await call('GET', '/api/instructor/students?pageSize=100', { token: otherInstructor.token });
    assert.ok(!JSON.stringify(students.json).includes(learner.id!), 'another instructor lists the learner');
    const enrolments = await call('GET', `/api/users/${learner.id}/enrollments`, { token: otherInstructor.token });
    assert.deepEqual(enrolments.json, [], 'another instructor sees the learner\'s enrolments');
    const own = await call('GET', `/api/users/${learner.id}/enrollments`, { token: instructor.token });
    assert.ok(own.json.some((e: { id: string }) => e.id === w.enrollment), 'the course\'s instructor sees the enrolment');
  } finally {
    await removeWorld(w);
  }
});

test('object level: the assessment lists hold only the learners the caller assesses', async () => {
  const w = await freshWorld(false, true);
  try {
    const learnersOf = async (p: Persona) => {
      const answer = await call('GET', `/api/modules/${w.assessmentModule}/assessment/learners`, { token: p.token });
      assert.equal(answer.status, 200, `${p.name}: ${answer.text}`);
      return answer.json.items.map((i: { learnerId: string }) => i.learnerId);
    };
    for (const p of [instructor, admin, namedAssessor]) assert.deepEqual(await learnersOf(p), [learner.id], `${p.name} assesses the learner`);
    for (const p of [learner, otherLearner, otherInstructor, orgAdmin]) assert.deepEqual(await learnersOf(p), [], `${p.name} lists no one`);

    const standing = async (p: Persona) =>
      (await call('GET', `/api/modules/${w.assessmentModule}/assessment`, { token: p.token })).json.isAssessor;
    assert.equal(await standing(namedAssessor), true);
    assert.equal(await standing(orgAdmin), false, 'an organisation\'s administrator is no assessor by being one');
    assert.equal(await standing(learner), false);

    const signed = async (p: Persona) => {
      const answer = await call('GET', '/api/instructor/assessments?state=signed&pageSize=100', { token: p.token });
      return answer.json.items.some((r: { recordId: string }) => r.recordId === w.signedRecord);
    };
    assert.equal(await signed(namedAssessor), true, 'the named assessor\'s queue holds the learner\'s signed record');
    assert.equal(await signed(otherInstructor), false, 'another service\'s instructor sees the learner\'s record');
    assert.equal(await signed(learner), false, 'the learner is no assessor of themselves');

    const assessors = async (p: Persona) =>
      (await call('GET', `/api/courses/${w.assessmentCourse}/assessors`, { token: p.token })).json.map((a: { personId: string }) => a.personId);
    assert.deepEqual(await assessors(orgAdmin), [namedAssessor.id]);
    assert.deepEqual(await assessors(instructor), [namedAssessor.id], 'the course\'s author sees who assesses on it');
    assert.deepEqual(await assessors(otherInstructor), []);
    assert.deepEqual(await assessors(learner), []);
  } finally {
    await removeWorld(w);
  }
});

// ---- Field level: a body may not carry what its sender may not set ----

test('field level: role, services, progress, score, author or status in a body are refused and change nothing', async () => {
  const w = await freshWorld();
  try {
    const refused = async (method: string, path: string, token: string | undefined, body: unknown, field: string) => {
      const answer = await call(method, path, { token, body });
      assert.equal(answer.status, 400, `${method} ${path} with ${field}: ${answer.text}`);
      assert.equal(answer.json.fields?.[field], 'This field cannot be set here', `${method} ${path}: ${answer.text}`);
    };
    await refused('PUT', '/api/profile', learner.token, { name: 'Learner', email: learner.email, role: 'ADMIN' }, 'role');
    await refused('PUT', '/api/profile', learner.token, { name: 'Learner', email: learner.email, services: ['UKAS'] }, 'services');
    const [profile] = await db.sql`select role::text as role, services::text[] as services from public.profiles where id = ${learner.id!}`;
    assert.deepEqual(profile, { role: 'STUDENT', services: ['UKPS'] });

    await refused('PUT', `/api/enrollments/${w.enrollment}`, learner.token, { progress: 100, score: 100 }, 'score');
    // progress and completed belong to the specification's body, but the server computes them.
    const stepped = await call('PUT', `/api/enrollments/${w.enrollment}`, { token: learner.token, body: { progress: 100, completed: true } });
    assert.equal(stepped.status, 200, stepped.text);
    const [enrolment] = await db.sql`select progress, completed from public.enrollments where id = ${w.enrollment}`;
    assert.deepEqual(enrolment, { progress: 0, completed: false });

    await openQuiz(w, learner);
    await refused('POST', `/api/quizzes/${w.quiz}/attempts`, learner.token, { answers: { [w.question]: [1] }, score: 2, passed: true }, 'score');
    const [{ passed }] = await db.sql`select count(*)::int as passed from public.quiz_attempts where quiz_id = ${w.quiz} and passed`;
    assert.equal(passed, 0);

    await refused('POST', `/api/courses/${w.course}/enroll`, otherLearner.token, { status: 'ACTIVE' }, 'status');
    await refused('POST', '/api/courses', instructor.token,
      { title: 'Matrix course', description: 'A course with an author it may not choose.', service: 'UKPS', authorId: otherInstructor.id }, 'authorId');
    await refused('PUT', `/api/courses/${w.course}`, instructor.token, { title: 'Matrix course', author: otherInstructor.id }, 'author');
    const [course] = await db.sql`select author_id from public.courses where id = ${w.course}`;
    assert.equal(course.authorId, instructor.id);
    await refused('PUT', `/api/users/${learner.id}`, admin.token, { name: 'Learner', progress: 100 }, 'progress');
    await refused('POST', '/api/register', undefined, { ...{ username: `x_${unique()}`, email: `x_${unique()}@example.test`, name: 'X Person', password: 'pw-long-Secret', confirmPassword: 'pw-long-Secret' }, role: 'ADMIN' }, 'role');
  } finally {
    await removeWorld(w);
  }
});

test('access matrix: figures', async () => {
  await removeWorld(shared);
  await db.sql`select private.erase_course(id) from public.courses
    where id = ${otherCourse.id} or (title = 'Matrix course' and author_id in (${admin.id!}, ${instructor.id!}))`;
  if (Deno.env.get('MATRIX_PRINT')) console.log(`${observed.join('\n')}\n\nOrganisations' personas:\n${observedOrg.join('\n')}`);
  console.log(`access matrix: ${cases} endpoint x persona cases`);
  assert.equal(cases, Object.keys(ENDPOINTS).length * (PERSONAS.length + ORG_PERSONAS.length));
});

closePoolAfterTests();
