// Recognition of credentials when people move (29_recognition.sql): an organisation's trusted
// issuers and equivalences, people's held (uploaded) credentials, and THE status rule reading a
// verified, unexpired, equivalent credential from a trusted issuer as "recognised" with its origin.
// Dates are fixed far from any day the suite runs (valid until 2099, expired in 2020), so every
// answer is the same on any day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createUser, ids, type Persona, personas, queryAs, sqlState, type TestDatabase } from './helpers/database';
import { keptCountsDrift } from './helpers/kept-counts';

const south = 'c2000000-0000-4000-a000-000000000001';
const west = 'c2000000-0000-4000-a000-000000000002';
const southCourse = 'c2100000-0000-4000-a000-000000000001';
const westCourse = 'c2100000-0000-4000-a000-000000000002';
const southAdmin: Persona = { id: '00000000-0000-4000-a000-00000000d001', email: 'south.admin@example.uk' };
const westAdmin: Persona = { id: '00000000-0000-4000-a000-00000000d002', email: 'west.admin@example.uk' };
const mover: Persona = { id: '00000000-0000-4000-a000-00000000d003', email: 'mover@example.uk' };
const joiner: Persona = { id: '00000000-0000-4000-a000-00000000d004', email: 'joiner@example.uk' };
const southIssuer = `https://learning.example.uk/api/issuers/${south}`;
const southAchievement = `https://learning.example.uk/api/courses/${southCourse}/achievement`;
const otherIssuer = 'https://badges.example.org/issuers/college';
const otherAchievement = 'https://badges.example.org/achievements/driving-1';
const VALID_UNTIL = '2099-03-03T00:00:00.000Z';
const EXPIRED = '2020-03-03T00:00:00.000Z';

interface StatusRow {
  user_id: string;
  status: string;
  due_at: Date | null;
  certificate_expires_at: Date | null;
  recognition_source: string | null;
  recognised_issuer: string | null;
  recognised_achievement: string | null;
}

describe.each(backends)('recognition of credentials on $name', ({ create }) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await create();
    await db.query(`insert into public.organisations (id, name, code, service) values
      ($1, 'Southshire Ambulance', 'RSA', 'UKAS'), ($2, 'Westshire Ambulance', 'RWA', 'UKAS')`, [south, west]);
    for (const [p, org, role, name] of [
      [southAdmin, south, 'ADMIN', 'south_admin'], [westAdmin, west, 'ADMIN', 'west_admin'],
      [mover, south, 'STUDENT', 'rec_mover'], [joiner, west, 'STUDENT', 'rec_joiner'],
    ] as const) {
      await createUser(db, { id: p.id, email: p.email, username: name, name, role, services: ['UKAS'] });
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [p.id, org]);
    }
    await db.query(`insert into public.courses (id, title, description, service, author_id, status, organisation_id) values
      ($1, 'Southshire driving', 'Emergency driving for ambulance crews.', 'UKAS', $3, 'ACTIVE', $4), ($2, 'Westshire driving', 'Emergency driving for ambulance crews.', 'UKAS', $3, 'ACTIVE', $5)`,
    [southCourse, westCourse, ids.admin, south, west]);
    // Westshire requires its own driving course of everyone in it.
    await db.query('insert into public.required_training (course_id, organisation_id, due_within_days) values ($1, $2, 365)', [westCourse, west]);
    // The mover earned Southshire's course here, valid until 2099.
    await db.query('insert into public.enrollments (user_id, course_id) values ($1, $2)', [mover.id, southCourse]);
    await db.query('select private.issue_certificate($1, $2)', [mover.id, southCourse]);
    await db.query('update public.certificates set expires_at = $2 where user_id = $1', [mover.id, VALID_UNTIL]);
  });
  afterAll(async () => {
    await db?.close();
  });

  const statusOf = async (person: Persona, as: Persona = westAdmin) =>
    (await queryAs<StatusRow>(db, as, `select user_id, status, due_at, certificate_expires_at, recognition_source,
       recognised_issuer, recognised_achievement from private.required_training_status($1, null, null, $2)`, [person.id, westCourse])).rows[0];
  const hold = (person: Persona, fields: { issuer?: string; achievement?: string; validUntil?: string | null; verified?: boolean; hash?: string }) =>
    db.query<{ id: string }>(`select private.record_held_credential($1, '{"type":["VerifiableCredential"]}', $2, $3, 'A college', $4,
      'Emergency driving 1', '2020-01-01', $5, $6, '{"codes":[]}') as id`,
    [person.id, fields.hash ?? 'a'.repeat(64), fields.issuer ?? otherIssuer, fields.achievement ?? otherAchievement,
      fields.validUntil === undefined ? VALID_UNTIL : fields.validUntil, fields.verified ?? true]);
  const trust = (as: Persona, org: string, issuerId: string, name: string, platform: string | null = null) =>
    queryAs<{ id: string }>(db, as, `insert into public.trusted_issuers (organisation_id, issuer_id, name, platform_issuer)
      values ($1, $2, $3, $4) returning id`, [org, issuerId, name, platform]);
  const equate = (as: Persona, issuerId: string, achievementId: string, platformCourse: string | null = null) =>
    queryAs<{ id: string }>(db, as, `insert into public.recognition_equivalences (organisation_id, course_id, issuer_id, achievement_id,
      achievement_name, platform_course_id) values ($1, $2, $3, $4, 'Equivalent driving', $5) returning id`,
    [west, westCourse, issuerId, achievementId, platformCourse]);

  describe('trusted issuers and equivalences: the policies both ways', () => {
    it('an organisation administrator adds, reads and removes their own; not another organisation\'s', async () => {
      const added = await trust(westAdmin, west, 'https://policy.example.uk/issuer', 'Policy issuer');
      expect(added.rows).toHaveLength(1);
      expect((await queryAs(db, westAdmin, 'select name from public.trusted_issuers')).rows).toEqual([{ name: 'Policy issuer' }]);
      expect((await queryAs(db, southAdmin, 'select name from public.trusted_issuers')).rows).toEqual([]);
      expect(await sqlState(() => trust(southAdmin, west, 'https://policy.example.uk/other', 'Not theirs'))).toBe('42501');
      expect((await queryAs(db, southAdmin, 'delete from public.trusted_issuers where id = $1 returning id', [added.rows[0].id])).rows).toEqual([]);
      const equivalence = await equate(westAdmin, 'https://policy.example.uk/issuer', 'https://policy.example.uk/a1');
      expect((await queryAs(db, southAdmin, 'select id from public.recognition_equivalences')).rows).toEqual([]);
      expect((await queryAs(db, westAdmin, 'select id from public.recognition_equivalences')).rows).toEqual(equivalence.rows);
      expect(await sqlState(() => equate(southAdmin, 'https://policy.example.uk/issuer', 'https://policy.example.uk/a2'))).toBe('42501');
      // Removing the issuer removes what it was trusted for.
      expect((await queryAs(db, westAdmin, 'delete from public.trusted_issuers where id = $1 returning id', [added.rows[0].id])).rows).toHaveLength(1);
      expect((await db.query('select id from public.recognition_equivalences where id = $1', [equivalence.rows[0].id])).rows).toEqual([]);
    });

    it('a national administrator manages any organisation\'s; learners and visitors none', async () => {
      const added = await trust(personas.admin, west, 'https://national.example.uk/issuer', 'National pick');
      expect((await queryAs(db, personas.admin, 'select id from public.trusted_issuers where id = $1', [added.rows[0].id])).rows).toHaveLength(1);
      expect((await queryAs(db, joiner, 'select id from public.trusted_issuers')).rows).toEqual([]);
      expect(await sqlState(() => trust(joiner, west, 'https://learner.example.uk/issuer', 'Mine'))).toBe('42501');
      expect(await sqlState(() => queryAs(db, null, 'select id from public.trusted_issuers'))).toBe('42501');
      expect((await queryAs(db, joiner, 'delete from public.trusted_issuers returning id')).rows).toEqual([]);
      expect((await queryAs(db, personas.admin, 'delete from public.trusted_issuers where id = $1 returning id', [added.rows[0].id])).rows).toHaveLength(1);
    });

    it('an equivalence needs a trusted issuer and a course the organisation can require', async () => {
      expect(await sqlState(() => equate(westAdmin, 'https://untrusted.example.uk/issuer', otherAchievement))).toBe('23503');
      await trust(westAdmin, west, 'https://shape.example.uk/issuer', 'Shape');
      const southsCourse = await sqlState(() => queryAs(db, westAdmin, `insert into public.recognition_equivalences (organisation_id,
        course_id, issuer_id, achievement_id, achievement_name) values ($1, $2, 'https://shape.example.uk/issuer', 'x', 'X')`, [west, southCourse]));
      expect(southsCourse).toBe('22023');
      // A platform course named as the achievement must be of that (platform) issuer.
      expect(await sqlState(() => equate(westAdmin, 'https://shape.example.uk/issuer', southAchievement, southCourse))).toBe('22023');
      expect(await sqlState(() => trust(westAdmin, west, 'ftp://bad.example.uk', 'Bad'))).toBe('23514');
      await db.query(`delete from public.trusted_issuers where issuer_id = 'https://shape.example.uk/issuer'`);
    });
  });

  describe('held credentials: the policies both ways', () => {
    it('only the function path writes them: no client inserts, updates or calls the recorder', async () => {
      for (const who of [joiner, westAdmin, personas.admin]) {
        expect(await sqlState(() => queryAs(db, who, `insert into public.held_credentials (user_id, credential, credential_hash, issuer_id,
          issuer_name, achievement_id, achievement_name, verified, verification)
          values ($1, '{}', $2, 'x', 'x', 'x', 'x', true, '{}')`, [joiner.id, 'b'.repeat(64)]))).toBe('42501');
        expect(await sqlState(() => queryAs(db, who, `select private.record_held_credential($1, '{}', $2, 'x', 'x', 'x', 'x', null, null, true, '{}')`,
          [joiner.id, 'b'.repeat(64)]))).toBe('42501');
      }
      const held = await hold(joiner, { hash: 'c'.repeat(64), verified: false });
      expect(await sqlState(() => queryAs(db, joiner, 'update public.held_credentials set verified = true where id = $1', [held.rows[0].id]))).toBe('42501');
      await db.query('delete from public.held_credentials where id = $1', [held.rows[0].id]);
    });

    it('the holder and their organisation\'s administrators read them; the holder alone removes them', async () => {
      const held = await hold(joiner, { hash: 'd'.repeat(64), verified: false });
      const id = held.rows[0].id;
      const reads = async (who: Persona) => (await queryAs(db, who, 'select id from public.held_credentials where id = $1', [id])).rows.length;
      expect(await reads(joiner)).toBe(1);
      expect(await reads(westAdmin)).toBe(1);
      expect(await reads(personas.admin)).toBe(1);
      expect(await reads(southAdmin)).toBe(0);
      expect(await reads(mover)).toBe(0);
      expect((await queryAs(db, westAdmin, 'delete from public.held_credentials where id = $1 returning id', [id])).rows).toEqual([]);
      expect((await queryAs(db, mover, 'delete from public.held_credentials where id = $1 returning id', [id])).rows).toEqual([]);
      expect((await queryAs(db, joiner, 'delete from public.held_credentials where id = $1 returning id', [id])).rows).toEqual([{ id }]);
    });
  });

  describe('THE status rule', () => {
    it('an uploaded credential counts as "recognised" with its origin, until its validUntil', async () => {
      expect((await statusOf(joiner)).status).toBe('in-progress');
      const issuer = await trust(westAdmin, west, otherIssuer, 'Shire College');
      await equate(westAdmin, otherIssuer, otherAchievement);
      const held = await hold(joiner, { hash: 'e'.repeat(64) });
      const row = await statusOf(joiner);
      expect(row).toMatchObject({
        status: 'recognised', recognition_source: 'upload', recognised_issuer: 'Shire College',
        recognised_achievement: 'Equivalent driving',
      });
      expect(row.certificate_expires_at?.toISOString()).toBe(VALID_UNTIL);
      // due for renewal the rule's 30 days before it expires
      expect(row.due_at?.toISOString()).toBe('2099-02-01T00:00:00.000Z');
      // the learner sees the same
      expect((await statusOf(joiner, joiner)).status).toBe('recognised');
      // compliant in the summary and the drill-down's "done"
      const summary = await queryAs<{ compliant: string; people: string }>(db, westAdmin,
        'select people, compliant from private.compliance_summary(null, null, $1)', [westCourse]);
      expect(summary.rows.map((r) => [Number(r.people), Number(r.compliant)])).toEqual([[2, 1]]);
      const done = await queryAs<{ user_id: string; status: string; recognised_issuer: string }>(db, westAdmin,
        `select user_id, status, recognised_issuer from private.compliance_people(null, null, $1, 'done')`, [westCourse]);
      expect(done.rows).toEqual([{ user_id: joiner.id, status: 'recognised', recognised_issuer: 'Shire College' }]);
      expect(await keptCountsDrift(db)).toEqual([]);
      await db.query('delete from public.held_credentials where id = $1', [held.rows[0].id]);
      await db.query('delete from public.trusted_issuers where id = $1', [issuer.rows[0].id]);
      expect((await statusOf(joiner)).status).toBe('in-progress');
      expect(await keptCountsDrift(db)).toEqual([]);
    });

    it('does not count an untrusted issuer, a non-equivalent achievement, an expired or an unverified credential', async () => {
      const issuer = await trust(westAdmin, west, otherIssuer, 'Shire College');
      await equate(westAdmin, otherIssuer, otherAchievement);
      const cases = [
        { issuer: 'https://untrusted.example.org/issuer', hash: '1'.repeat(64) },
        { achievement: 'https://badges.example.org/achievements/cooking', hash: '2'.repeat(64) },
        { validUntil: EXPIRED, hash: '3'.repeat(64) },
        { verified: false, hash: '4'.repeat(64) },
      ];
      for (const fields of cases) {
        const held = await hold(joiner, fields);
        expect((await statusOf(joiner)).status, JSON.stringify(fields)).toBe('in-progress');
        await db.query('delete from public.held_credentials where id = $1', [held.rows[0].id]);
      }
      await db.query('delete from public.trusted_issuers where id = $1', [issuer.rows[0].id]);
    });

    it('a credential that never expires counts with no due date; one expiring within 30 days is "due soon" with its origin', async () => {
      const issuer = await trust(westAdmin, west, otherIssuer, 'Shire College');
      await equate(westAdmin, otherIssuer, otherAchievement);
      const held = await hold(joiner, { validUntil: null, hash: '5'.repeat(64) });
      expect(await statusOf(joiner)).toMatchObject({ status: 'recognised', due_at: null, certificate_expires_at: null });
      await db.query(`update public.held_credentials set valid_until = now() + interval '10 days' where id = $1`, [held.rows[0].id]);
      expect(await statusOf(joiner)).toMatchObject({ status: 'due-soon', recognition_source: 'upload' });
      expect(await keptCountsDrift(db)).toEqual([]);
      await db.query('delete from public.trusted_issuers where id = $1', [issuer.rows[0].id]);
    });

    it('a person moving organisation keeps recognition of the certificate earned at the former one, until a revocation', async () => {
      const issuer = await trust(westAdmin, west, southIssuer, 'Southshire Ambulance', south);
      await equate(westAdmin, southIssuer, southAchievement, southCourse);
      expect(await keptCountsDrift(db)).toEqual([]);
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [mover.id, west]);
      const row = await statusOf(mover);
      expect(row).toMatchObject({ status: 'recognised', recognition_source: 'platform', recognised_issuer: 'Southshire Ambulance' });
      expect(row.certificate_expires_at?.toISOString()).toBe(VALID_UNTIL);
      expect(await keptCountsDrift(db)).toEqual([]);
      // The team's kept counts read it as done (compliant).
      const counts = await db.query<{ done: number }>(`select done from private.compliance_person_counts where user_id = $1`, [mover.id]);
      expect(counts.rows.every((r) => r.done === 1)).toBe(true);
      // Revoked: no longer recognised, at once.
      await queryAs(db, personas.admin, 'select private.revoke_certificate(id, $3) from public.certificates where user_id = $1 and course_id = $2', [mover.id, southCourse, 'Issued in error']);
      expect((await statusOf(mover)).status).toBe('in-progress');
      expect(await keptCountsDrift(db)).toEqual([]);
      await db.query('update public.certificates set revoked_at = null, revoked_reason = null where user_id = $1 and course_id = $2',
        [mover.id, southCourse]);
      // Expired: not recognised either.
      await db.query(`update public.certificates set issued_at = '2019-03-03', expires_at = $3 where user_id = $1 and course_id = $2`,
        [mover.id, southCourse, EXPIRED]);
      expect((await statusOf(mover)).status).toBe('in-progress');
      await db.query('update public.certificates set issued_at = now(), expires_at = $3 where user_id = $1 and course_id = $2',
        [mover.id, southCourse, VALID_UNTIL]);
      expect((await statusOf(mover)).status).toBe('recognised');
      // Without the equivalence, nothing is recognised.
      await db.query('delete from public.trusted_issuers where id = $1', [issuer.rows[0].id]);
      expect((await statusOf(mover)).status).toBe('in-progress');
      expect(await keptCountsDrift(db)).toEqual([]);
    });

    it('no "due" or "overdue" notice goes for a requirement a recognised credential satisfies', async () => {
      const issuer = await trust(westAdmin, west, otherIssuer, 'Shire College');
      await equate(westAdmin, otherIssuer, otherAchievement);
      const held = await hold(joiner, { hash: '7'.repeat(64) });
      // 400 days on: the joiner's 365 days to complete have passed.
      const later = new Date(Date.now() + 400 * 86_400_000).toISOString();
      const notices = async () => (await db.query<{ kind: string }>(`select kind from public.notifications
        where recipient_id = $1 and course_id = $2 and kind in ('training-due-soon', 'training-overdue')`, [joiner.id, westCourse])).rows;
      await db.query('select private.decide_notifications($1::timestamptz)', [later]);
      expect(await notices()).toEqual([]);
      await db.query('delete from public.held_credentials where id = $1', [held.rows[0].id]);
      await db.query('select private.decide_notifications($1::timestamptz)', [later]);
      expect((await notices()).map((n) => n.kind)).toContain('training-overdue');
      await db.query('delete from public.notifications where recipient_id = $1', [joiner.id]);
      await db.query('delete from public.trusted_issuers where id = $1', [issuer.rows[0].id]);
    });

    it('the person\'s own valid certificate of the required course comes first unless the recognised one lasts longer', async () => {
      const issuer = await trust(westAdmin, west, otherIssuer, 'Shire College');
      await equate(westAdmin, otherIssuer, otherAchievement);
      await hold(joiner, { hash: '6'.repeat(64), validUntil: '2098-01-01T00:00:00.000Z' });
      await db.query('select private.issue_certificate($1, $2)', [joiner.id, westCourse]);
      await db.query(`update public.certificates set expires_at = '2099-06-01' where user_id = $1 and course_id = $2`, [joiner.id, westCourse]);
      expect(await statusOf(joiner)).toMatchObject({ status: 'done', recognition_source: null });
      await db.query(`update public.certificates set expires_at = '2097-06-01' where user_id = $1 and course_id = $2`, [joiner.id, westCourse]);
      expect(await statusOf(joiner)).toMatchObject({ status: 'recognised', recognition_source: 'upload' });
      await db.query('delete from public.certificates where user_id = $1 and course_id = $2', [joiner.id, westCourse]);
      await db.query('delete from public.held_credentials where user_id = $1', [joiner.id]);
      await db.query('delete from public.trusted_issuers where id = $1', [issuer.rows[0].id]);
    });
  });
});
