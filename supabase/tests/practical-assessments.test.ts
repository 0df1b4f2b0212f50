// Practical assessments (supabase/schemas/26_practical_assessments.sql), both ways for every table
// and the evidence bucket: the learner, the assessor, the verifier (a person the organisation named),
// the line manager, another learner, an instructor of another organisation and of another service,
// the organisation's and the national administrator. Also: a signed record never changes, a
// correction supersedes it (both kept), completion waits for the countersignature and is taken back
// by a correction, the certificate's expiry is the practical's, a required-training rule follows it
// a year on, and recertification needs a new assessment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, ids, personas, queryAs, rolledBack, sqlState, type Persona, type TestDatabase } from './helpers/database';

const { admin, instructor: policeInstructor } = personas;
const p = (n: string): Persona => ({ id: `00000000-0000-4000-a000-0000000026${n}`, email: `pa${n}@example.uk` });
const learner = p('01');
const assessor = p('02'); // an instructor of the fire service in organisation A: the course's author
const verifier = p('03'); // a watch manager organisation A names as assessor
const manager = p('04');
const otherLearner = p('05');
const otherOrgInstructor = p('06'); // a fire instructor of organisation B
const orgAdmin = p('07');
const orgA = '26000000-0000-4000-a000-0000000000a1';
const orgB = '26000000-0000-4000-a000-0000000000a2';
const course = '26000000-0000-4000-a000-0000000000c1';
const reading = '26000000-0000-4000-a000-0000000000d1';
const practical = '26000000-0000-4000-a000-0000000000d2';
const contentModule = ids.module(1, 1);
const criteria = ['26000000-0000-4000-a000-0000000000e1', '26000000-0000-4000-a000-0000000000e2', '26000000-0000-4000-a000-0000000000e3'];
const allCompetent = JSON.stringify(criteria.map((id) => ({ criterionId: id, result: 'competent', note: 'Shown well' })));

describe.each(backends)('practical assessments on $name', ({ create }) => {
  let db: TestDatabase;
  let firstRecord: string;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Westshire Fire and Rescue', 'WFRS', 'UKFRS'), ($2, 'Eastshire Fire and Rescue', 'EFRS', 'UKFRS')`, [orgA, orgB]);
    const people: [Persona, string, string, string[], string][] = [
      [learner, 'Fay Firefighter', 'STUDENT', ['UKFRS'], orgA], [assessor, 'Ian Instructor', 'INSTRUCTOR', ['UKFRS'], orgA],
      [verifier, 'Wendy Watch', 'STUDENT', ['UKFRS'], orgA], [manager, 'Mo Manager', 'STUDENT', ['UKFRS'], orgA],
      [otherLearner, 'Olly Other', 'STUDENT', ['UKFRS'], orgA], [otherOrgInstructor, 'Bea Eastshire', 'INSTRUCTOR', ['UKFRS'], orgB],
      [orgAdmin, 'Ada Admin', 'ADMIN', ['UKFRS'], orgA],
    ];
    for (const [who, name, role, services, org] of people) {
      await createUser(db, { id: who.id, email: who.email, username: `pa_${who.id.slice(-2)}`, name, role, services });
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [who.id, org]);
    }
    await db.query('update public.profiles set manager_id = $2 where id = $1', [learner.id, manager.id]);
    await db.query(`insert into public.courses (id, title, description, service, author_id, status, organisation_id, certificate_valid_months)
      values ($1, 'Breathing apparatus wearer', 'Wearing breathing apparatus safely, checked in practice.', 'UKFRS', $2, 'ACTIVE', $3, 36)`,
    [course, assessor.id, orgA]);
    await db.query(`insert into public.course_modules (id, course_id, title, content, order_index, kind) values
      ($1, $3, 'Before you wear', 'The theory of breathing apparatus, read before the practical.', 1, 'content'),
      ($2, $3, 'BA wearer: annual practical', '', 2, 'assessment')`, [reading, practical, course]);
    for (const who of [learner, otherLearner]) {
      await db.query(`insert into public.enrollments (user_id, course_id) values ($1, $2)`, [who.id, course]);
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  const as = (who: Persona | null, sql: string, params: unknown[] = []) => queryAs(db, who, sql, params);
  const state = (who: Persona | null, sql: string, params: unknown[] = []) => sqlState(() => as(who, sql, params));
  const sees = async (who: Persona | null, sql: string, params: unknown[] = []) =>
    (await sqlState(async () => {
      const r = await rolledBack(db, who, (tx) => tx.query(sql, params));
      if (r.rows.length === 0) throw Object.assign(new Error('none'), { code: 'none' });
    })) === null;

  describe('authoring', () => {
    it('lets the course author write settings and criteria, and refuses the learner, the verifier and another instructor', async () => {
      for (const who of [learner, verifier, otherOrgInstructor, policeInstructor]) {
        expect(await state(who, `insert into public.assessment_settings (module_id, needs_verifier, valid_months) values ($1, true, 12)`, [practical]), who.email).toBe('42501');
        expect(await state(who, `insert into public.assessment_criteria (module_id, title, critical) values ($1, 'Forged', true)`, [practical]), who.email).toBe('42501');
      }
      await as(assessor, `insert into public.assessment_settings (module_id, needs_verifier, valid_months) values ($1, true, 12)`, [practical]);
      expect(await sees(assessor, `insert into public.assessment_criteria (module_id, title, critical) values ($1, 'Shuts down correctly', true) returning id`, [practical])).toBe(true);
      await db.query(`insert into public.assessment_criteria (id, module_id, order_index, title, guidance, critical) values
        ($1, $4, 1, 'Carries out the pre-use checks', 'Cylinder pressure, seals and warning whistle', true),
        ($2, $4, 2, 'Starts up and enters correctly', null, false),
        ($3, $4, 3, 'Communicates with entry control', null, false)`, [...criteria, practical]);
      expect((await as(otherLearner, 'select title from public.assessment_criteria where module_id = $1 order by order_index', [practical])).rows).toHaveLength(3);
      expect((await as(otherOrgInstructor, 'select 1 from public.assessment_criteria where module_id = $1', [practical])).rows).toHaveLength(0);
    });

    it('refuses settings and criteria on a module that is not a practical assessment', async () => {
      expect(await state(admin, `insert into public.assessment_settings (module_id) values ($1)`, [contentModule])).toBe('22023');
      expect(await state(admin, `insert into public.assessment_criteria (module_id, title) values ($1, 'Wrong module')`, [contentModule])).toBe('22023');
      expect(await state(assessor, `update public.assessment_settings set valid_months = 121 where module_id = $1`, [practical])).toBe('23514');
    });

    it('keeps the course out of Welsh while a criterion has no Welsh', async () => {
      await db.query(`update public.courses set title_cy = 'Gwisgwr offer anadlu', description_cy = 'Gwisgo offer anadlu yn ddiogel, wedi''i wirio''n ymarferol.' where id = $1`, [course]);
      await db.query(`update public.course_modules set title_cy = title || ' (cy)', content_cy = case when kind = 'content' then content || ' (cy)' end where course_id = $1`, [course]);
      const welsh = async () => (await db.query<{ w: boolean }>('select available_in_welsh as w from public.courses where id = $1', [course])).rows[0].w;
      expect(await welsh()).toBe(false);
      await db.query(`update public.assessment_criteria set title_cy = title || ' (cy)', guidance_cy = case when guidance is not null then guidance || ' (cy)' end where module_id = $1`, [practical]);
      expect(await welsh()).toBe(true);
      await db.query(`update public.assessment_criteria set guidance_cy = null where id = $1`, [criteria[0]]);
      expect(await welsh()).toBe(false);
    });
  });

  describe('who assesses', () => {
    it('names an assessor by the organisation administrator only, of their own people', async () => {
      expect(await state(learner, 'select private.name_course_assessor($1, $2)', [course, verifier.id])).toBe('42501');
      expect(await state(orgAdmin, 'select private.name_course_assessor($1, $2)', [course, otherOrgInstructor.id])).toBe('P0002');
      await as(orgAdmin, 'select private.name_course_assessor($1, $2)', [course, verifier.id]);
      expect(await state(orgAdmin, 'select private.name_course_assessor($1, $2)', [course, verifier.id])).toBe('P0409');
      expect(await state(orgAdmin, 'insert into public.course_assessors (course_id, person_id, organisation_id) values ($1, $2, $3)', [course, otherLearner.id, orgA])).toBe('42501');
      expect(await sees(verifier, 'select 1 from public.course_assessors where person_id = $1', [verifier.id])).toBe(true);
      expect(await sees(learner, 'select 1 from public.course_assessors where person_id = $1', [verifier.id])).toBe(false);
      expect(await sees(otherOrgInstructor, 'select 1 from public.course_assessors where person_id = $1', [verifier.id])).toBe(false);
      const audit = await db.query(`select 1 from public.audit_events where action = 'course_assessor.named' and target_id = $1`, [verifier.id]);
      expect(audit.rows).toHaveLength(1);
    });

    it('answers private.assesses for each persona', async () => {
      const expected: [Persona, boolean][] = [
        [assessor, true], [verifier, true], [admin, true], [learner, false], [manager, false],
        [otherOrgInstructor, false], [policeInstructor, false], [orgAdmin, false],
      ];
      for (const [who, answer] of expected) {
        const r = await as(who, 'select private.assesses($1, $2) as ok', [course, learner.id]);
        expect(r.rows[0].ok, who.email).toBe(answer);
      }
    });
  });

  describe('records', () => {
    it('starts a draft only for an assessor, and shows it to its assessor and administrators only', async () => {
      for (const who of [learner, manager]) {
        expect(await state(who, 'select private.start_assessment_record($1, $2)', [practical, learner.id]), who.email).toBe('42501');
      }
      // Organisation A's course is not even there for another organisation or a national instructor.
      for (const who of [otherOrgInstructor, policeInstructor]) {
        expect(await state(who, 'select private.start_assessment_record($1, $2)', [practical, learner.id]), who.email).toBe('P0002');
      }
      expect(await state(assessor, 'select private.start_assessment_record($1, $2)', [practical, manager.id])).toBe('22023');
      const r = await as(assessor, 'select (private.start_assessment_record($1, $2)).id', [practical, learner.id]);
      firstRecord = r.rows[0].id as string;
      expect(await state(verifier, 'select private.start_assessment_record($1, $2)', [practical, learner.id])).toBe('P0409');
      const read = 'select 1 from public.assessment_records where id = $1';
      for (const [who, answer] of [[assessor, true], [admin, true], [orgAdmin, true], [learner, false], [manager, false], [verifier, false], [otherOrgInstructor, false]] as const) {
        expect(await sees(who, read, [firstRecord]), who.email).toBe(answer);
      }
    });

    it('refuses direct writes to every API role', async () => {
      for (const who of [learner, assessor, admin]) {
        expect(await state(who, `update public.assessment_records set outcome = 'competent' where id = $1`, [firstRecord])).toBe('42501');
        expect(await state(who, `insert into public.assessment_judgements (record_id, criterion_id, result, criterion_title, critical) values ($1, $2, 'competent', 'x', false)`, [firstRecord, criteria[0]])).toBe('42501');
        expect(await state(who, `insert into public.reassessment_requests (module_id, learner_id, cycle, reason) values ($1, $2, 1, 'x')`, [practical, learner.id])).toBe('42501');
        expect(await state(who, `insert into public.assessment_evidence (record_id, object_name, content_type, size_bytes, original_name) values ($1, $2 || '/' || gen_random_uuid() || '.png', 'image/png', 1, 'a.png')`, [firstRecord, firstRecord])).toBe('42501');
      }
    });

    it('lets only the draft\'s assessor save and sign, with every criterion judged and no competent over a critical failure', async () => {
      expect(await state(verifier, `select private.save_assessment_record($1, $2::text::jsonb, 'competent', null)`, [firstRecord, allCompetent])).toBe('42501');
      const partial = JSON.stringify([{ criterionId: criteria[1], result: 'competent' }]);
      await as(assessor, `select private.save_assessment_record($1, $2::text::jsonb, 'competent', 'Good start')`, [firstRecord, partial]);
      expect(await state(assessor, 'select private.sign_assessment_record($1)', [firstRecord])).toBe('22023');
      const criticalFailed = JSON.stringify(criteria.map((id, i) => ({ criterionId: id, result: i === 0 ? 'not-yet-competent' : 'competent' })));
      await as(assessor, `select private.save_assessment_record($1, $2::text::jsonb, 'competent', null)`, [firstRecord, criticalFailed]);
      expect(await state(assessor, 'select private.sign_assessment_record($1)', [firstRecord])).toBe('22023');
      expect(await state(assessor, `select private.save_assessment_record($1, $2::text::jsonb, 'competent', null)`,
        [firstRecord, JSON.stringify([{ criterionId: ids.question(1, 2, 1), result: 'competent' }])])).toBe('22023');
      await as(assessor, `select private.save_assessment_record($1, $2::text::jsonb, 'competent', 'Calm and methodical throughout.')`, [firstRecord, allCompetent]);
      const file = `${firstRecord}/00000000-0000-4000-a000-00000000e001.png`;
      await db.query(`insert into storage.objects (bucket_id, name) values ('assessment-evidence', $1)`, [file]);
      await as(assessor, `select private.add_assessment_evidence($1, $2, 'image/png', 2048, 'board.png')`, [firstRecord, file]);
      expect(await state(verifier, 'select private.sign_assessment_record($1)', [firstRecord])).toBe('42501');
      await as(assessor, 'select private.sign_assessment_record($1)', [firstRecord]);
    });

    it('shows the signed record, its judgements and its evidence to the learner, assessors, manager and administrators only', async () => {
      const reads = [
        ['select 1 from public.assessment_records where id = $1', firstRecord],
        ['select 1 from public.assessment_judgements where record_id = $1', firstRecord],
        ['select 1 from public.assessment_evidence where record_id = $1', firstRecord],
        [`select 1 from storage.objects where bucket_id = 'assessment-evidence' and name like $1::text || '/%'`, firstRecord],
      ] as const;
      const answers: [Persona | null, boolean][] = [
        [learner, true], [assessor, true], [verifier, true], [manager, true], [orgAdmin, true], [admin, true],
        [otherLearner, false], [otherOrgInstructor, false], [policeInstructor, false], [null, false],
      ];
      for (const [sql, id] of reads) {
        for (const [who, answer] of answers) expect(await sees(who, sql, [id]), `${who?.email} ${sql}`).toBe(answer);
      }
    });

    it('never changes a signed record, its judgements or its evidence, whoever asks (the owner included)', async () => {
      expect(await sqlState(() => db.query(`update public.assessment_records set outcome = 'not-yet-competent' where id = $1`, [firstRecord]))).toBe('55000');
      expect(await sqlState(() => db.query(`update public.assessment_records set signed_at = now() - interval '1 day' where id = $1`, [firstRecord]))).toBe('55000');
      expect(await sqlState(() => db.query('delete from public.assessment_records where id = $1', [firstRecord]))).toBe('55000');
      expect(await sqlState(() => db.query(`update public.assessment_judgements set result = 'not-yet-competent' where record_id = $1`, [firstRecord]))).toBe('55000');
      expect(await sqlState(() => db.query('delete from public.assessment_evidence where record_id = $1', [firstRecord]))).toBe('55000');
      expect(await state(assessor, `select private.save_assessment_record($1, $2::text::jsonb, 'competent', null)`, [firstRecord, allCompetent])).toBe('P0409');
    });

    it('completes the module only once another assessor countersigns', async () => {
      const done = async () => (await db.query<{ c: boolean }>('select coalesce((select completed from public.user_module_progress where user_id = $1 and module_id = $2), false) as c', [learner.id, practical])).rows[0].c;
      expect(await done()).toBe(false);
      expect(await state(assessor, 'select private.verify_assessment_record($1)', [firstRecord])).toBe('42501');
      expect(await state(otherOrgInstructor, 'select private.verify_assessment_record($1)', [firstRecord])).toBe('P0002');
      expect(await state(learner, 'select private.verify_assessment_record($1)', [firstRecord])).toBe('P0002');
      await as(verifier, 'select private.verify_assessment_record($1)', [firstRecord]);
      expect(await state(admin, 'select private.verify_assessment_record($1)', [firstRecord])).toBe('P0409');
      expect(await done()).toBe(true);
      const audit = await db.query<{ action: string }>(`select action from public.audit_events where target_id = $1 and action like 'assessment.%' order by id`, [learner.id]);
      expect(audit.rows.map((a) => a.action)).toEqual(['assessment.evidence_added', 'assessment.signed', 'assessment.verified']);
      const notices = await db.query<{ threshold: number; data: Record<string, unknown> }>(`select threshold, data from public.notifications where recipient_id = $1 and kind = 'assessment-recorded' order by threshold`, [learner.id]);
      expect(notices.rows.map((n) => [n.threshold, n.data.outcome, n.data.verified, n.data.assessorName])).toEqual([
        [0, 'competent', false, 'Ian Instructor'], [1, 'competent', true, 'Ian Instructor'],
      ]);
    });

    it('a correction to not yet competent takes the completion back while the course is not complete, and both records stay', async () => {
      const correction = (await as(assessor, 'select (private.start_assessment_record($1, $2, $3)).id', [practical, learner.id, firstRecord])).rows[0].id as string;
      expect(await state(assessor, 'select private.start_assessment_record($1, $2, $3)', [practical, learner.id, firstRecord])).toBe('P0409');
      const nyc = JSON.stringify(criteria.map((id) => ({ criterionId: id, result: 'not-yet-competent' })));
      await as(assessor, `select private.save_assessment_record($1, $2::text::jsonb, 'not-yet-competent', 'Wrong cylinder recorded: corrected.')`, [correction, nyc]);
      await as(assessor, 'select private.sign_assessment_record($1)', [correction]);
      const history = await as(learner, 'select outcome, superseded_at is not null as superseded from public.assessment_records where module_id = $1 order by signed_at', [practical]);
      expect(history.rows).toEqual([{ outcome: 'competent', superseded: true }, { outcome: 'not-yet-competent', superseded: false }]);
      const progress = await db.query('select completed from public.user_module_progress where user_id = $1 and module_id = $2', [learner.id, practical]);
      expect(progress.rows).toEqual([{ completed: false }]);
      expect((await db.query(`select 1 from public.audit_events where action = 'assessment.corrected' and target_id = $1`, [learner.id])).rows).toHaveLength(1);
    });

    it('lets the learner ask for reassessment once, and tells the assessors', async () => {
      expect(await state(otherLearner, `select private.request_reassessment($1, 'Please')`, [practical])).toBe('P0409');
      expect(await state(learner, `select private.request_reassessment($1, '  ')`, [practical])).toBe('22023');
      await as(learner, `select private.request_reassessment($1, 'I have practised the start-up drill')`, [practical]);
      expect(await state(learner, `select private.request_reassessment($1, 'Again')`, [practical])).toBe('P0409');
      const told = await db.query<{ recipient_id: string }>(`select recipient_id from public.notifications where kind = 'reassessment-requested' and person_id = $1 order by recipient_id`, [learner.id]);
      expect(told.rows.map((n) => n.recipient_id).sort()).toEqual([assessor.id, verifier.id].sort());
      for (const [who, answer] of [[learner, true], [assessor, true], [manager, true], [otherLearner, false], [otherOrgInstructor, false]] as const) {
        expect(await sees(who, 'select 1 from public.reassessment_requests where learner_id = $1', [learner.id]), who.email).toBe(answer);
      }
    });

    it('issues the certificate with the practical\'s expiry once reassessed, verified and the course finished', async () => {
      const again = (await as(verifier, 'select (private.start_assessment_record($1, $2)).id', [practical, learner.id])).rows[0].id as string;
      await as(verifier, `select private.save_assessment_record($1, $2::text::jsonb, 'competent', null)`, [again, allCompetent]);
      await as(verifier, 'select private.sign_assessment_record($1)', [again]);
      expect((await db.query('select answered_at is not null as a from public.reassessment_requests where learner_id = $1', [learner.id])).rows).toEqual([{ a: true }]);
      await as(assessor, 'select private.verify_assessment_record($1)', [again]);
      expect((await db.query('select 1 from public.certificates where user_id = $1 and course_id = $2', [learner.id, course])).rows).toHaveLength(0);
      await as(learner, 'select private.mark_module_read($1)', [reading]);
      const cert = await db.query<{ months: number; exact: boolean }>(`
        select (extract(year from age(c.expires_at, r.verified_at)) * 12 + extract(month from age(c.expires_at, r.verified_at)))::int as months,
               c.expires_at = r.verified_at + interval '12 months' as exact
        from public.certificates c join public.assessment_records r on r.id = $3
        where c.user_id = $1 and c.course_id = $2`, [learner.id, course, again]);
      expect(cert.rows).toEqual([{ months: 12, exact: true }]);
    });

    it('a required-training rule on the course shows the learner due a year on, and recertification needs a new assessment', async () => {
      await db.query(`insert into public.required_training (course_id, organisation_id, due_within_days, renew_before_days) values ($1, $2, 30, 30)`, [course, orgA]);
      const status = async () => (await as(learner, 'select status from private.required_training_status($1, null, null, $2)', [learner.id, course])).rows[0]?.status;
      expect(await status()).toBe('done');
      // A year on: the certificate issued and the practical signed a year and a day ago.
      await db.query(`update public.certificates set issued_at = issued_at - interval '1 year 1 day', expires_at = expires_at - interval '1 year 1 day' where user_id = $1 and course_id = $2`, [learner.id, course]);
      expect(await status()).toBe('overdue');
      await as(learner, 'select private.start_recertification($1)', [course]);
      expect((await db.query('select private.assessment_signed_off($1, $2) as ok', [learner.id, practical])).rows[0].ok).toBe(false);
      const fresh = (await as(assessor, 'select (private.start_assessment_record($1, $2)).cycle', [practical, learner.id])).rows[0].cycle;
      expect(fresh).toBe(2);
    });
  });
});
