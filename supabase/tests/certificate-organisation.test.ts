// The organisation on a certificate: private.issue_certificate snapshots the learner's
// organisation name at issue, and the public verification shows that snapshot, so a learner who later
// moves (to another organisation, or to none) keeps a true record of where they earned it. A learner
// of no organisation gets none, and verification shows nothing else new.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, ids, type Persona, queryAs, type TestDatabase } from './helpers/database';

const orgA = 'c0000000-0000-4000-a000-000000000001';
const orgB = 'c0000000-0000-4000-a000-000000000002';
const mover: Persona = { id: '00000000-0000-4000-a000-00000000c001', email: 'mover@example.uk' };
const loner: Persona = { id: '00000000-0000-4000-a000-00000000c002', email: 'loner@example.uk' };
const course = ids.course(1);

describe.each(backends)('the organisation on a certificate on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Certshire Police', 'CSP', 'UKPS'), ($2, 'Certshire Ambulance Trust', 'CSAT', 'UKAS')`, [orgA, orgB]);
    await createUser(db, { id: mover.id, email: mover.email, username: 'cert_mover', name: 'Cert Mover', role: 'STUDENT', services: ['UKPS'] });
    await createUser(db, { id: loner.id, email: loner.email, username: 'cert_loner', name: 'Cert Loner', role: 'STUDENT', services: ['UKPS'] });
    await db.query('update public.profiles set organisation_id = $2 where id = $1', [mover.id, orgA]);
    await db.query('insert into public.enrollments (user_id, course_id) values ($1, $3), ($2, $3)', [mover.id, loner.id, course]);
    await db.query('select private.issue_certificate($1, $2), private.issue_certificate($3, $2)', [mover.id, course, loner.id]);
  });
  afterAll(async () => {
    await db?.close();
  });

  const codeOf = async (userId: string) =>
    (await db.query<{ verification_code: string }>('select verification_code from public.certificates where user_id = $1 and course_id = $2', [userId, course]))
      .rows[0].verification_code;
  const verify = async (code: string) =>
    (await queryAs<Record<string, unknown>>(db, null, 'select * from private.verify_certificate($1)', [code])).rows[0];

  it('is snapshotted at issue and shown to anyone who verifies the code', async () => {
    const stored = await db.query('select organisation_name from public.certificates where user_id = $1', [mover.id]);
    expect(stored.rows).toEqual([{ organisation_name: 'Certshire Police' }]);
    const verified = await verify(await codeOf(mover.id));
    expect(verified.organisation_name).toBe('Certshire Police');
    expect(verified.learner_name).toBe('Cert Mover');
  });

  it('stays the organisation of issue after the learner moves to another organisation, or to none', async () => {
    const code = await codeOf(mover.id);
    await db.query('update public.profiles set organisation_id = $2 where id = $1', [mover.id, orgB]);
    expect((await verify(code)).organisation_name).toBe('Certshire Police');
    await db.query('update public.profiles set organisation_id = null where id = $1', [mover.id]);
    expect((await verify(code)).organisation_name).toBe('Certshire Police');
    // A reissue refreshes the learner's name, but the organisation stays the one of issue.
    const cert = await db.query<{ id: string }>('select id from public.certificates where user_id = $1', [mover.id]);
    await queryAs(db, { id: ids.admin, email: 'admin@example.uk' }, 'select private.reissue_certificate($1)', [cert.rows[0].id]);
    expect((await verify(code)).organisation_name).toBe('Certshire Police');
  });

  it('is empty for a learner of no organisation', async () => {
    const verified = await verify(await codeOf(loner.id));
    expect(verified.learner_name).toBe('Cert Loner');
    expect(verified.organisation_name).toBeNull();
  });

  it('verification shows nothing else new: the same columns with the organisation name and Welsh course title only', async () => {
    const verified = await verify(await codeOf(loner.id));
    expect(Object.keys(verified).sort()).toEqual([
      'course_title', 'course_title_cy', 'expires_at', 'issued_at', 'learner_name', 'organisation_name', 'revoked_at', 'service', 'state',
      'template', 'verification_code',
    ]);
  });

  it('nobody writes the snapshot by hand through the database API', async () => {
    const code = await codeOf(loner.id);
    for (const who of [null, { id: ids.student, email: 'student@example.uk' }, { id: ids.admin, email: 'admin@example.uk' }]) {
      const r = await queryAs(db, who, `update public.certificates set organisation_name = 'Forged' where verification_code = $1`, [code])
        .then(() => 'ran', (error: { code?: string }) => error.code);
      expect(r).not.toBe('ran');
    }
    expect((await verify(code)).organisation_name).toBeNull();
  });
});

// The Welsh course title on a certificate: issued with courses.title_cy as it was, kept when the course's
// Welsh title changes, refreshed by a reissue, and shown to anyone who verifies the code.
describe.each(backends)('the Welsh course title on a certificate on $name', ({ create }) => {
  let db: TestDatabase;
  const welsh: Persona = { id: '00000000-0000-4000-a000-00000000c003', email: 'welsh@example.uk' };
  const english: Persona = { id: '00000000-0000-4000-a000-00000000c004', email: 'english@example.uk' };
  const welshCourse = ids.course(1);
  const englishCourse = ids.course(2);

  beforeAll(async () => {
    db = await create();
    await createUser(db, { id: welsh.id, email: welsh.email, username: 'cert_welsh', name: 'Cert Welsh', role: 'STUDENT', services: ['UKPS'] });
    await createUser(db, { id: english.id, email: english.email, username: 'cert_english', name: 'Cert English', role: 'STUDENT', services: ['UKPS'] });
    await db.query(`update public.courses set title_cy = 'Gweithdrefn Llais Radio Airwave' where id = $1`, [welshCourse]);
    await db.query('update public.courses set title_cy = null where id = $1', [englishCourse]);
    await db.query('insert into public.enrollments (user_id, course_id) values ($1, $2), ($3, $4)', [welsh.id, welshCourse, english.id, englishCourse]);
    await db.query('select private.issue_certificate($1, $2), private.issue_certificate($3, $4)', [welsh.id, welshCourse, english.id, englishCourse]);
  });
  afterAll(async () => {
    await db?.close();
  });

  const certificateOf = async (userId: string) =>
    (await db.query<{ id: string; verification_code: string; course_title: string; course_title_cy: string | null }>(
      'select id, verification_code, course_title, course_title_cy from public.certificates where user_id = $1', [userId])).rows[0];
  const verify = async (code: string) =>
    (await queryAs<Record<string, unknown>>(db, null, 'select course_title, course_title_cy from private.verify_certificate($1)', [code])).rows[0];

  it('keeps the course\'s Welsh title at issue, and verification shows it', async () => {
    const cert = await certificateOf(welsh.id);
    expect(cert.course_title_cy).toBe('Gweithdrefn Llais Radio Airwave');
    expect(await verify(cert.verification_code)).toEqual({ course_title: cert.course_title, course_title_cy: 'Gweithdrefn Llais Radio Airwave' });
  });

  it('is null for a course with no Welsh title', async () => {
    const cert = await certificateOf(english.id);
    expect(cert.course_title_cy).toBeNull();
    expect((await verify(cert.verification_code)).course_title_cy).toBeNull();
  });

  it('stays the title of issue when the course changes, and a reissue takes the title of now', async () => {
    await db.query(`update public.courses set title_cy = 'Teitl Newydd' where id = $1`, [welshCourse]);
    const cert = await certificateOf(welsh.id);
    expect(cert.course_title_cy).toBe('Gweithdrefn Llais Radio Airwave');
    await queryAs(db, { id: ids.admin, email: 'admin@example.uk' }, 'select private.reissue_certificate($1)', [cert.id]);
    expect((await certificateOf(welsh.id)).course_title_cy).toBe('Teitl Newydd');
  });

  it('is in the learning record', async () => {
    const r = await queryAs(db, welsh, 'select course_title_cy from private.learning_record($1)', [welsh.id]);
    expect(r.rows).toEqual([{ course_title_cy: 'Teitl Newydd' }]);
  });
});
