// The database API's access matrix: every public table x persona x select, insert,
// update and delete, as SQL a client of Supabase's REST API could send with the anon key or a
// user's JWT (role anon or authenticated, the claims in request.jwt.claims). The expected answers
// are the second table of docs/ACCESS-MATRIX.md; every statement runs in a transaction that is
// rolled back, so one persona's permitted write never changes what the next one meets. A public
// table without rows in the matrix fails the test.
//
// "yes" means the statement reached the persona's target row (it was returned, written or removed);
// "no" means grants, column privileges or row-level security kept it out (an error or no row).
// Run with MATRIX_PRINT=1 to print the observed table.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends, createUser, ids, personas, rolledBack, sqlState, type Persona, type TestDatabase,
} from './helpers/database';

// The learner belongs to an organisation (A) and a unit, with a line manager; the
// admin is national (no organisation). The organisation personas: A's administrator, the learner's
// manager, a manager of another unit of A, and a learner of organisation B.
const PERSONAS = [
  'visitor', 'learner', 'other learner', 'instructor', 'other instructor', 'admin',
  'org admin', 'manager', 'other-unit manager', 'other-org learner',
] as const;
const OPERATIONS = ['select', 'insert', 'update', 'delete'] as const;
type Operation = (typeof OPERATIONS)[number];

const otherLearner: Persona = { id: '00000000-0000-4000-a000-0000000000f1', email: 'matrix.learner@example.uk' };
const fireInstructor: Persona = { id: '00000000-0000-4000-a000-0000000000f2', email: 'matrix.fire@example.uk' };
const orgAdmin: Persona = { id: '00000000-0000-4000-a000-0000000000f3', email: 'matrix.orgadmin@example.uk' };
const manager: Persona = { id: '00000000-0000-4000-a000-0000000000f4', email: 'matrix.manager@example.uk' };
const otherUnitManager: Persona = { id: '00000000-0000-4000-a000-0000000000f5', email: 'matrix.unitmanager@example.uk' };
const otherOrgLearner: Persona = { id: '00000000-0000-4000-a000-0000000000f6', email: 'matrix.orgb@example.uk' };
const orgA = '80000000-0000-4000-a000-0000000000a1';
const orgB = '80000000-0000-4000-a000-0000000000a2';
const orgEmpty = '80000000-0000-4000-a000-0000000000a3';
const unitA = '80000000-0000-4000-a000-0000000000b1';
const unitA2 = '80000000-0000-4000-a000-0000000000b2';
const unitEmpty = '80000000-0000-4000-a000-0000000000b3';
const unitB = '80000000-0000-4000-a000-0000000000b4';
const who: Record<(typeof PERSONAS)[number], Persona | null> = {
  visitor: null,
  learner: personas.learner,
  'other learner': otherLearner,
  instructor: personas.instructor,
  'other instructor': fireInstructor,
  admin: personas.admin,
  'org admin': orgAdmin,
  manager,
  'other-unit manager': otherUnitManager,
  'other-org learner': otherOrgLearner,
};

const course1 = ids.course(1);
/** The instructor's course that nobody started: a course with learner records is never deleted
 * (course-archive.test.ts), so the delete policy is walked on this one. */
const unstartedCourse = '10000000-0000-4000-a000-0000000000e1';
const cpdEntry = '80000000-0000-4000-a000-0000000000f1';
const rule = '80000000-0000-4000-a000-0000000000f2';
const notice = '80000000-0000-4000-a000-0000000000f3';
const scormAttempt = '80000000-0000-4000-a000-0000000000f5';
const trustedIssuer = '80000000-0000-4000-a000-0000000000c1';
const equivalence = '80000000-0000-4000-a000-0000000000c2';
const heldCredential = '80000000-0000-4000-a000-0000000000c3';
const scormSession = '80000000-0000-4000-a000-0000000000f6';
/** Organisation A's SCIM token: its id, and the token itself (only its sha256 is stored). */
const scimToken = '80000000-0000-4000-a000-0000000000f8';
const SCIM_TOKEN = `scim_${'a1'.repeat(32)}`;
/** A test sign-in through organisation A's provider. */
const signInTest = '80000000-0000-4000-a000-0000000000fa';

/** Per table: the target row (the learner's record, the instructor's course content, ...), and
 * for each operation the statement that tries to reach it. Inserts make a row of the same kind
 * for the caller (their own enrolment, course, CPD entry) or, where no one may, any row. */
/** A session module of course 1, a national date of it trained by the other instructor, the learner's booking. */
const sessionModule = '20000000-0000-4000-a000-0000000000fa';
const classroomSession = '80000000-0000-4000-a000-0000000000fb';
const sessionBooking = '80000000-0000-4000-a000-0000000000fc';

/** A SCORM module of course 1 with its package. */
const scormModule = '20000000-0000-4000-a000-0000000000f9';

/** A practical assessment module of course 1 with its settings and a criterion, a second one
 * without settings (for the insert), and the learner's record of it that the instructor signed. */
const practicalModule = '20000000-0000-4000-a000-0000000001a1';
const practicalModule2 = '20000000-0000-4000-a000-0000000001a2';
const criterion = '80000000-0000-4000-a000-0000000001a1';
/** A criterion nobody was judged on yet (one with judgements is kept with the records). */
const unjudgedCriterion = '80000000-0000-4000-a000-0000000001a2';
const assessmentRecord = '80000000-0000-4000-a000-0000000001a3';
const evidence = '80000000-0000-4000-a000-0000000001a4';
const reassessment = '80000000-0000-4000-a000-0000000001a5';

const TABLES: Record<string, Record<Operation, string>> = {
  profiles: {
    select: `select 1 from public.profiles where id = '${ids.student}'`,
    insert: `insert into public.profiles (id, username, email, name) values (gen_random_uuid(), 'matrix_x', 'matrix.x@example.uk', 'Matrix X')`,
    update: `update public.profiles set name = name where id = '${ids.student}'`,
    delete: `delete from public.profiles where id = '${ids.student}'`,
  },
  settings: {
    select: 'select 1 from public.settings',
    insert: 'insert into public.settings (id) values (false)',
    update: 'update public.settings set site_name = site_name',
    delete: 'delete from public.settings',
  },
  courses: {
    select: `select 1 from public.courses where id = '${course1}'`,
    insert: `insert into public.courses (title, description, service, author_id)
             values ('Matrix course', 'A course from the table matrix.', 'UKPS', auth.uid())`,
    update: `update public.courses set title = title where id = '${course1}'`,
    delete: `delete from public.courses where id = '${unstartedCourse}'`,
  },
  course_modules: {
    select: `select id from public.course_modules where id = '${ids.module(1, 1)}'`,
    insert: `insert into public.course_modules (course_id, title, content, order_index)
             values ('${course1}', 'Matrix module', 'Content of a module from the table matrix.', 99)`,
    update: `update public.course_modules set title = title where id = '${ids.module(1, 1)}'`,
    delete: `delete from public.course_modules where id = '${ids.module(1, 1)}'`,
  },
  scorm_packages: {
    select: `select 1 from public.scorm_packages where module_id = '${scormModule}'`,
    insert: `insert into public.scorm_packages (module_id, course_id, version, title, scos, storage_prefix, file_count, unpacked_bytes)
             values ('${ids.module(1, 1)}', '${course1}', '1.2', 'Forged', '[{"id":"a","title":"a","href":"a.html"}]', '${ids.module(1, 1)}/1/', 1, 1)`,
    update: `update public.scorm_packages set completion_rule = 'completed' where module_id = '${scormModule}'`,
    delete: `delete from public.scorm_packages where module_id = '${scormModule}'`,
  },
  quizzes: {
    select: `select 1 from public.quizzes where id = '${ids.quiz(1, 2)}'`,
    insert: `insert into public.quizzes (module_id, title) values ('${ids.module(1, 1)}', 'Matrix quiz')`,
    update: `update public.quizzes set title = title where id = '${ids.quiz(1, 2)}'`,
    delete: `delete from public.quizzes where id = '${ids.quiz(1, 2)}'`,
  },
  quiz_questions: {
    select: `select id from public.quiz_questions where id = '${ids.question(1, 2, 1)}'`,
    insert: `insert into public.quiz_questions (quiz_id, question_text, options, correct_answers)
             values ('${ids.quiz(1, 2)}', 'A matrix question?', '[{"text":"A","isCorrect":true},{"text":"B","isCorrect":false}]', '[0]')`,
    update: `update public.quiz_questions set question_text = question_text where id = '${ids.question(1, 2, 1)}'`,
    delete: `delete from public.quiz_questions where id = '${ids.question(1, 2, 1)}'`,
  },
  enrollments: {
    select: `select 1 from public.enrollments where id = '${ids.enrollment(2)}'`,
    insert: `insert into public.enrollments (user_id, course_id) values (auth.uid(), '${ids.course(2)}')`,
    update: `update public.enrollments set status = status where id = '${ids.enrollment(2)}'`,
    delete: `delete from public.enrollments where id = '${ids.enrollment(2)}'`,
  },
  quiz_attempts: {
    select: `select 1 from public.quiz_attempts where id = '${ids.attempt(1)}'`,
    insert: `insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed) values (auth.uid(), '${ids.quiz(1, 2)}', 3, 3, true)`,
    update: `update public.quiz_attempts set score = max_score where id = '${ids.attempt(1)}'`,
    delete: `delete from public.quiz_attempts where id = '${ids.attempt(1)}'`,
  },
  user_module_progress: {
    select: `select 1 from public.user_module_progress where user_id = '${ids.student}' and module_id = '${ids.module(1, 1)}'`,
    insert: `insert into public.user_module_progress (user_id, module_id, read_at, completed, completed_at)
             values (auth.uid(), '${ids.module(1, 3)}', now(), true, now())`,
    update: `update public.user_module_progress set completed = completed where user_id = '${ids.student}' and module_id = '${ids.module(1, 1)}'`,
    delete: `delete from public.user_module_progress where user_id = '${ids.student}' and module_id = '${ids.module(1, 1)}'`,
  },
  certificates: {
    select: `select 1 from public.certificates where id = '${ids.certificate}'`,
    insert: `insert into public.certificates (user_id, course_id, cycle, learner_name, course_title)
             values (auth.uid(), '${course1}', 9, 'Matrix Person', 'Matrix course')`,
    update: `update public.certificates set expires_at = null where id = '${ids.certificate}'`,
    delete: `delete from public.certificates where id = '${ids.certificate}'`,
  },
  course_achievements: {
    select: `select 1 from public.course_achievements where course_id = '${course1}'`,
    insert: `insert into public.course_achievements (course_id, name, description, criteria)
             values ('${unstartedCourse}', 'Matrix', 'Matrix', 'Matrix')`,
    update: `update public.course_achievements set name = name where course_id = '${course1}'`,
    delete: `delete from public.course_achievements where course_id = '${course1}'`,
  },
  credentials: {
    select: `select 1 from public.credentials where certificate_id = '${ids.certificate}'`,
    insert: `insert into public.credentials (certificate_id, user_id, issuer_id, status_list_id, status_index)
             select certificate_id, auth.uid(), issuer_id, status_list_id, 99999 from public.credentials limit 1`,
    update: `update public.credentials set share_enabled = true where certificate_id = '${ids.certificate}'`,
    delete: `delete from public.credentials where certificate_id = '${ids.certificate}'`,
  },
  audit_events: {
    select: `select 1 from public.audit_events where action = 'matrix.check'`,
    insert: `insert into public.audit_events (action, target_type) values ('matrix.forged', 'user')`,
    update: `update public.audit_events set action = action where action = 'matrix.check'`,
    delete: `delete from public.audit_events where action = 'matrix.check'`,
  },
  required_training: {
    select: `select 1 from public.required_training where id = '${rule}'`,
    // A rule of the caller's own organisation (national for those of none).
    insert: `insert into public.required_training (course_id, role, service, organisation_id)
             values ('${course1}', 'INSTRUCTOR', 'UKPS', (select p.organisation_id from public.profiles p where p.id = auth.uid()))`,
    update: `update public.required_training set due_within_days = due_within_days where id = '${rule}'`,
    delete: `delete from public.required_training where id = '${rule}'`,
  },
  organisations: {
    select: `select 1 from public.organisations where id = '${orgA}'`,
    insert: `insert into public.organisations (name, code, service) values ('Matrix Org', 'MTRX', 'UKPS')`,
    update: `update public.organisations set name = name where id = '${orgA}'`,
    delete: `delete from public.organisations where id = '${orgEmpty}'`,
  },
  units: {
    select: `select 1 from public.units where id = '${unitA}'`,
    insert: `insert into public.units (organisation_id, parent_id, name) values ('${orgA}', '${unitA}', 'Matrix unit')`,
    update: `update public.units set name = name where id = '${unitA}'`,
    delete: `delete from public.units where id = '${unitEmpty}'`,
  },
  cpd_entries: {
    select: `select 1 from public.cpd_entries where id = '${cpdEntry}'`,
    insert: `insert into public.cpd_entries (activity_date, activity, hours, learnt)
             values (current_date, 'Matrix activity', 1, 'What the matrix learnt')`,
    update: `update public.cpd_entries set activity = activity where id = '${cpdEntry}'`,
    delete: `delete from public.cpd_entries where id = '${cpdEntry}'`,
  },
  notifications: {
    select: `select 1 from public.notifications where id = '${notice}'`,
    insert: `insert into public.notifications (recipient_id, kind, occasion, title)
             values (coalesce(auth.uid(), '${ids.student}'), 'training-overdue', current_date, 'Matrix notice')`,
    update: `update public.notifications set read_at = now() where id = '${notice}'`,
    delete: `delete from public.notifications where id = '${notice}'`,
  },
  notification_preferences: {
    select: `select 1 from public.notification_preferences where user_id = '${ids.student}'`,
    insert: `insert into public.notification_preferences (email_off) values ('{certificate-issued}')
             on conflict (user_id) do update set email_off = excluded.email_off`,
    update: `update public.notification_preferences set language = language where user_id = '${ids.student}'`,
    delete: `delete from public.notification_preferences where user_id = '${ids.student}'`,
  },
  scorm_attempts: {
    select: `select 1 from public.scorm_attempts where id = '${scormAttempt}'`,
    insert: `insert into public.scorm_attempts (user_id, module_id, sco_id, attempt, completion_status, success_status)
             values (coalesce(auth.uid(), '${ids.student}'), '${scormModule}', 'sco-1', 9, 'completed', 'passed')`,
    update: `update public.scorm_attempts set completion_status = 'completed', success_status = 'passed' where id = '${scormAttempt}'`,
    delete: `delete from public.scorm_attempts where id = '${scormAttempt}'`,
  },
  scim_tokens: {
    select: `select 1 from public.scim_tokens where id = '${scimToken}'`,
    insert: `insert into public.scim_tokens (organisation_id, label, token_hash, token_hint)
             values ('${orgA}', 'Matrix forged', sha256('forged'::bytea), 'abcd')`,
    update: `update public.scim_tokens set revoked_at = null, label = label where id = '${scimToken}'`,
    delete: `delete from public.scim_tokens where id = '${scimToken}'`,
  },
  // Organisation A's sign-in through its identity provider: its domain, settings and a test.
  organisation_domains: {
    select: `select 1 from public.organisation_domains where domain = 'matrix-a.example.uk'`,
    insert: `insert into public.organisation_domains (domain, organisation_id) values ('matrix-new.example.uk', '${orgA}')`,
    update: `update public.organisation_domains set organisation_id = organisation_id where domain = 'matrix-a.example.uk' returning 1`,
    delete: `delete from public.organisation_domains where domain = 'matrix-a.example.uk'`,
  },
  organisation_sign_in: {
    select: `select 1 from public.organisation_sign_in where organisation_id = '${orgA}'`,
    insert: `insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id) values ('${orgEmpty}', 'oidc', '${orgEmpty}')`,
    update: `update public.organisation_sign_in set attribute_mapping = '{"unit": "department"}' where organisation_id = '${orgA}'`,
    delete: `delete from public.organisation_sign_in where organisation_id = '${orgA}'`,
  },
  sign_in_tests: {
    select: `select 1 from public.sign_in_tests where id = '${signInTest}'`,
    insert: `insert into public.sign_in_tests (organisation_id, protocol, email, received, mapped, passed)
             values ('${orgA}', 'oidc', 'forged@matrix-a.example.uk', '{}', '{}', true)`,
    update: `update public.sign_in_tests set passed = true where id = '${signInTest}'`,
    delete: `delete from public.sign_in_tests where id = '${signInTest}'`,
  },
  assessment_settings: {
    select: `select 1 from public.assessment_settings where module_id = '${practicalModule}'`,
    insert: `insert into public.assessment_settings (module_id, needs_verifier, valid_months) values ('${practicalModule2}', true, 12)`,
    update: `update public.assessment_settings set valid_months = 24 where module_id = '${practicalModule}'`,
    delete: `delete from public.assessment_settings where module_id = '${practicalModule}'`,
  },
  assessment_criteria: {
    select: `select 1 from public.assessment_criteria where id = '${criterion}'`,
    insert: `insert into public.assessment_criteria (module_id, title) values ('${practicalModule}', 'Matrix criterion')`,
    update: `update public.assessment_criteria set critical = true where id = '${criterion}'`,
    delete: `delete from public.assessment_criteria where id = '${unjudgedCriterion}'`,
  },
  course_assessors: {
    select: `select 1 from public.course_assessors where course_id = '${course1}' and person_id = '${otherLearner.id}'`,
    insert: `insert into public.course_assessors (course_id, person_id, organisation_id) values ('${course1}', coalesce(auth.uid(), '${ids.student}'), '${orgA}')`,
    update: `update public.course_assessors set organisation_id = organisation_id where course_id = '${course1}' and person_id = '${otherLearner.id}'`,
    delete: `delete from public.course_assessors where course_id = '${course1}' and person_id = '${otherLearner.id}'`,
  },
  assessment_records: {
    select: `select 1 from public.assessment_records where id = '${assessmentRecord}'`,
    insert: `insert into public.assessment_records (module_id, course_id, learner_id, cycle, assessor_id, outcome, signed_at, learner_name, assessor_name)
             values ('${practicalModule}', '${course1}', '${ids.student}', 1, null, 'competent', now(), 'Forged', 'Forged')`,
    update: `update public.assessment_records set verifier_id = auth.uid(), verified_at = now() where id = '${assessmentRecord}'`,
    delete: `delete from public.assessment_records where id = '${assessmentRecord}'`,
  },
  assessment_judgements: {
    select: `select 1 from public.assessment_judgements where record_id = '${assessmentRecord}'`,
    insert: `insert into public.assessment_judgements (record_id, criterion_id, result, criterion_title, critical)
             values ('${assessmentRecord}', '${criterion}', 'competent', 'Forged', false)`,
    update: `update public.assessment_judgements set result = 'competent' where record_id = '${assessmentRecord}'`,
    delete: `delete from public.assessment_judgements where record_id = '${assessmentRecord}'`,
  },
  assessment_evidence: {
    select: `select 1 from public.assessment_evidence where id = '${evidence}'`,
    insert: `insert into public.assessment_evidence (record_id, object_name, content_type, size_bytes, original_name)
             values ('${assessmentRecord}', '${assessmentRecord}/${evidence}.pdf', 'application/pdf', 10, 'forged.pdf')`,
    update: `update public.assessment_evidence set original_name = 'renamed.png' where id = '${evidence}'`,
    delete: `delete from public.assessment_evidence where id = '${evidence}'`,
  },
  reassessment_requests: {
    select: `select 1 from public.reassessment_requests where id = '${reassessment}'`,
    insert: `insert into public.reassessment_requests (module_id, learner_id, cycle, reason)
             values ('${practicalModule}', coalesce(auth.uid(), '${ids.student}'), 1, 'Forged')`,
    update: `update public.reassessment_requests set answered_at = now() where id = '${reassessment}'`,
    delete: `delete from public.reassessment_requests where id = '${reassessment}'`,
  },
  classroom_sessions: {
    select: `select 1 from public.classroom_sessions where id = '${classroomSession}'`,
    insert: `insert into public.classroom_sessions (module_id, course_id, starts_at, ends_at, venue_name, capacity, booking_closes_at)
             values ('${sessionModule}', '${course1}', now() + interval '9 days', now() + interval '10 days', 'Forged', 5, now())`,
    update: `update public.classroom_sessions set places_taken = 0, capacity = 500 where id = '${classroomSession}'`,
    delete: `delete from public.classroom_sessions where id = '${classroomSession}'`,
  },
  session_trainers: {
    select: `select 1 from public.session_trainers where session_id = '${classroomSession}'`,
    insert: `insert into public.session_trainers (session_id, trainer_id) values ('${classroomSession}', coalesce(auth.uid(), '${ids.student}'))`,
    update: `update public.session_trainers set trainer_id = trainer_id where session_id = '${classroomSession}'`,
    delete: `delete from public.session_trainers where session_id = '${classroomSession}'`,
  },
  session_bookings: {
    select: `select 1 from public.session_bookings where id = '${sessionBooking}'`,
    insert: `insert into public.session_bookings (session_id, module_id, user_id, status)
             values ('${classroomSession}', '${sessionModule}', coalesce(auth.uid(), '${ids.student}'), 'booked')`,
    update: `update public.session_bookings set attendance = 'attended' where id = '${sessionBooking}'`,
    delete: `delete from public.session_bookings where id = '${sessionBooking}'`,
  },
  // Recognition: organisation A trusts an issuer and accepts one of its achievements for course 1;
  // the learner holds a credential uploaded through the api function.
  trusted_issuers: {
    select: `select 1 from public.trusted_issuers where id = '${trustedIssuer}'`,
    insert: `insert into public.trusted_issuers (organisation_id, issuer_id, name) values ('${orgA}', 'https://matrix-new.example.uk/issuer', 'Matrix new')`,
    update: `update public.trusted_issuers set name = name where id = '${trustedIssuer}'`,
    delete: `delete from public.trusted_issuers where id = '${trustedIssuer}'`,
  },
  recognition_equivalences: {
    select: `select 1 from public.recognition_equivalences where id = '${equivalence}'`,
    insert: `insert into public.recognition_equivalences (organisation_id, course_id, issuer_id, achievement_id, achievement_name)
             values ('${orgA}', '${course1}', 'https://matrix.example.uk/issuer', 'https://matrix.example.uk/a2', 'Matrix second')`,
    update: `update public.recognition_equivalences set achievement_name = achievement_name where id = '${equivalence}'`,
    delete: `delete from public.recognition_equivalences where id = '${equivalence}'`,
  },
  held_credentials: {
    select: `select 1 from public.held_credentials where id = '${heldCredential}'`,
    insert: `insert into public.held_credentials (user_id, credential, credential_hash, issuer_id, issuer_name, achievement_id,
             achievement_name, verified, verification) values (coalesce(auth.uid(), '${ids.student}'), '{}', repeat('f', 64),
             'https://forged.example.uk', 'Forged', 'x', 'Forged', true, '{}')`,
    update: `update public.held_credentials set verified = true, valid_until = null where id = '${heldCredential}'`,
    delete: `delete from public.held_credentials where id = '${heldCredential}'`,
  },
  scorm_sessions: {
    select: `select 1 from public.scorm_sessions where id = '${scormSession}'`,
    insert: `insert into public.scorm_sessions (attempt_id, user_id) values ('${scormAttempt}', coalesce(auth.uid(), '${ids.student}'))`,
    update: `update public.scorm_sessions set seq = 0, finished_at = null where id = '${scormSession}'`,
    delete: `delete from public.scorm_sessions where id = '${scormSession}'`,
  },
};

/** A published course of organisation B. */
const courseOfB = '80000000-0000-4000-a000-0000000000f7';

/** The functions of a line manager's team: a statement per function that reaches the
 * learner (their row or record; for the summary, anyone at all). And the helpers that must answer
 * only for what the caller may see: organisation B's unit and course. */
const FUNCTIONS: Record<string, string> = {
  team_reports: `select 1 from private.team_reports() where user_id = '${ids.student}'`,
  team_members: `select 1 from private.team_members(null, null, null, 100, 0) where user_id = '${ids.student}'`,
  team_summary: 'select 1 from private.team_summary() where people > 0',
  team_member_record: `select 1 from private.team_member_record('${ids.student}')`,
  team_page: `select 1 from private.team_page(null, null, null, 100, 0) where user_id = '${ids.student}'`,
  // Reads kept counts of any person it is given: granted to no API role, only team_page calls it.
  team_status_counts: `select 1 from private.team_status_counts(array['${ids.student}']::uuid[])`,
  // Maintenance of competence: the internal states are nobody's; practicals in compliance are the
  // administrators' (an organisation's, of its people).
  practical_states: `select 1 from private.practical_states(array['${ids.student}']::uuid[], now())`,
  upcoming_session_bookings: `select 1 from private.upcoming_session_bookings(array['${ids.student}']::uuid[], now() - interval '100 years')`,
  compliance_practicals: `select 1 from private.compliance_practicals('${orgA}', null) where practicals > 0`,
  compliance_practical_people: `select 1 from private.compliance_practical_people('${orgA}', null, null, 100, 0) where user_id = '${ids.student}'`,
  unit_subtree: `select 1 from private.unit_subtree('${unitB}')`,
  course_summaries: `select 1 from private.course_summaries(array['${courseOfB}']::uuid[])`,
  // SCIM: organisation A's tokens are its administrators' (and national admins') to make and revoke;
  // the SCIM functions are the API's, as anon, with the token as the only credential.
  create_scim_token: `select 1 from private.create_scim_token('${orgA}', 'Matrix')`,
  revoke_scim_token: `select 1 from private.revoke_scim_token('${scimToken}')`,
  scim_list_users: `select 1 from private.scim_list_users('${SCIM_TOKEN}', null, null, 0, 1)`,
  // Sign-in: how a work address signs in is anyone's to ask (the sign-in page); the SAML provider is
  // recorded by the api function alone (service role), after Auth registered it.
  organisation_sign_in_for: `select 1 from private.organisation_sign_in_for('someone@matrix-a.example.uk')`,
  record_saml_provider: `select 1 from private.record_saml_provider('${orgA}', '${orgA}', null)`,
  // Open Badges: issuers' public keys and names are anyone's; a shared credential needs its
  // share id (this one is not shared); who may edit a course is asked of anyone about themselves.
  issuer_public_keys: `select 1 from private.issuer_public_keys('national') union all select 1 from private.issuer_profile('national')`,
  shared_credential: `select 1 from private.shared_credential('${'0'.repeat(32)}') where false`,
  may_edit_course: `select 1 where private.may_edit_course('${course1}')`,
};

// ---- The expected table: docs/ACCESS-MATRIX.md, rows `public.<table>` | operation | six answers ----
const expected = new Map<string, string[]>();
const doc = readFileSync(new URL('../../docs/ACCESS-MATRIX.md', import.meta.url), 'utf8');
for (const line of doc.split('\n')) {
  const cells = line.split('|').map((s) => s.trim());
  const table = /^`public\.(\w+)`$/.exec(cells[1] ?? '');
  if (!table || !OPERATIONS.includes(cells[2] as Operation)) continue;
  expected.set(`${table[1]} ${cells[2]}`, cells.slice(3, 3 + PERSONAS.length));
}
const expectedFunctions = new Map<string, string[]>();
for (const line of doc.split('\n')) {
  const cells = line.split('|').map((s) => s.trim());
  const fn = /^`private\.(\w+)`$/.exec(cells[1] ?? '');
  if (fn && cells[2] === 'call') expectedFunctions.set(fn[1], cells.slice(3, 3 + PERSONAS.length));
}

describe.each(backends)('database API access matrix on $name', ({ create }) => {
  let db: TestDatabase;
  const observed: string[] = [];

  beforeAll(async () => {
    db = await create();
    await createUser(db, { id: otherLearner.id, email: otherLearner.email, username: 'matrix_learner', name: 'Mona Matrix', services: ['UKFRS'] });
    await createUser(db, {
      id: fireInstructor.id, email: fireInstructor.email, username: 'matrix_fire', name: 'Fergus Matrix',
      role: 'INSTRUCTOR', services: ['UKFRS'],
    });
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Matrix Police', 'MXP', 'UKPS'), ($2, 'Matrix Ambulance', 'MXA', 'UKAS'), ($3, 'Matrix Empty', 'MXE', 'MISC')`,
      [orgA, orgB, orgEmpty]);
    await db.query(`insert into public.units (id, organisation_id, parent_id, name) values
      ($1, $5, null, 'Matrix Area'), ($2, $5, $1, 'Matrix Station'), ($3, $5, $1, 'Matrix Empty Station'),
      ($4, $6, null, 'Matrix Division')`, [unitA, unitA2, unitEmpty, unitB, orgA, orgB]);
    const place = (id: string, org: string, unit: string | null, managerId: string | null = null) =>
      db.query('update public.profiles set organisation_id = $2, unit_id = $3, manager_id = $4 where id = $1', [id, org, unit, managerId]);
    await createUser(db, { id: orgAdmin.id, email: orgAdmin.email, username: 'matrix_orgadmin', name: 'Olga Matrix', role: 'ADMIN' });
    await createUser(db, { id: manager.id, email: manager.email, username: 'matrix_manager', name: 'Mandy Matrix' });
    await createUser(db, { id: otherUnitManager.id, email: otherUnitManager.email, username: 'matrix_unitmanager', name: 'Umar Matrix' });
    await createUser(db, { id: otherOrgLearner.id, email: otherOrgLearner.email, username: 'matrix_orgb', name: 'Bea Matrix' });
    await place(orgAdmin.id, orgA, null);
    await place(manager.id, orgA, unitA);
    await place(otherUnitManager.id, orgA, unitA2);
    await place(otherOrgLearner.id, orgB, unitB);
    await place(ids.student, orgA, unitA, manager.id);
    await place(otherLearner.id, orgA, unitA2, otherUnitManager.id);
    await db.query(`insert into public.courses (id, title, description, service, status, organisation_id)
      values ($1, 'Matrix course of B', 'A published course of organisation B.', 'UKAS', 'ACTIVE', $2)`, [courseOfB, orgB]);
    await db.query(`insert into public.audit_events (action, target_type, target_id) values ('matrix.check', 'user', $1)`, [ids.student]);
    await db.query(`insert into public.course_achievements (course_id, name, description, criteria) values ($1, 'Matrix', 'Matrix', 'Matrix')`, [course1]);
    await db.query(`insert into public.courses (id, title, description, service, author_id, status)
      values ($1, 'Matrix unstarted course', 'A course nobody has started.', 'UKPS', $2, 'ACTIVE')`, [unstartedCourse, ids.instructor]);
    await db.query(`insert into public.required_training (id, course_id, service, created_by) values ($1, $2, 'MISC', $3)`,
      [rule, course1, ids.instructor]);
    await db.query(`insert into public.cpd_entries (id, user_id, activity_date, activity, hours, learnt)
      values ($1, $2, current_date - 3, 'Matrix reading', 1.5, 'Matrix notes')`, [cpdEntry, ids.student]);
    await db.query(`insert into public.notifications (id, recipient_id, kind, person_id, occasion, title)
      values ($1, $2, 'training-overdue', $2, current_date, 'Matrix notice')`, [notice, ids.student]);
    await db.query(`insert into public.notification_preferences (user_id) values ($1)`, [ids.student]);
    await db.query(`insert into public.course_modules (id, course_id, title, kind, order_index) values ($1, $2, 'Matrix SCORM module', 'scorm', 90)`, [scormModule, course1]);
    await db.query(`insert into public.scorm_packages (module_id, course_id, version, title, scos, storage_prefix, file_count, unpacked_bytes)
      values ($1, $2, '1.2', 'Matrix package', '[{"id":"a","title":"a","href":"a.html"}]', $3, 1, 1)`, [scormModule, course1, `${scormModule}/1/`]);
    // The learner's attempt and session at that SCORM module (course 1 is the instructor's).
    await db.query(`insert into public.scorm_attempts (id, user_id, module_id, sco_id, completion_status) values ($1, $2, $3, 'a', 'incomplete')`,
      [scormAttempt, ids.student, scormModule]);
    await db.query(`insert into public.scorm_sessions (id, attempt_id, user_id, seq) values ($1, $2, $3, 2)`,
      [scormSession, scormAttempt, ids.student]);
    // The practical assessment of course 1: the instructor signed the learner's record, with a
    // judgement and a file; the learner asked to be assessed again; A named the other learner assessor
    // of course 1 (so they read the learner's record, as their assessor).
    await db.query(`insert into public.course_modules (id, course_id, title, kind, order_index) values
      ($1, $3, 'Matrix practical', 'assessment', 93), ($2, $3, 'Matrix practical two', 'assessment', 94)`, [practicalModule, practicalModule2, course1]);
    await db.query(`insert into public.assessment_settings (module_id, needs_verifier, valid_months) values ($1, true, 12)`, [practicalModule]);
    await db.query(`insert into public.assessment_criteria (id, module_id, title) values ($1, $3, 'Matrix checks'), ($2, $3, 'Matrix start-up')`,
      [criterion, unjudgedCriterion, practicalModule]);
    await db.query(`insert into public.course_assessors (course_id, person_id, organisation_id) values ($1, $2, $3)`, [course1, otherLearner.id, orgA]);
    await db.query(`insert into public.assessment_records (id, module_id, course_id, learner_id, cycle, assessor_id, outcome, learner_name, assessor_name)
      values ($1, $2, $3, $4, 1, $5, 'competent', 'Sam Patel', 'Matrix assessor')`, [assessmentRecord, practicalModule, course1, ids.student, ids.instructor]);
    await db.query(`insert into public.assessment_judgements (record_id, criterion_id, result, criterion_title, critical)
      values ($1, $2, 'competent', 'Matrix checks', false)`, [assessmentRecord, criterion]);
    await db.query(`insert into public.assessment_evidence (id, record_id, object_name, content_type, size_bytes, original_name)
      values ($1, $2, $3, 'image/png', 10, 'board.png')`, [evidence, assessmentRecord, `${assessmentRecord}/${evidence}.png`]);
    await db.query('update public.assessment_records set signed_at = now() where id = $1', [assessmentRecord]);
    await db.query(`insert into public.reassessment_requests (id, module_id, learner_id, cycle, reason) values ($1, $2, $3, 1, 'Matrix')`,
      [reassessment, practicalModule, ids.student]);
    await db.query(`insert into public.course_modules (id, course_id, title, kind, order_index) values ($1, $2, 'Matrix session module', 'session', 91)`, [sessionModule, course1]);
    await db.query(`insert into public.classroom_sessions (id, module_id, course_id, starts_at, ends_at, venue_name, capacity, booking_closes_at)
      values ($1, $2, $3, now() + interval '10 days', now() + interval '10 days 6 hours', 'Matrix centre', 5, now() + interval '9 days')`,
      [classroomSession, sessionModule, course1]);
    await db.query(`insert into public.session_trainers (session_id, trainer_id) values ($1, $2)`, [classroomSession, fireInstructor.id]);
    await db.query(`insert into public.session_bookings (id, session_id, module_id, user_id, status) values ($1, $2, $3, $4, 'booked')`,
      [sessionBooking, classroomSession, sessionModule, ids.student]);
    await db.query(`insert into public.scim_tokens (id, organisation_id, label, token_hash, token_hint)
      values ($1, $2, 'Matrix', sha256(convert_to($3, 'UTF8')), right($3, 4))`, [scimToken, orgA, SCIM_TOKEN]);
    await db.query(`insert into public.organisation_domains (domain, organisation_id) values ('matrix-a.example.uk', $1)`, [orgA]);
    await db.query(`insert into public.organisation_sign_in (organisation_id, protocol, oidc_tenant_id, tested_at) values ($1, 'oidc', $1, now())`, [orgA]);
    await db.query(`update public.organisation_sign_in set enabled = true where organisation_id = $1`, [orgA]);
    await db.query(`insert into public.trusted_issuers (id, organisation_id, issuer_id, name) values ($1, $2, 'https://matrix.example.uk/issuer', 'Matrix issuer')`,
      [trustedIssuer, orgA]);
    await db.query(`insert into public.recognition_equivalences (id, organisation_id, course_id, issuer_id, achievement_id, achievement_name)
      values ($1, $2, $3, 'https://matrix.example.uk/issuer', 'https://matrix.example.uk/a1', 'Matrix achievement')`, [equivalence, orgA, course1]);
    await db.query(`select private.record_held_credential($1, '{}', repeat('e', 64), 'https://matrix.example.uk/issuer', 'Matrix issuer',
      'https://matrix.example.uk/a1', 'Matrix achievement', null, null, false, '{}')`, [ids.student]);
    await db.query('update public.held_credentials set id = $1', [heldCredential]);
    await db.query(`insert into public.sign_in_tests (id, organisation_id, protocol, email, received, mapped, passed)
      values ($1, $2, 'oidc', 'test@matrix-a.example.uk', '{}', '{}', true)`, [signInTest, orgA]);
  });
  afterAll(async () => {
    if (process.env.MATRIX_PRINT) console.log(observed.join('\n'));
    await db?.close();
  });

  /** yes when the statement reached a row as the persona, no when it was refused or reached none. */
  async function reaches(persona: Persona | null, statement: string): Promise<'yes' | 'no'> {
    let rows = 0;
    const state = await sqlState(async () => {
      const result = await rolledBack(db, persona, (tx) => tx.query(statement));
      rows = Math.max(result.rows.length, result.rowCount);
    });
    if (state !== null && state !== '42501' && state !== '42P01') throw new Error(`${statement}: SQLSTATE ${state}`);
    return state === null && rows > 0 ? 'yes' : 'no';
  }

  it('lists every public table, and every public table has row-level security', async () => {
    const tables = await db.query<{ name: string; rls: boolean }>(`
      select c.relname::text as name, c.relrowsecurity as rls from pg_class c
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`);
    expect(tables.rows.filter((t) => !t.rls).map((t) => t.name)).toEqual([]);
    expect(tables.rows.map((t) => t.name).sort()).toEqual(Object.keys(TABLES).sort());
    const missing = Object.keys(TABLES).flatMap((t) => OPERATIONS.map((op) => `${t} ${op}`)).filter((k) => !expected.has(k));
    expect(missing, 'rows missing from docs/ACCESS-MATRIX.md').toEqual([]);
  });

  it('no API role holds a privilege on a table outside the public schema (private, auth, storage are not the API)', async () => {
    const grants = await db.query<{ grant: string }>(`
      select format('%s %s on %s.%s', grantee, privilege_type, table_schema, table_name) as grant
      from information_schema.role_table_grants
      where grantee in ('anon', 'authenticated') and table_schema in ('private', 'auth')`);
    expect(grants.rows.map((r) => r.grant)).toEqual([]);
  });

  it('lists every function of the team page, each with a row in docs/ACCESS-MATRIX.md', async () => {
    const functions = await db.query<{ name: string }>(`
      select p.proname::text as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'private' and p.proname like 'team\\_%' order by 1`);
    expect(functions.rows.map((f) => f.name).sort()).toEqual(Object.keys(FUNCTIONS).filter((f) => f.startsWith('team_')).sort());
    expect([...expectedFunctions.keys()].sort()).toEqual(Object.keys(FUNCTIONS).sort());
  });

  for (const [fn, statement] of Object.entries(FUNCTIONS)) {
    it(`private.${fn}: call`, async () => {
      const answers: string[] = [];
      for (const name of PERSONAS) answers.push(await reaches(who[name], statement));
      observed.push(`| \`private.${fn}\` | call | ${answers.join(' | ')} |`);
      if (!process.env.MATRIX_PRINT) expect(answers, PERSONAS.join(', ')).toEqual(expectedFunctions.get(fn));
    });
  }

  for (const [table, statements] of Object.entries(TABLES)) {
    for (const operation of OPERATIONS) {
      it(`public.${table}: ${operation}`, async () => {
        const answers: string[] = [];
        for (const name of PERSONAS) answers.push(await reaches(who[name], statements[operation]));
        observed.push(`| \`public.${table}\` | ${operation} | ${answers.join(' | ')} |`);
        if (!process.env.MATRIX_PRINT) expect(answers, PERSONAS.join(', ')).toEqual(expected.get(`${table} ${operation}`));
      });
    }
  }
});
