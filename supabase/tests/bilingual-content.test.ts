// Welsh course content beside the English (supabase/schemas/02_courses_and_modules.sql, 03_quizzes.sql,
// docs/decisions/bilingual-course-content.md): who may write it (the column grants of the English,
// the same rows), its rules (the Welsh options match the options one for one), courses.available_in_welsh
// kept by the triggers as modules, quizzes and questions change, and the learner's reads.
// Course 1 (JESIP, the instructor's; the seed learner is enrolled) has no Welsh in the seed: 4
// content modules, a quiz on module 2 with a description and 3 questions, each with an explanation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherInstructor, backends, ids, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const { admin, instructor, learner } = personas;
const course = ids.course(1);
const quiz = ids.quiz(1, 2);

describe.each(backends)('bilingual course content on $name', ({ create }) => {
  let db: TestDatabase;
  let otherInstructor: Persona;

  beforeAll(async () => {
    db = await create();
    otherInstructor = await addOtherInstructor(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  const inWelsh = async () =>
    (await db.query<{ available_in_welsh: boolean }>('select available_in_welsh from public.courses where id = $1', [course]))
      .rows[0].available_in_welsh;

  /** Gives every module, the quiz and every question of course 1 its Welsh, as the instructor. */
  const translateParts = async () => {
    await queryAs(db, instructor, `update public.course_modules set title_cy = 'Modiwl ' || order_index,
      content_cy = '# Modiwl ' || order_index || E'\\n\\nCynnwys y modiwl yn Gymraeg.' where course_id = $1`, [course]);
    await queryAs(db, instructor, `update public.quizzes set title_cy = 'Gwirio egwyddorion JESIP',
      description_cy = 'Gwiriwch eich dealltwriaeth o''r modiwl hwn.' where id = $1`, [quiz]);
    await queryAs(db, instructor, `update public.quiz_questions set question_text_cy = 'Cwestiwn ' || order_index || ' yn Gymraeg',
      options_cy = (select jsonb_agg('Dewis ' || o.ordinality order by o.ordinality) from jsonb_array_elements(options) with ordinality o),
      explanation_cy = 'Esboniad yn Gymraeg.' where quiz_id = $1`, [quiz]);
  };

  it('the seed has three courses complete in Welsh (Airwave, Rest Centres, Safeguarding) and the rest English-only', async () => {
    const r = await db.query<{ id: string }>('select id from public.courses where available_in_welsh order by id');
    expect(r.rows.map((row) => row.id)).toEqual([ids.course(3), ids.course(11), ids.course(12)]);
    const parts = await db.query<{ missing: number }>(`select count(*)::int as missing from public.course_modules m
      where m.course_id = any($1::uuid[]) and (m.title_cy is null or m.content_cy is null)`, [[ids.course(3), ids.course(11), ids.course(12)]]);
    expect(parts.rows).toEqual([{ missing: 0 }]);
  });

  it('starts with no Welsh and the course not available in Welsh', async () => {
    const r = await db.query('select title_cy, description_cy, available_in_welsh from public.courses where id = $1', [course]);
    expect(r.rows).toEqual([{ title_cy: null, description_cy: null, available_in_welsh: false }]);
  });

  it('the course author writes the Welsh of the course; a learner and another instructor change no row', async () => {
    for (const persona of [learner, otherInstructor]) {
      const u = await queryAs(db, persona, `update public.courses set title_cy = 'Wedi''i herwgipio' where id = $1`, [course]);
      expect(u.rowCount).toBe(0);
      const m = await queryAs(db, persona, `update public.course_modules set title_cy = 'Wedi''i herwgipio' where course_id = $1`, [course]);
      expect(m.rowCount).toBe(0);
      const q = await queryAs(db, persona, `update public.quiz_questions set question_text_cy = 'Wedi''i herwgipio' where quiz_id = $1`, [quiz]);
      expect(q.rowCount).toBe(0);
    }
    const r = await queryAs(db, instructor, `update public.courses set title_cy = 'Athrawiaeth ar y Cyd JESIP',
      description_cy = 'Egwyddorion Rhyngweithredu''r Gwasanaethau Brys ar y Cyd i gomanderiaid.' where id = $1 returning title_cy`, [course]);
    expect(r.rows).toEqual([{ title_cy: 'Athrawiaeth ar y Cyd JESIP' }]);
    // The title and description alone do not make the course available: its modules have no Welsh.
    expect(await inWelsh()).toBe(false);
  });

  it('no client writes available_in_welsh, not even an administrator', async () => {
    for (const persona of [instructor, admin, learner]) {
      expect(await sqlState(() => queryAs(db, persona, 'update public.courses set available_in_welsh = true where id = $1', [course])))
        .toBe('42501');
    }
    expect(await sqlState(() => queryAs(db, admin, `insert into public.courses (title, description, service, author_id, available_in_welsh)
      values ('Welsh flag', 'A course that claims to be in Welsh', 'UKPS', $1, true)`, [ids.admin]))).toBe('42501');
    // The service role may send it, but the trigger works it out: a course without Welsh is not in Welsh.
    const r = await db.query(`insert into public.courses (title, description, service, available_in_welsh)
      values ('Welsh flag', 'A course that claims to be in Welsh', 'UKPS', true) returning available_in_welsh`);
    expect(r.rows).toEqual([{ available_in_welsh: false }]);
  });

  it('becomes available once every module, the quiz and every question have Welsh', async () => {
    await queryAs(db, instructor, `update public.course_modules set title_cy = 'Modiwl ' || order_index where course_id = $1`, [course]);
    expect(await inWelsh()).toBe(false);
    await translateParts();
    expect(await inWelsh()).toBe(true);
  });

  it('follows edits, additions and deletions of modules, quizzes and questions', async () => {
    const question = ids.question(1, 2, 1);
    // A question's Welsh explanation removed (the English one stays): not available; back: available.
    await queryAs(db, instructor, 'update public.quiz_questions set explanation_cy = null where id = $1', [question]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, `update public.quiz_questions set explanation_cy = 'Esboniad.' where id = $1`, [question]);
    expect(await inWelsh()).toBe(true);
    // Without the English explanation the Welsh one is not needed.
    await queryAs(db, instructor, 'update public.quiz_questions set explanation = null, explanation_cy = null where id = $1', [question]);
    expect(await inWelsh()).toBe(true);

    // A new question without Welsh, then deleted.
    const added = await queryAs<{ id: string }>(db, instructor, `insert into public.quiz_questions (quiz_id, question_text, order_index, options, correct_answers)
      values ($1, 'A question in English only', 9, '[{"text":"a","isCorrect":true},{"text":"b","isCorrect":false}]', '[0]') returning id`, [quiz]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, 'delete from public.quiz_questions where id = $1', [added.rows[0].id]);
    expect(await inWelsh()).toBe(true);

    // A new module without Welsh, then given it; a module's Welsh body removed.
    const mod = await queryAs<{ id: string }>(db, instructor, `insert into public.course_modules (course_id, title, content, order_index)
      values ($1, 'English only module', 'Content in English only, nothing more.', 9) returning id`, [course]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, `update public.course_modules set title_cy = 'Modiwl newydd', content_cy = 'Cynnwys newydd yn Gymraeg.' where id = $1`,
      [mod.rows[0].id]);
    expect(await inWelsh()).toBe(true);
    await queryAs(db, instructor, 'update public.course_modules set content_cy = null where id = $1', [mod.rows[0].id]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, 'delete from public.course_modules where id = $1', [mod.rows[0].id]);
    expect(await inWelsh()).toBe(true);

    // A SCORM module needs only its title in Welsh (a package is one language).
    const scorm = await queryAs<{ id: string }>(db, instructor, `insert into public.course_modules (course_id, title, order_index, kind)
      values ($1, 'A SCORM package', 10, 'scorm') returning id`, [course]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, `update public.course_modules set title_cy = 'Pecyn SCORM' where id = $1`, [scorm.rows[0].id]);
    expect(await inWelsh()).toBe(true);

    // A session's English introduction needs its Welsh; a practical without an introduction needs only its title.
    const session = await queryAs<{ id: string }>(db, instructor, `insert into public.course_modules (course_id, title, content, order_index, kind)
      values ($1, 'Classroom day', 'Meet at the drill yard at nine, in kit.', 11, 'session') returning id`, [course]);
    await queryAs(db, instructor, `update public.course_modules set title_cy = 'Diwrnod dosbarth' where id = $1`, [session.rows[0].id]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, `update public.course_modules set content_cy = 'Cyfarfod ar yr iard ddril am naw, yn eich cit.' where id = $1`,
      [session.rows[0].id]);
    expect(await inWelsh()).toBe(true);
    const practical = await queryAs<{ id: string }>(db, instructor, `insert into public.course_modules (course_id, title, content, order_index, kind)
      values ($1, 'Practical check', '', 12, 'assessment') returning id`, [course]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, `update public.course_modules set title_cy = 'Gwiriad ymarferol' where id = $1`, [practical.rows[0].id]);
    expect(await inWelsh()).toBe(true);
    // Its English introduction added: the Welsh one is needed too.
    await queryAs(db, instructor, `update public.course_modules set content = 'Your assessor watches you start the set.' where id = $1`, [practical.rows[0].id]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, 'delete from public.course_modules where id = any ($1::uuid[])', [[session.rows[0].id, practical.rows[0].id]]);
    expect(await inWelsh()).toBe(true);

    // The quiz's Welsh title removed; a new quiz on another module without Welsh; deleted.
    await queryAs(db, instructor, 'update public.quizzes set title_cy = null where id = $1', [quiz]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, `update public.quizzes set title_cy = 'Gwirio egwyddorion JESIP' where id = $1`, [quiz]);
    expect(await inWelsh()).toBe(true);
    await queryAs(db, instructor, `insert into public.quizzes (module_id, title) values ($1, 'English quiz')`, [ids.module(1, 3)]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, 'delete from public.quizzes where module_id = $1', [ids.module(1, 3)]);
    expect(await inWelsh()).toBe(true);

    // The course's own Welsh description removed.
    await queryAs(db, instructor, 'update public.courses set description_cy = null where id = $1', [course]);
    expect(await inWelsh()).toBe(false);
    await queryAs(db, instructor, `update public.courses set description_cy = 'Egwyddorion JESIP i gomanderiaid.' where id = $1`, [course]);
    expect(await inWelsh()).toBe(true);
  });

  it('refuses Welsh options that do not match the options, blank Welsh and a Welsh body on a SCORM module', async () => {
    const question = ids.question(1, 2, 2); // TRUE_FALSE: two options
    for (const optionsCy of ['["Gwir"]', '["Gwir", "Gau", "Arall"]', '["Gwir", "  "]', '["Gwir", 1]', '{"0": "Gwir"}']) {
      expect(await sqlState(() => queryAs(db, instructor, 'update public.quiz_questions set options_cy = $2::text::jsonb where id = $1', [question, optionsCy])),
        optionsCy).toBe('23514');
    }
    // Changing the options to a different number than the Welsh ones is refused as well.
    expect(await sqlState(() => queryAs(db, instructor, `update public.quiz_questions set options = options || '[{"text":"Maybe","isCorrect":false}]'::jsonb
      where id = $1`, [ids.question(1, 2, 1)]))).toBe('23514');
    const checks: [string, string, unknown[]][] = [
      ['course title too short', `update public.courses set title_cy = ' ab ' where id = $1`, [course]],
      ['course description too short', `update public.courses set description_cy = 'Byr' where id = $1`, [course]],
      ['module title blank', `update public.course_modules set title_cy = '   ' where id = $1`, [ids.module(1, 1)]],
      ['module body blank', `update public.course_modules set content_cy = ' ' where id = $1`, [ids.module(1, 1)]],
      ['question text too short', `update public.quiz_questions set question_text_cy = 'Pam?' where id = $1`, [question]],
      ['explanation blank', `update public.quiz_questions set explanation_cy = '' where id = $1`, [question]],
      ['quiz title too short', `update public.quizzes set title_cy = 'Cw' where id = $1`, [quiz]],
    ];
    for (const [name, sql, params] of checks) expect(await sqlState(() => queryAs(db, instructor, sql, params)), name).toBe('23514');
    const scorm = await db.query<{ id: string }>(`select id from public.course_modules where course_id = $1 and kind = 'scorm'`, [course]);
    expect(await sqlState(() => queryAs(db, instructor, `update public.course_modules set content_cy = 'Cynnwys' where id = $1`, [scorm.rows[0].id])))
      .toBe('23514');
  });

  it('a learner reads the Welsh body and questions through the functions only', async () => {
    expect(await sqlState(() => queryAs(db, learner, 'select content_cy from public.course_modules where id = $1', [ids.module(1, 1)]))).toBe('42501');
    const outline = await queryAs(db, learner, 'select title_cy from public.course_modules where id = $1', [ids.module(1, 1)]);
    expect(outline.rows).toEqual([{ title_cy: 'Modiwl 1' }]);
    const body = await queryAs<{ content_cy: string }>(db, learner, 'select content_cy from private.module_body($1)', [ids.module(1, 1)]);
    expect(body.rows[0].content_cy).toContain('Cynnwys y modiwl yn Gymraeg');
    const bodies = await queryAs<{ content_cy: string }>(db, learner, 'select content_cy from private.course_module_bodies($1)', [course]);
    expect(bodies.rows.filter((b) => b.content_cy !== null).length).toBeGreaterThanOrEqual(4);
    const questions = await queryAs<{ question_text_cy: string; options: unknown[]; options_cy: string[] }>(db, learner,
      'select question_text_cy, options, options_cy from private.quiz_questions_for_learner($1)', [quiz]);
    expect(questions.rows.length).toBe(3);
    for (const q of questions.rows) {
      expect(q.question_text_cy).toMatch(/yn Gymraeg$/);
      expect(q.options_cy.length).toBe(q.options.length);
    }
    // The questions themselves stay closed to a learner.
    expect((await queryAs(db, learner, 'select options_cy from public.quiz_questions where quiz_id = $1', [quiz])).rows).toEqual([]);
  });

  it('the catalogue search finds a course by a word of its Welsh title or description', async () => {
    for (const word of ['%athrawiaeth%', '%gomanderiaid%']) {
      const r = await queryAs<{ id: string }>(db, learner, 'select private.course_search_ids($1) as id', [word]);
      expect(r.rows.map((row) => row.id), word).toEqual([course]);
    }
  });
});
