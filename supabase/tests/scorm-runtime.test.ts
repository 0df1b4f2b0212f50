// SCORM run-time data (supabase/schemas/19_scorm_runtime.sql): learners read and write only their own
// attempts and sessions, and only through private.scorm_open_session / private.scorm_save; the
// server decides completion by the package's rule (1.2, 2004, every SCO), and a met module completes
// the course with a certificate whose learning-record score is the package's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const other: Persona = { id: '00000000-0000-4000-a000-0000000005c1', email: 'scorm.other@example.uk' };

describe.each(backends)('SCORM run-time on $name', ({ create }) => {
  let db: TestDatabase;
  let n = 0;

  beforeAll(async () => {
    db = await create();
    await createUser(db, { id: other.id, email: other.email, username: 'scorm_other', name: 'Otto Other', services: ['MISC'] });
  });
  afterAll(async () => {
    await db?.close();
  });

  /** A published MISC course of the instructor's with one SCORM module per package, both learners enrolled. */
  async function course(
    packages: { version: '1.2' | '2004'; scos: (string | Record<string, unknown> & { id: string })[]; rule?: string; quizScore?: boolean; minSeconds?: number }[],
  ): Promise<{ courseId: string; modules: string[] }> {
    n += 1;
    const [{ id: courseId }] = (await db.query<{ id: string }>(
      `insert into public.courses (title, description, service, author_id, status)
       values ($1, 'SCORM run-time test course', 'MISC', $2, 'ACTIVE') returning id`,
      [`SCORM course ${n}`, personas.instructor.id],
    )).rows;
    const modules: string[] = [];
    for (const [i, p] of packages.entries()) {
      const [{ id }] = (await db.query<{ id: string }>(
        `insert into public.course_modules (course_id, title, order_index, kind) values ($1, $2, $3, 'scorm') returning id`,
        [courseId, `Package ${i + 1}`, i + 1],
      )).rows;
      await db.query(
        `insert into public.scorm_packages (module_id, course_id, version, edition, title, scos, storage_prefix, file_count,
           unpacked_bytes, completion_rule, score_is_quiz_score, min_seconds)
         values ($1::uuid, $2, $3, $4, 'A package', $5::text::jsonb, $1::text || '/1/', 3, 1000, $6, $7, $8)`,
        [id, courseId, p.version, p.version === '2004' ? '3rd' : null,
          JSON.stringify(p.scos.map((s) => (typeof s === 'string' ? { id: s } : s)).map((s) => ({ title: `SCO ${s.id}`, href: `${s.id}/index.html`, ...s }))),
          p.rule ?? 'completed-or-passed', p.quizScore ?? false, p.minSeconds ?? 0],
      );
      modules.push(id);
    }
    for (const user of [personas.learner.id, other.id]) {
      await db.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE')`, [user, courseId]);
    }
    return { courseId, modules };
  }

  const open = async (who: Persona, moduleId: string, sco: string) =>
    (await queryAs<{ session_id: string; entry: string; attempt: number; cmi: Record<string, string>; total_seconds: string }>(
      db, who, 'select * from private.scorm_open_session($1, $2)', [moduleId, sco],
    )).rows[0];
  const save = async (who: Persona, session: string, seq: number, values: Record<string, string>, finish = false) =>
    (await queryAs<{ seq: number; completion_status: string; success_status: string; module_completed: boolean; progress: number | null; seconds_to_minimum: number | null }>(
      db, who, 'select * from private.scorm_save($1, $2, $3::text::jsonb, $4)', [session, seq, JSON.stringify(values), finish],
    )).rows[0];
  const enrolment = async (who: Persona, courseId: string) =>
    (await db.query<{ progress: number; completed: boolean }>(
      'select progress, completed from public.enrollments where user_id = $1 and course_id = $2', [who.id, courseId],
    )).rows[0];

  it('1.2, rule passed: completed is not enough; passed completes the module, the course and a certificate scored from the package', async () => {
    const { courseId, modules: [m] } = await course([{ version: '1.2', scos: ['s1'], rule: 'passed', quizScore: true }]);
    const s = await open(personas.learner, m, 's1');
    expect(s.entry).toBe('ab-initio');
    expect(s.attempt).toBe(1);
    const r1 = await save(personas.learner, s.session_id, 1, { 'cmi.core.lesson_status': 'completed' });
    expect(r1.module_completed).toBe(false);
    expect((await enrolment(personas.learner, courseId)).progress).toBe(0);
    const r2 = await save(personas.learner, s.session_id, 2, {
      'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '85', 'cmi.core.score.max': '100', 'cmi.core.session_time': '0000:10:00',
    }, true);
    expect(r2).toMatchObject({ completion_status: 'completed', success_status: 'passed', module_completed: true, progress: 100 });
    expect(await enrolment(personas.learner, courseId)).toEqual({ progress: 100, completed: true });
    const record = (await queryAs<{ course_id: string; score: number }>(
      db, personas.learner, 'select course_id, score from private.learning_record($1)', [personas.learner.id],
    )).rows.find((r) => r.course_id === courseId);
    expect(record?.score).toBe(85);
    const [attempt] = (await db.query<{ total_seconds: string }>(
      'select total_seconds from public.scorm_attempts where module_id = $1 and user_id = $2', [m, personas.learner.id],
    )).rows;
    expect(Number(attempt.total_seconds)).toBe(600);
  });

  it('a sitting left without Finish (tab closed, page reloaded) ends when the next opens, its reported time counted once', async () => {
    const { modules: [m] } = await course([{ version: '1.2', scos: ['left'] }]);
    const first = await open(personas.learner, m, 'left');
    await save(personas.learner, first.session_id, 1, {
      'cmi.core.lesson_status': 'incomplete', 'cmi.core.exit': 'suspend', 'cmi.core.session_time': '0000:05:00',
    });
    const again = await open(personas.learner, m, 'left');
    expect([again.attempt, again.entry, Number(again.total_seconds)]).toEqual([1, 'resume', 300]);
    // The sitting left behind is over: a late save of it is refused, so its time cannot count twice.
    expect(await sqlState(() => save(personas.learner, first.session_id, 2, { 'cmi.core.session_time': '0000:06:00' }, true))).toBe('55000');
    await save(personas.learner, again.session_id, 1, {
      'cmi.core.lesson_status': 'passed', 'cmi.core.session_time': '0000:12:30', 'cmi.core.exit': '',
    }, true);
    // A finished sitting is not counted again when the next one opens.
    await open(personas.learner, m, 'left');
    const [attempt] = (await db.query<{ total_seconds: string }>(
      'select total_seconds from public.scorm_attempts where module_id = $1 and user_id = $2 and attempt = 1', [m, personas.learner.id],
    )).rows;
    expect(Number(attempt.total_seconds)).toBe(1050);
  });

  it('scorm_save checks the values against the package\'s version itself (22023, hint scorm_values, the version as detail), nothing saved', async () => {
    const { modules: [m] } = await course([{ version: '1.2', scos: ['v'] }]);
    const s = await open(personas.learner, m, 'v');
    const refusal = async (values: Record<string, string>) => {
      try {
        await save(personas.learner, s.session_id, 1, values);
        return {};
      } catch (error) {
        const e = error as { code?: string; hint?: string; detail?: string };
        return { code: e.code, hint: e.hint, detail: e.detail };
      }
    };
    // A caller that never ran the function's checks: 2004's elements, a read-only one, bad values.
    for (const values of [
      { 'cmi.completion_status': 'completed' },
      { 'cmi.core.student_id': 'someone-else' },
      { 'cmi.core.lesson_status': 'done' },
      { 'cmi.core.score.raw': '150' },
      { 'cmi.core.session_time': 'PT1M' },
      { 'cmi.objectives.undefined.status': 'passed' },
      { 'cmi.interactions.250.id': 'q' },
      { 'cmi.suspend_data': 'x'.repeat(4097) },
    ]) {
      expect(await refusal({ 'cmi.core.lesson_location': 'p2', ...values })).toEqual({ code: '22023', hint: 'scorm_values', detail: '1.2' });
    }
    const [session] = (await db.query<{ seq: number }>('select seq from public.scorm_sessions where id = $1', [s.session_id])).rows;
    expect(session.seq).toBe(0);
    expect((await save(personas.learner, s.session_id, 1, { 'cmi.suspend_data': 'x'.repeat(4096), 'cmi.objectives.0.id': 'o1' })).seq).toBe(1);
  });

  it('an attempt that never reported a score has no score, not 0', async () => {
    const { modules: [m] } = await course([{ version: '2004', scos: ['n'] }]);
    const s = await open(personas.learner, m, 'n');
    await save(personas.learner, s.session_id, 1, { 'cmi.completion_status': 'incomplete', 'cmi.location': '3' });
    const [attempt] = (await db.query<{ score: string | null }>(
      'select score from public.scorm_attempts where module_id = $1 and user_id = $2', [m, personas.learner.id],
    )).rows;
    expect(attempt.score).toBeNull();
    const [row] = (await queryAs<{ scos: { score: number | null }[] }>(
      db, personas.instructor, 'select * from private.scorm_module_learners($1, 20, 0) where user_id = $2', [m, personas.learner.id],
    )).rows;
    expect(row.scos[0].score).toBeNull();
  });

  it('2004: the manifest\'s passing score makes success_status from score.scaled, its threshold completion from progress_measure', async () => {
    const { courseId, modules: [m] } = await course([{
      version: '2004', rule: 'passed', scos: [{ id: 'p', passingScore: '0.8', completionThreshold: '0.75', objectives: ['PRIMARYOBJ'] }],
    }]);
    const s = await open(personas.learner, m, 'p');
    // The content reports the score and its progress, never success_status (the LMS derives it).
    const low = await save(personas.learner, s.session_id, 1, { 'cmi.score.scaled': '0.5', 'cmi.progress_measure': '0.5', 'cmi.completion_status': 'completed' });
    expect([low.completion_status, low.success_status, low.module_completed]).toEqual(['incomplete', 'failed', false]);
    const high = await save(personas.learner, s.session_id, 2, { 'cmi.score.scaled': '1', 'cmi.progress_measure': '1' }, true);
    expect([high.completion_status, high.success_status, high.module_completed]).toEqual(['completed', 'passed', true]);
    expect((await enrolment(personas.learner, courseId)).completed).toBe(true);
  });

  it('1.2: the manifest\'s mastery score makes a completed lesson passed or failed by score.raw', async () => {
    const { modules: [m] } = await course([{ version: '1.2', rule: 'passed', scos: [{ id: 'a', masteryScore: '80' }] }]);
    const s = await open(personas.learner, m, 'a');
    const failed = await save(personas.learner, s.session_id, 1, { 'cmi.core.lesson_status': 'completed', 'cmi.core.score.raw': '60' });
    expect([failed.completion_status, failed.success_status, failed.module_completed]).toEqual(['completed', 'failed', false]);
    const passed = await save(personas.learner, s.session_id, 2, { 'cmi.core.score.raw': '90' }, true);
    expect([passed.completion_status, passed.success_status, passed.module_completed]).toEqual(['completed', 'passed', true]);
  });

  it('records how long sessions really lasted (server clock) beside the reported time; an author\'s minimum holds completion back', async () => {
    const { courseId, modules: [m] } = await course([{ version: '1.2', scos: ['t'], minSeconds: 600 }]);
    const s = await open(personas.learner, m, 't');
    // Three calls: open, one save of passed with 100 and a reported half hour, finish. Not enough.
    const quick = await save(personas.learner, s.session_id, 1, {
      'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '100', 'cmi.core.session_time': '0000:30:00',
    }, true);
    expect(quick.module_completed).toBe(false);
    expect(quick.seconds_to_minimum).toBeGreaterThan(590);
    expect((await enrolment(personas.learner, courseId)).completed).toBe(false);
    const [first] = (await db.query<{ server_seconds: string; session_time: string }>(
      'select server_seconds, session_time from public.scorm_sessions where id = $1', [s.session_id],
    )).rows;
    expect(Number(first.server_seconds)).toBeLessThan(60);
    expect(first.session_time).toBe('0000:30:00');
    // The attempt is not met: the next sitting resumes it, and once it has lasted 10 minutes it counts.
    const again = await open(personas.learner, m, 't');
    expect(again.attempt).toBe(1);
    await db.query(`update public.scorm_sessions set started_at = now() - interval '11 minutes' where id = $1`, [again.session_id]);
    const later = await save(personas.learner, again.session_id, 1, { 'cmi.core.lesson_status': 'passed' }, true);
    expect([later.module_completed, later.seconds_to_minimum]).toEqual([true, null]);
    const [attempt] = (await db.query<{ server_seconds: string; total_seconds: string }>(
      'select server_seconds, total_seconds from public.scorm_attempts where module_id = $1 and user_id = $2', [m, personas.learner.id],
    )).rows;
    expect(Number(attempt.server_seconds)).toBeGreaterThanOrEqual(660);
    expect(Number(attempt.total_seconds)).toBe(1800);
  });

  it('flags to the instructor a completion far below the package\'s typical time, or far below what the package reported', async () => {
    const { modules: [m] } = await course([{ version: '2004', scos: ['q'] }]);
    // Three learners took about 20 minutes each (server clock); the learner took seconds.
    const others: Persona[] = [];
    for (let i = 0; i < 3; i++) {
      const id = crypto.randomUUID();
      const persona = { id, email: `scorm.typical.${n}.${i}@example.uk` };
      await createUser(db, { id, email: persona.email, username: `scorm_typ_${n}_${i}`, name: `Typical ${i}`, services: ['MISC'] });
      await db.query(`insert into public.enrollments (user_id, course_id, status)
                      select $1, course_id, 'ACTIVE' from public.course_modules where id = $2`, [id, m]);
      const s = await open(persona, m, 'q');
      await db.query(`update public.scorm_sessions set started_at = now() - interval '20 minutes' where id = $1`, [s.session_id]);
      await save(persona, s.session_id, 1, { 'cmi.completion_status': 'completed', 'cmi.session_time': 'PT20M' }, true);
      others.push(persona);
    }
    const s = await open(personas.learner, m, 'q');
    await save(personas.learner, s.session_id, 1, { 'cmi.completion_status': 'completed', 'cmi.session_time': 'PT20M' }, true);
    const rows = (await queryAs<{ user_id: string; scos: { quick: boolean; typicalSeconds: number; serverSeconds: number; totalSeconds: number }[] }>(
      db, personas.instructor, 'select * from private.scorm_module_learners($1, 20, 0)', [m],
    )).rows;
    const mine = rows.find((r) => r.user_id === personas.learner.id)!.scos[0];
    expect(mine.quick).toBe(true);
    expect(Math.round(mine.typicalSeconds)).toBeGreaterThanOrEqual(1199);
    expect(Number(mine.totalSeconds)).toBe(1200);
    expect(Number(mine.serverSeconds)).toBeLessThan(60);
    for (const persona of others) expect(rows.find((r) => r.user_id === persona.id)!.scos[0].quick).toBe(false);
  });

  it('a module completed quickly with no others to compare is flagged when the package reported far more time than it took', async () => {
    const { modules: [m] } = await course([{ version: '1.2', scos: ['r'] }]);
    const s = await open(personas.learner, m, 'r');
    await save(personas.learner, s.session_id, 1, { 'cmi.core.lesson_status': 'passed', 'cmi.core.session_time': '0000:45:00' }, true);
    const [row] = (await queryAs<{ scos: { quick: boolean; typicalSeconds: number | null }[] }>(
      db, personas.instructor, 'select * from private.scorm_module_learners($1, 20, 0) where user_id = $2', [m, personas.learner.id],
    )).rows;
    expect(row.scos[0]).toMatchObject({ quick: true, typicalSeconds: null });
  });

  it('2004 multi-SCO: the module completes only when every SCO is completed and not failed', async () => {
    const { courseId, modules: [m] } = await course([{ version: '2004', scos: ['a', 'b'], rule: 'completed' }]);
    const a = await open(personas.learner, m, 'a');
    const ra = await save(personas.learner, a.session_id, 1, { 'cmi.completion_status': 'completed', 'cmi.success_status': 'unknown' }, true);
    expect(ra.module_completed).toBe(false);
    const b = await open(personas.learner, m, 'b');
    const rb1 = await save(personas.learner, b.session_id, 1, { 'cmi.completion_status': 'completed', 'cmi.success_status': 'failed' });
    expect(rb1.module_completed).toBe(false);
    const rb2 = await save(personas.learner, b.session_id, 2, { 'cmi.success_status': 'unknown' }, true);
    expect(rb2.module_completed).toBe(true);
    expect(await enrolment(personas.learner, courseId)).toEqual({ progress: 100, completed: true });
    // Without score_is_quiz_score the package gives the record no score.
    const record = (await queryAs<{ course_id: string; score: number | null }>(
      db, personas.learner, 'select course_id, score from private.learning_record($1)', [personas.learner.id],
    )).rows.find((r) => r.course_id === courseId);
    expect(record?.score).toBeNull();
  });

  it('2004, rule passed needs success_status passed', async () => {
    const { modules: [m] } = await course([{ version: '2004', scos: ['x'], rule: 'passed' }]);
    const s = await open(personas.learner, m, 'x');
    expect((await save(personas.learner, s.session_id, 1, { 'cmi.completion_status': 'completed' })).module_completed).toBe(false);
    expect((await save(personas.learner, s.session_id, 2, { 'cmi.success_status': 'passed' })).module_completed).toBe(true);
  });

  it('a package that only ever reports incomplete never completes; suspend resumes the same attempt with its data', async () => {
    const { courseId, modules: [m] } = await course([{ version: '1.2', scos: ['only'] }]);
    const first = await open(personas.learner, m, 'only');
    await save(personas.learner, first.session_id, 1, {
      'cmi.core.lesson_status': 'incomplete', 'cmi.core.lesson_location': 'page-4', 'cmi.suspend_data': 'state=4',
      'cmi.core.exit': 'suspend', 'cmi.core.session_time': '0000:02:30',
    }, true);
    const again = await open(personas.learner, m, 'only');
    expect(again.attempt).toBe(1);
    expect(again.entry).toBe('resume');
    expect(again.cmi).toMatchObject({ 'cmi.core.lesson_location': 'page-4', 'cmi.suspend_data': 'state=4', 'cmi.core.lesson_status': 'incomplete' });
    expect(Number(again.total_seconds)).toBe(150);
    const r = await save(personas.learner, again.session_id, 1, { 'cmi.core.lesson_status': 'incomplete', 'cmi.core.exit': '' }, true);
    expect(r.module_completed).toBe(false);
    expect((await open(personas.learner, m, 'only')).entry).toBe('');
    expect((await enrolment(personas.learner, courseId)).progress).toBe(0);
    // Marking the SCORM module read (the content modules' path) does not complete it either.
    await queryAs(db, personas.learner, 'select private.mark_module_read($1)', [m]);
    expect((await enrolment(personas.learner, courseId)).progress).toBe(0);
  });

  it('saves in order only, and nothing after finish', async () => {
    const { modules: [m] } = await course([{ version: '1.2', scos: ['s'] }]);
    const s = await open(personas.learner, m, 's');
    await save(personas.learner, s.session_id, 3, { 'cmi.core.lesson_location': 'a' });
    expect(await sqlState(() => save(personas.learner, s.session_id, 3, { 'cmi.core.lesson_location': 'b' }))).toBe('55000');
    expect(await sqlState(() => save(personas.learner, s.session_id, 2, { 'cmi.core.lesson_location': 'b' }))).toBe('55000');
    await save(personas.learner, s.session_id, 4, {}, true);
    expect(await sqlState(() => save(personas.learner, s.session_id, 5, { 'cmi.core.lesson_status': 'passed' }))).toBe('55000');
    expect(await sqlState(() => save(personas.learner, s.session_id, 5, { bad: 'x' }))).toBe('55000');
  });

  it('another learner can neither see nor save into a learner\'s session; no one writes the tables directly', async () => {
    const { modules: [m] } = await course([{ version: '1.2', scos: ['s'] }]);
    const mine = await open(personas.learner, m, 's');
    await save(personas.learner, mine.session_id, 1, { 'cmi.core.lesson_status': 'incomplete' });
    // Each reads their own: the owner sees the attempt and session, the other learner nothing.
    const seen = async (who: Persona) => (await queryAs<{ a: number; s: number }>(db, who,
      `select (select count(*)::int from public.scorm_attempts where module_id = $1) as a,
              (select count(*)::int from public.scorm_sessions where id = $2) as s`, [m, mine.session_id])).rows[0];
    expect(await seen(personas.learner)).toEqual({ a: 1, s: 1 });
    expect(await seen(other)).toEqual({ a: 0, s: 0 });
    // The course's author reads the attempts; the admin everything.
    expect((await seen(personas.instructor)).a).toBe(1);
    expect(await seen(personas.admin)).toEqual({ a: 1, s: 1 });
    // Saving through someone else's session is "not found".
    expect(await sqlState(() => save(other, mine.session_id, 2, { 'cmi.core.lesson_status': 'passed' }))).toBe('P0002');
    // No role writes the tables straight: not a completed status, not a seq, not an attempt of one's own.
    for (const who of [personas.learner, other]) {
      expect(await sqlState(() => queryAs(db, who,
        `update public.scorm_attempts set completion_status = 'completed', success_status = 'passed' where module_id = $1`, [m]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, who,
        `insert into public.scorm_attempts (user_id, module_id, sco_id, completion_status, success_status) values ($1, $2, 's', 'completed', 'passed')`,
        [who.id, m]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, who, `update public.scorm_sessions set seq = 0, finished_at = null where id = $1`, [mine.session_id]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, who, `delete from public.scorm_sessions where id = $1`, [mine.session_id]))).toBe('42501');
    }
    const [row] = (await db.query<{ completion_status: string }>(
      'select completion_status from public.scorm_attempts where module_id = $1', [m])).rows;
    expect(row.completion_status).toBe('incomplete');
  });

  it('opens sessions only for enrolled learners, on a SCO of the package', async () => {
    const { courseId, modules: [m] } = await course([{ version: '2004', scos: ['one'] }]);
    expect(await sqlState(() => open(personas.learner, m, 'nope'))).toBe('P0002');
    await db.query('delete from public.enrollments where user_id = $1 and course_id = $2', [other.id, courseId]);
    expect(await sqlState(() => open(other, m, 'one'))).toBe('42501');
    expect(await sqlState(() => open(personas.instructor, m, 'one'))).toBe('42501');
  });

  it('shows the instructor each learner\'s status per SCO, and refuses a learner and another instructor', async () => {
    const { modules: [m] } = await course([{ version: '1.2', scos: ['s'] }]);
    const s = await open(personas.learner, m, 's');
    await save(personas.learner, s.session_id, 1, { 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '70' }, true);
    const rows = (await queryAs<{ user_id: string; module_completed: boolean; scos: { scoId: string; attempts: number; score: number }[]; total: number }>(
      db, personas.instructor, 'select * from private.scorm_module_learners($1, 20, 0)', [m],
    )).rows;
    expect(rows.map((r) => r.user_id).sort()).toEqual([personas.learner.id, other.id].sort());
    const mine = rows.find((r) => r.user_id === personas.learner.id)!;
    expect(mine.module_completed).toBe(true);
    expect(mine.scos).toMatchObject([{ scoId: 's', attempts: 1, score: 0.7, completionStatus: 'completed', successStatus: 'passed' }]);
    expect(Number(rows[0].total)).toBe(2);
    expect(await sqlState(() => queryAs(db, personas.learner, 'select * from private.scorm_module_learners($1, 20, 0)', [m]))).toBe('42501');
  });
});
