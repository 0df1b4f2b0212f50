// The schema's own guarantees: structure (RLS, comments, indexes), constraints, triggers and the
// deliberate ON DELETE rules, including the certificate snapshot that outlives user and course.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, ids, personas, queryAs, sqlState, type TestDatabase } from './helpers/database';

describe.each(backends)('schema on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('structure', () => {
    it('has every table of the specification, each with row-level security and a comment', async () => {
      const r = await db.query<{ relname: string; relrowsecurity: boolean; comment: string | null }>(
        `select c.relname, c.relrowsecurity, obj_description(c.oid, 'pg_class') as comment
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
      );
      expect(r.rows.map((t) => t.relname)).toEqual([
        'assessment_criteria', 'assessment_evidence', 'assessment_judgements', 'assessment_records', 'assessment_settings',
        'audit_events', 'certificates', 'classroom_sessions', 'course_achievements', 'course_assessors', 'course_modules', 'courses',
        'cpd_entries', 'credentials', 'enrollments', 'held_credentials',
        'notification_preferences', 'notifications', 'organisation_domains', 'organisation_sign_in', 'organisations', 'profiles',
        'quiz_attempts', 'quiz_questions', 'quizzes', 'reassessment_requests', 'recognition_equivalences', 'required_training', 'scim_tokens',
        'scorm_attempts', 'scorm_packages', 'scorm_sessions', 'session_bookings', 'session_trainers', 'settings', 'sign_in_tests',
        'trusted_issuers', 'units', 'user_module_progress',
      ]);
      for (const t of r.rows) {
        expect(t.relrowsecurity, t.relname).toBe(true);
        expect(t.comment, t.relname).toBeTruthy();
      }
    });

    it('has the enums of the specification', async () => {
      const r = await db.query<{ typname: string; labels: string }>(
        `select t.typname, string_agg(e.enumlabel, ',' order by e.enumsortorder) as labels
         from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
         where n.nspname = 'public' group by t.typname order by t.typname`,
      );
      expect(Object.fromEntries(r.rows.map((t) => [t.typname, t.labels]))).toEqual({
        certificate_template: 'standard,professional,service,custom',
        course_access: 'public-login,public-enroll,login-browse,login-approval',
        course_level: 'BEGINNER,INTERMEDIATE,ADVANCED',
        course_status: 'DRAFT,ACTIVE,ARCHIVED',
        enrollment_status: 'PENDING,ACTIVE',
        question_type: 'MULTIPLE_CHOICE,TRUE_FALSE',
        service_code: 'UKPS,UKAS,UKFRS,UKHW,AUX,MISC',
        sign_in_protocol: 'oidc,saml',
        user_role: 'ADMIN,INSTRUCTOR,STUDENT',
      });
    });

    it('indexes every foreign key in public and private', async () => {
      const r = await db.query<{ conname: string }>(
        `select c.conname from pg_constraint c join pg_namespace n on n.oid = c.connamespace
         where c.contype = 'f' and n.nspname in ('public', 'private')
           and not exists (
             select 1 from pg_index i
             where i.indrelid = c.conrelid
               and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] = c.conkey
           )`,
      );
      expect(r.rows).toEqual([]);
    });

    it('has no function in public, and every private function fixes its search_path', async () => {
      const pub = await db.query(`select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`);
      expect(pub.rows).toEqual([]);
      const r = await db.query<{ proname: string }>(
        `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname = 'private' and not coalesce(p.proconfig @> array['search_path=""'], false)`,
      );
      expect(r.rows).toEqual([]);
    });

    it('grants execute on private functions to nobody by default (PUBLIC)', async () => {
      const r = await db.query<{ proname: string }>(
        `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname = 'private' and has_function_privilege('public', p.oid, 'execute')`,
      );
      expect(r.rows).toEqual([]);
    });

    it('uses one policy per operation and role, never FOR ALL or PUBLIC', async () => {
      const r = await db.query<{ tablename: string; cmd: string; roles: string; n: number }>(
        `select tablename, cmd, roles::text as roles, count(*)::int as n from pg_policies
         where schemaname = 'public' group by 1, 2, 3`,
      );
      for (const p of r.rows) {
        expect(p.cmd, p.tablename).not.toBe('ALL');
        expect(p.n, `${p.tablename} ${p.cmd} ${p.roles}`).toBe(1);
        expect(['{anon}', '{authenticated}']).toContain(p.roles);
      }
    });
  });

  describe('sign-up trigger', () => {
    it('creates a STUDENT profile from the metadata username and name', async () => {
      await createUser(db, { id: '00000000-0000-4000-a000-0000000000b1', email: 'new.user@example.uk', username: 'NewUser', name: 'New User' });
      const r = await db.query(`select username, name, email, role, array_length(services, 1) as n from public.profiles where id = $1`, [
        '00000000-0000-4000-a000-0000000000b1',
      ]);
      expect(r.rows).toEqual([{ username: 'NewUser', name: 'New User', email: 'new.user@example.uk', role: 'STUDENT', n: null }]);
    });

    it('falls back to the email local part, made unique and at least 3 characters', async () => {
      await createUser(db, { id: '00000000-0000-4000-a000-0000000000b2', email: 'student@elsewhere.uk' });
      await createUser(db, { id: '00000000-0000-4000-a000-0000000000b3', email: 'jo@example.uk' });
      const r = await db.query<{ username: string; name: string }>(`select username, name from public.profiles where id in ($1, $2) order by id`, [
        '00000000-0000-4000-a000-0000000000b2',
        '00000000-0000-4000-a000-0000000000b3',
      ]);
      expect(r.rows[0].username).toMatch(/^student-[0-9a-f]{8}$/);
      expect(r.rows[1]).toEqual({ username: 'jouser', name: 'jouser' });
    });

    it('refuses a username taken in another case (unique, case-insensitive)', async () => {
      expect(
        await sqlState(() => createUser(db, { id: '00000000-0000-4000-a000-0000000000b4', email: 'x@example.uk', username: 'STUDENT' })),
      ).toBe('23505');
      expect(await sqlState(() => db.query(`update public.profiles set username = 'Admin' where id = $1`, [ids.student]))).toBe('23505');
    });

    it('keeps the profile email in step with the sign-in email', async () => {
      await db.query(`update auth.users set email = 'new.address@example.uk' where id = $1`, ['00000000-0000-4000-a000-0000000000b1']);
      const r = await db.query('select email from public.profiles where id = $1', ['00000000-0000-4000-a000-0000000000b1']);
      expect(r.rows).toEqual([{ email: 'new.address@example.uk' }]);
    });

    it('with auto-enrolment on, enrols a new user in every featured published course', async () => {
      await db.query('update public.settings set auto_enrollment = true');
      try {
        await createUser(db, { id: '00000000-0000-4000-a000-0000000000b5', email: 'auto@example.uk', username: 'auto_user' });
        const r = await db.query<{ course_id: string }>('select course_id from public.enrollments where user_id = $1 order by course_id', [
          '00000000-0000-4000-a000-0000000000b5',
        ]);
        expect(r.rows.map((e) => e.course_id)).toEqual([ids.course(1), ids.course(4), ids.course(8), ids.course(12)]);
      } finally {
        await db.query('update public.settings set auto_enrollment = false');
      }
      await createUser(db, { id: '00000000-0000-4000-a000-0000000000b6', email: 'manual@example.uk', username: 'manual_user' });
      const none = await db.query('select 1 from public.enrollments where user_id = $1', ['00000000-0000-4000-a000-0000000000b6']);
      expect(none.rows).toHaveLength(0);
    });
  });

  describe('check constraints', () => {
    const bad: [string, string][] = [
      ['course duration below 1', `insert into public.courses (title, description, service, duration) values ('Valid title', 'A valid description', 'UKPS', 0)`],
      ['course title under 3', `insert into public.courses (title, description, service) values ('AB', 'A valid description', 'UKPS')`],
      ['module order below 1', `insert into public.course_modules (course_id, title, order_index) values ('${ids.course(1)}', 'Valid', 0)`],
      ['module duration below 1', `insert into public.course_modules (course_id, title, duration) values ('${ids.course(1)}', 'Valid', 0)`],
      ['passing score above 100', `insert into public.quizzes (module_id, title, passing_score) values ('${ids.module(1, 1)}', 'Valid', 101)`],
      ['passing score below 1', `insert into public.quizzes (module_id, title, passing_score) values ('${ids.module(1, 1)}', 'Valid', 0)`],
      ['time limit below 1', `insert into public.quizzes (module_id, title, time_limit) values ('${ids.module(1, 1)}', 'Valid', 0)`],
      ['question points below 1', `insert into public.quiz_questions (quiz_id, question_text, points, options) values ('${ids.quiz(1, 2)}', 'Valid question', 0, '[{"text":"a"},{"text":"b"}]')`],
      ['question with one option', `insert into public.quiz_questions (quiz_id, question_text, options) values ('${ids.quiz(1, 2)}', 'Valid question', '[{"text":"a"}]')`],
      ['Welsh course title under 3', `update public.courses set title_cy = 'AB' where id = '${ids.course(1)}'`],
      ['Welsh course description under 10', `update public.courses set description_cy = 'Byr' where id = '${ids.course(1)}'`],
      ['blank Welsh module body', `update public.course_modules set content_cy = '  ' where id = '${ids.module(1, 1)}'`],
      ['Welsh body on a SCORM module', `insert into public.course_modules (course_id, title, kind, content_cy) values ('${ids.course(1)}', 'Valid', 'scorm', 'Cynnwys')`],
      ['Welsh question under 5', `update public.quiz_questions set question_text_cy = 'Pam?' where id = '${ids.question(1, 2, 1)}'`],
      ['Welsh options fewer than the options', `update public.quiz_questions set options_cy = '["Cydleoli"]' where id = '${ids.question(1, 2, 1)}'`],
      ['Welsh options not texts', `update public.quiz_questions set options_cy = '[1, 2, 3, 4]' where id = '${ids.question(1, 2, 1)}'`],
      ['blank Welsh explanation', `update public.quiz_questions set explanation_cy = ' ' where id = '${ids.question(1, 2, 1)}'`],
      ['progress above 100', `update public.enrollments set progress = 101 where id = '${ids.enrollment(1)}'`],
      ['progress 100 but not completed', `update public.enrollments set progress = 100 where id = '${ids.enrollment(1)}'`],
      ['completed without completed_at', `update public.enrollments set progress = 100, completed = true where id = '${ids.enrollment(1)}'`],
      ['pending with progress', `update public.enrollments set status = 'PENDING' where id = '${ids.enrollment(2)}'`],
      ['attempt score above max', `insert into public.quiz_attempts (user_id, quiz_id, score, max_score) values ('${ids.student}', '${ids.quiz(1, 2)}', 4, 3)`],
      ['username under 3', `update public.profiles set username = 'ab' where id = '${ids.student}'`],
      ['second settings row', `insert into public.settings (id) values (false)`],
      ['verification code shape', `update public.certificates set verification_code = 'lower-case'`],
      ['blank achievement name', `insert into public.course_achievements (course_id, name, description, criteria) values ('${ids.course(1)}', ' ', 'Valid', 'Valid')`],
      ['achievement image not a web address', `insert into public.course_achievements (course_id, name, description, criteria, image_url) values ('${ids.course(1)}', 'Valid', 'Valid', 'Valid', 'javascript:alert(1)')`],
      ['achievement alignments not a list', `insert into public.course_achievements (course_id, name, description, criteria, alignments) values ('${ids.course(1)}', 'Valid', 'Valid', 'Valid', '{}')`],
      ['signed credential without its key', `update public.credentials set credential = '{}' where certificate_id = '${ids.certificate}'`],
      ['two credentials at one status entry', `insert into public.credentials (certificate_id, issuer_id, status_list_id, status_index) select certificate_id, issuer_id, status_list_id, status_index from public.credentials limit 1`],
    ];
    it.each(bad)('refuses %s', async (_name, statement) => {
      const state = await sqlState(() => db.query(statement));
      expect(['23514', '23505']).toContain(state);
    });

    it('applies the specification defaults', async () => {
      const r = await db.query(
        `insert into public.courses (title, description, service) values ('Defaults course', 'Checking the defaults', 'AUX')
         returning duration, level, featured, requires_enrollment, status, title_cy, description_cy, available_in_welsh`,
      );
      expect(r.rows).toEqual([{
        duration: 1, level: 'BEGINNER', featured: false, requires_enrollment: true, status: 'DRAFT',
        title_cy: null, description_cy: null, available_in_welsh: false,
      }]);
      const m = await db.query(
        `insert into public.course_modules (course_id, title) values ($1, 'Defaults module') returning duration, has_quiz, order_index`,
        [ids.course(14)],
      );
      expect(m.rows).toEqual([{ duration: 15, has_quiz: false, order_index: 1 }]);
      const q = await db.query(`insert into public.quizzes (module_id, title) values ($1, 'Defaults quiz') returning passing_score, randomize_questions, time_limit`, [
        ids.module(2, 1),
      ]);
      expect(q.rows).toEqual([{ passing_score: 70, randomize_questions: false, time_limit: null }]);
      const s = await db.query(`select course_access, certificate_template, enable_analytics, auto_enrollment from public.settings`);
      expect(s.rows).toEqual([{ course_access: 'public-login', certificate_template: 'standard', enable_analytics: true, auto_enrollment: false }]);
    });

    it('stamps updated_at on update', async () => {
      const before = await db.query<{ updated_at: Date }>('select updated_at from public.courses where id = $1', [ids.course(5)]);
      await db.query(`update public.courses set title = title || ' ' where id = $1`, [ids.course(5)]);
      const after = await db.query<{ updated_at: Date }>('select updated_at from public.courses where id = $1', [ids.course(5)]);
      expect(new Date(after.rows[0].updated_at).getTime()).toBeGreaterThan(new Date(before.rows[0].updated_at).getTime());
    });
  });

  describe('deletion', () => {
    it('a course with learner records is not deleted, even by the owner; its erasure removes its modules, quizzes, questions, enrolments, attempts and progress, not its certificates', async () => {
      const course = ids.course(3);
      const refused = await db.query('delete from public.courses where id = $1', [course]).then(() => null, (e: { code?: string; message?: string }) => e);
      expect(refused?.code).toBe('23503');
      expect(refused?.message).toBe('This course has learner records, so it cannot be deleted: archive it instead');
      expect((await db.query('select 1 from public.courses where id = $1', [course])).rows).toHaveLength(1);
      await db.query('select private.erase_course($1)', [course]);
      const counts = await db.query<Record<string, number>>(
        `select
           (select count(*)::int from public.course_modules where course_id = $1) as modules,
           (select count(*)::int from public.quizzes where id = $2) as quizzes,
           (select count(*)::int from public.quiz_questions where quiz_id = $2) as questions,
           (select count(*)::int from public.enrollments where course_id = $1) as enrollments,
           (select count(*)::int from public.quiz_attempts where quiz_id = $2) as attempts,
           (select count(*)::int from public.user_module_progress where module_id = $3) as progress`,
        [course, ids.quiz(3, 3), ids.module(3, 1)],
      );
      expect(counts.rows[0]).toEqual({ modules: 0, quizzes: 0, questions: 0, enrollments: 0, attempts: 0, progress: 0 });
      const cert = await db.query('select course_id, user_id, learner_name, course_title from public.certificates where id = $1', [ids.certificate]);
      expect(cert.rows).toEqual([{ course_id: null, user_id: ids.student, learner_name: 'Sam Patel', course_title: 'Airwave Radio Voice Procedure' }]);
    });

    it('the learner still reads their certificate after the course is gone', async () => {
      const r = await queryAs(db, personas.learner, 'select course_title from public.certificates');
      expect(r.rows).toEqual([{ course_title: 'Airwave Radio Voice Procedure' }]);
    });

    it('deleting a user removes their profile and everything that is theirs, keeps their courses and the certificate snapshot', async () => {
      await db.query('delete from auth.users where id = $1', [ids.student]);
      const counts = await db.query<Record<string, number>>(
        `select
           (select count(*)::int from public.profiles where id = $1) as profiles,
           (select count(*)::int from public.enrollments where user_id = $1) as enrollments,
           (select count(*)::int from public.quiz_attempts where user_id = $1) as attempts,
           (select count(*)::int from public.user_module_progress where user_id = $1) as progress`,
        [ids.student],
      );
      expect(counts.rows[0]).toEqual({ profiles: 0, enrollments: 0, attempts: 0, progress: 0 });
      const cert = await db.query('select user_id, course_id, learner_name, course_title, verification_code from public.certificates where id = $1', [ids.certificate]);
      expect(cert.rows).toEqual([
        { user_id: null, course_id: null, learner_name: 'Sam Patel', course_title: 'Airwave Radio Voice Procedure', verification_code: 'DEMO2026CERT0001' },
      ]);
      const v = await queryAs(db, null, 'select learner_name, course_title from private.verify_certificate($1)', ['DEMO2026CERT0001']);
      expect(v.rows).toEqual([{ learner_name: 'Sam Patel', course_title: 'Airwave Radio Voice Procedure' }]);

      await db.query('delete from auth.users where id = $1', [ids.instructor]);
      const kept = await db.query('select author_id from public.courses where id = $1', [ids.course(1)]);
      expect(kept.rows).toEqual([{ author_id: null }]);
    });
  });
});
