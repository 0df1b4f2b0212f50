// What an outside attack did straight through the database API (as role anon or
// authenticated with its own claims, as hosted Supabase exposes the tables), performed again. Each
// attack is refused by the database alone, and the legitimate write beside it still works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor, backends, createUser, ids, personas, queryAs, rolledBack, sqlState, type Persona, type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner } = personas;

describe.each(backends)('attack findings: each hole of the outside attack stays closed on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
  });
  afterAll(async () => {
    await db?.close();
  });

  const state = (persona: Persona | null, text: string, params: unknown[] = []) =>
    sqlState(() => rolledBack(db, persona, (tx) => tx.query(text, params)));

  describe('16.4 quiz questions hold only rows scoring can handle', () => {
    const quiz = ids.quiz(1, 2); // the instructor's own quiz
    const insert = (type: string, options: string, correct: string) => state(instructor,
      `insert into public.quiz_questions (quiz_id, question_text, question_type, options, correct_answers)
       values ($1, 'Which is right here?', $2::public.question_type, ($3::text)::jsonb, ($4::text)::jsonb)`, [quiz, type, options, correct]);
    const two = '[{"text":"Yes","isCorrect":true},{"text":"No","isCorrect":false}]';

    it('refuses the rows the attack wrote, as the author through the database API', async () => {
      const attacks: [string, string, string][] = [
        ['options of numbers', '[1, 2, 3]', '[0]'],
        ['options of bare objects', '[{"a": 1}, {"b": 2}]', '[0]'],
        ['a scoring key of a string', two, '["a"]'],
        ['a scoring key out of range', two, '[99]'],
        ['a negative scoring key', two, '[-1]'],
        ['a fractional scoring key', two, '[0.5]'],
        ['an empty scoring key', two, '[]'],
        ['a repeated scoring key', '[{"text":"A","isCorrect":true},{"text":"B","isCorrect":true}]', '[0, 0]'],
        ['a key that disagrees with isCorrect', two, '[1]'],
        ['an empty option text', '[{"text":"  ","isCorrect":true},{"text":"No","isCorrect":false}]', '[0]'],
        ['one option', '[{"text":"Yes","isCorrect":true}]', '[0]'],
        ['eleven options', JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ text: `O${i}`, isCorrect: i === 0 }))), '[0]'],
        ['not an array', '{"text":"Yes"}', '[0]'],
      ];
      for (const [what, options, correct] of attacks) {
        expect(await insert('MULTIPLE_CHOICE', options, correct), what).toBe('23514');
      }
      // True/false: exactly two options and one correct answer.
      expect(await insert('TRUE_FALSE', '[{"text":"True","isCorrect":true},{"text":"False","isCorrect":true}]', '[0, 1]')).toBe('23514');
      expect(await insert('TRUE_FALSE', '[{"text":"True","isCorrect":true},{"text":"False","isCorrect":false},{"text":"Maybe","isCorrect":false}]', '[0]')).toBe('23514');
      // And an update of a good row into a bad one.
      expect(await state(instructor, `update public.quiz_questions set correct_answers = '["a", 99, -1]' where id = $1`, [ids.question(1, 2, 1)])).toBe('23514');
      expect(await state(instructor, `update public.quiz_questions set options = '[1, {"x": {}}]' where id = $1`, [ids.question(1, 2, 1)])).toBe('23514');
    });

    it('accepts well-formed questions: one answer, several answers, true/false', async () => {
      expect(await insert('MULTIPLE_CHOICE', two, '[0]')).toBeNull();
      expect(await insert('MULTIPLE_CHOICE', '[{"text":"A","isCorrect":true},{"text":"B","isCorrect":false},{"text":"C","isCorrect":true}]', '[0, 2]')).toBeNull();
      expect(await insert('MULTIPLE_CHOICE', '[{"text":"A","isCorrect":true},{"text":"B","isCorrect":false},{"text":"C","isCorrect":true}]', '[2, 0]')).toBeNull();
      expect(await insert('TRUE_FALSE', '[{"text":"True","isCorrect":false},{"text":"False","isCorrect":true}]', '[1]')).toBeNull();
    });

    it('every question of the seed is well formed', async () => {
      const bad = await db.query(`select id from public.quiz_questions
        where not private.quiz_question_is_valid(question_type, options, correct_answers)`);
      expect(bad.rows).toEqual([]);
    });
  });

  describe('16.2 the registration rules hold for every new account, whatever route created it', () => {
    // What POST /auth/v1/signup does with the anon key: Auth inserts auth.users with the client's metadata.
    const signUp = (id: string, email: string, meta: Record<string, unknown>) => sqlState(() => db.transaction((tx) => tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
         raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(),
         '{"provider":"email","providers":["email"]}', ($3::text)::jsonb, now(), now())`,
      [id, email, JSON.stringify(meta)])));
    let n = 0;
    const nextId = () => `00000000-0000-4000-a000-0000001600${String(++n).padStart(2, '0')}`;

    it('refuses a username that is someone else\'s email, looks like another, or carries markup or a formula', async () => {
      for (const username of [
        'admin@example.uk', 'ADMIN@EXAMPLE.UK', 'adm\u200bin', 'admin\u202e', '<img src=x onerror=alert(1)>',
        '=HYPERLINK("http://x")', '+SUM(A1)', 'a b', 'ab', 'x'.repeat(51),
      ]) {
        const id = nextId();
        expect(await signUp(id, `victim.${n}@example.org`, { username, name: 'Mallory' }), username).toBe('23514');
        expect((await db.query('select 1 from auth.users where id = $1', [id])).rows, username).toEqual([]);
      }
      // Unique without regard to case.
      expect(await signUp(nextId(), 'case.clash@example.org', { username: 'ADMIN', name: 'Mallory' })).toBe('23505');
    });

    it('refuses names with control, zero-width or bidirectional-override characters, and normalises to NFC', async () => {
      for (const name of ['Sam\u200bPatel', 'Sam\u202ePatel', 'Sam\u0007Patel', 'Sam\u2066Patel\u2069', '\ufeffSam']) {
        expect(await signUp(nextId(), `named.${n}@example.org`, { username: `named_${n}`, name }), JSON.stringify(name)).toBe('23514');
      }
      const id = nextId();
      expect(await signUp(id, 'zoe@example.org', { username: 'zoe_nfc', name: 'Zoe\u0308 Brontë' })).toBeNull();
      const row = await db.query<{ name: string }>('select name from public.profiles where id = $1', [id]);
      expect(row.rows[0].name).toBe('Zoë Brontë'.normalize('NFC'));
      // A name written later through the database API obeys the same rule.
      expect(await state(learner, `update public.profiles set name = 'Sam\u200bPatel' where id = $1`, [learner.id])).toBe('23514');
      expect(await state(learner, `update public.profiles set name = 'Samira Patel' where id = $1`, [learner.id])).toBeNull();
    });

    it('bounds the size of user metadata, at sign-up and after', async () => {
      expect(await signUp(nextId(), 'big@example.org', { username: 'big_meta', name: 'Big', padding: 'x'.repeat(3000) })).toBe('23514');
      expect(await sqlState(() => db.transaction((tx) => tx.query(
        `update auth.users set raw_user_meta_data = jsonb_build_object('padding', repeat('x', 3000)) where id = $1`, [learner.id])))).toBe('23514');
      // A legitimate sign-up still works, and one without a username falls back to the email.
      expect(await signUp(nextId(), 'fine.person@example.org', { username: 'fine.person-1', name: 'Fine Person' })).toBeNull();
      const id = nextId();
      expect(await signUp(id, 'no.name+tag@example.org', {})).toBeNull();
      const row = await db.query<{ username: string }>('select username from public.profiles where id = $1', [id]);
      expect(row.rows[0].username).toMatch(/^[A-Za-z0-9_.-]{3,50}$/);
    });

    it('matches an identifier with @ only against emails, and any other only against usernames', async () => {
      // The attack's state, forced in as the service role could: a username equal to an email.
      await db.query(`alter table public.profiles drop constraint profiles_username_pattern`);
      try {
        await createUser(db, { id: nextId(), email: 'squatter@example.org', username: 'tmp_squatter', name: 'Squatter' });
        await db.query(`update public.profiles set username = 'student@example.uk' where email = 'squatter@example.org'`);
        const email = await db.query<{ email: string }>(`select private.login_email('student@example.uk') as email`);
        expect(email.rows[0].email).toBe('student@example.uk');
        const upper = await db.query<{ email: string }>(`select private.login_email(' STUDENT@example.uk ') as email`);
        expect(upper.rows[0].email).toBe('student@example.uk');
      } finally {
        await db.query(`delete from auth.users where email = 'squatter@example.org'`);
        await db.query(`alter table public.profiles add constraint profiles_username_pattern check (username ~ '^[A-Za-z0-9_.-]{3,50}$')`);
      }
      const byName = await db.query<{ email: string }>(`select private.login_email('Student') as email`);
      expect(byName.rows[0].email).toBe('student@example.uk');
    });
  });

  describe('16.1 cover and module image columns are written only by the upload path', () => {
    const coverUrl = (course: string, file: string) => `http://127.0.0.1:54321/storage/v1/object/public/course-covers/${course}/${file}`;
    const imageUrl = (course: string, file: string) => `http://127.0.0.1:54321/storage/v1/object/public/module-images/${course}/${file}`;
    const own = ids.course(1); // the instructor's
    const other = ids.course(4); // the admin's

    beforeAll(async () => {
      await db.query(`insert into storage.objects (bucket_id, name) values
        ('course-covers', $1), ('course-covers', $2), ('module-images', $3), ('module-images', $4)`,
      [`${own}/0a1b2c3d-0000-4000-8000-000000000001.png`, `${other}/0a1b2c3d-0000-4000-8000-000000000002.png`,
        `${own}/0a1b2c3d-0000-4000-8000-000000000003.png`, `${other}/0a1b2c3d-0000-4000-8000-000000000004.png`]);
    });

    it('refuses the attack: an author writing another course\'s file into their own course\'s columns', async () => {
      const victim = coverUrl(other, '0a1b2c3d-0000-4000-8000-000000000002.png');
      expect(await state(instructor, 'update public.courses set cover_image = $1 where id = $2', [victim, own])).toBe('42501');
      expect(await state(instructor, `insert into public.courses (title, description, service, author_id, cover_image)
        values ('Cover thief course', 'A course that steals a cover', 'UKPS', $1, $2)`, [instructor.id, victim])).toBe('42501');
      expect(await state(instructor, 'update public.course_modules set image = $1 where id = $2',
        [imageUrl(other, '0a1b2c3d-0000-4000-8000-000000000004.png'), ids.module(1, 1)])).toBe('42501');
      expect(await state(admin, 'update public.courses set cover_image = $1 where id = $2', [victim, own])).toBe('42501');
      // Through the setter: only a file of the course's own folder that exists.
      expect(await state(instructor, 'select private.set_course_cover($1, $2)', [own, victim])).toBe('22023');
      expect(await state(instructor, 'select private.set_course_cover($1, $2)', [own, coverUrl(own, '0a1b2c3d-0000-4000-8000-00000000ffff.png')])).toBe('22023');
      expect(await state(instructor, 'select private.set_course_cover($1, $2)', [own, coverUrl(own, '../x.png')])).toBe('22023');
      expect(await state(instructor, 'select private.set_module_image($1, $2)',
        [ids.module(1, 1), imageUrl(other, '0a1b2c3d-0000-4000-8000-000000000004.png')])).toBe('22023');
      // Nobody else's course at all; visitors cannot call the setters.
      expect(await state(instructor, 'select private.set_course_cover($1, null)', [other])).toBe('42501');
      expect(await state(learner, 'select private.set_course_cover($1, null)', [own])).toBe('42501');
      expect(await state(null, 'select private.set_course_cover($1, null)', [own])).toBe('42501');
    });

    it('lets the author and an admin set a file of the course\'s own folder, returning the one it replaced', async () => {
      const mine = coverUrl(own, '0a1b2c3d-0000-4000-8000-000000000001.png');
      const r = await rolledBack(db, instructor, async (tx) => {
        await tx.query('select private.set_course_cover($1, $2)', [own, mine]);
        return tx.query<{ old: string }>('select private.set_course_cover($1, null) as old', [own]);
      });
      expect(r.rows).toEqual([{ old: mine }]);
      expect(await state(admin, 'select private.set_course_cover($1, $2)', [other, coverUrl(other, '0a1b2c3d-0000-4000-8000-000000000002.png')])).toBeNull();
      expect(await state(instructor, 'select private.set_module_image($1, $2)',
        [ids.module(1, 1), imageUrl(own, '0a1b2c3d-0000-4000-8000-000000000003.png')])).toBeNull();
    });
  });

  describe('16.7 nobody but an administrator lists the public buckets', () => {
    it('visitors, learners and instructors see no object row; an admin does', async () => {
      await db.query(`insert into storage.objects (bucket_id, name) values ('course-covers', 'listing/x.png') on conflict do nothing`);
      for (const persona of [null, learner, instructor]) {
        const r = await queryAs(db, persona, `select name from storage.objects where bucket_id in ('course-covers', 'module-images')`);
        expect(r.rows, persona?.email ?? 'visitor').toEqual([]);
      }
      const a = await queryAs(db, admin, `select name from storage.objects where bucket_id = 'course-covers'`);
      expect(a.rows.length).toBeGreaterThan(0);
    });
  });

  describe('16.8 one scope rule for the compliance summary and the people behind it', () => {
    const services = ['UKPS', 'UKAS', 'UKFRS', 'UKHW', 'AUX', 'MISC'];
    let otherInstructor: Persona;
    beforeAll(async () => {
      otherInstructor = await addOtherInstructor(db); // UKPS and UKAS: not MISC
      await createUser(db, { id: '00000000-0000-4000-a000-0000001680aa', email: 'dual@example.uk', username: 'dual_service', name: 'Dana Dual', services: ['UKPS', 'MISC'] });
      await db.query(`insert into public.required_training (course_id, role) values ($1, 'STUDENT')`, [ids.course(12)]);
    });

    it('for every persona and service filter, the people listed are exactly the people counted', async () => {
      for (const persona of [admin, instructor, otherInstructor]) {
        for (const service of [...services, null]) {
          const people = await queryAs<{ user_id: string; services: string[] }>(db, persona,
            'select user_id, services from private.compliance_people($1::public.service_code, null, null, null, 1000, 0)', [service]);
          const summary = await queryAs<{ people: string }>(db, persona,
            'select people from private.compliance_summary($1::public.service_code)', [service]);
          const counted = summary.rows.reduce((sum, r) => sum + Number(r.people), 0);
          if (service) expect(people.rows.length, `${persona.email} ${service}`).toBe(counted);
          else expect(people.rows.length <= counted, `${persona.email} all`).toBe(true);
        }
      }
      // The attack: an instructor without MISC asks for MISC and now gets nobody, as the summary says.
      const misc = await queryAs(db, otherInstructor, `select * from private.compliance_people('MISC', null, null, null, 1000, 0)`);
      expect(misc.rows).toEqual([]);
      const dual = await queryAs<{ user_id: string }>(db, otherInstructor, `select user_id from private.compliance_people('UKPS', null, null, null, 1000, 0)`);
      expect(dual.rows.map((r) => r.user_id)).toContain('00000000-0000-4000-a000-0000001680aa');
      const mine = await queryAs(db, instructor, `select * from private.compliance_people('MISC', null, null, null, 1000, 0)`);
      expect(mine.rows.length).toBeGreaterThan(0);
      expect(await state(learner, 'select * from private.compliance_people()')).toBe('42501');
      expect(await state(learner, 'select * from private.compliance_summary()')).toBe('42501');
    });
  });

  describe('16.5 the profile email follows the sign-in email and nothing else', () => {
    it('no API role may write profiles.email, not even for themselves or as an admin', async () => {
      expect(await state(learner, `update public.profiles set email = 'unverified@example.org' where id = $1`, [learner.id])).toBe('42501');
      expect(await state(admin, `update public.profiles set email = 'unverified@example.org' where id = $1`, [learner.id])).toBe('42501');
      expect(await state(instructor, `update public.profiles set email = 'unverified@example.org' where id = $1`, [instructor.id])).toBe('42501');
      // The name is still theirs to change, and Auth's email change still reaches the profile.
      expect(await state(learner, `update public.profiles set name = 'Samira Patel' where id = $1`, [learner.id])).toBeNull();
      await db.transaction(async (tx) => {
        await tx.query(`update auth.users set email = 'sam.changed@example.uk' where id = $1`, [learner.id]);
        const p = await tx.query('select email from public.profiles where id = $1', [learner.id]);
        expect(p.rows).toEqual([{ email: 'sam.changed@example.uk' }]);
        throw new Error('rollback');
      }).catch((e: Error) => { if (e.message !== 'rollback') throw e; });
      const visible = await queryAs<{ email: string }>(db, learner, 'select email from public.profiles where id = $1', [learner.id]);
      expect(visible.rows).toEqual([{ email: learner.email }]);
    });
  });
});
