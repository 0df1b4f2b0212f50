// Certificate validity, recertification and revocation in the database, both ways: who may
// start a recertification and when, what it resets and what it keeps (the quiz must be passed again);
// who may revoke and that the audit trail records it; what public verification answers; the admin
// search read under RLS; and the course's validity as an authoring column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOtherInstructor,
  backends,
  ids,
  personas,
  type Queryable,
  queryAs,
  rolledBack,
  sqlState,
  type TestDatabase,
} from './helpers/database';

const { admin, instructor, learner, otherInstructor } = personas;
const visitor = null;
const course = ids.course(3); // Airwave: 3 modules, a timed quiz on module 3; the learner holds DEMO2026CERT0001.
const quiz = ids.quiz(3, 3);
const rightAnswers = {
  [ids.question(3, 3, 1)]: [1],
  [ids.question(3, 3, 2)]: [2],
  [ids.question(3, 3, 3)]: [1],
};

/** As the superuser inside the persona's transaction, then back to the API role. */
async function asOwner(tx: Queryable, sql: string, params: unknown[] = []) {
  await tx.query('reset role');
  const r = await tx.query(sql, params);
  await tx.query('set local role authenticated');
  return r;
}
const expireIn = (tx: Queryable, interval: string) =>
  asOwner(tx, `update public.certificates set expires_at = now() + $2::interval, issued_at = least(issued_at, now() + $2::interval - interval '1 day') where id = $1`, [ids.certificate, interval]);

async function stateOf(db: TestDatabase, fn: (tx: Queryable) => Promise<unknown>, persona = learner): Promise<string | null> {
  return sqlState(() => rolledBack(db, persona, fn));
}

describe.each(backends)('certificate validity on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('recertification', () => {
    const start = `select * from private.start_recertification($1)`;

    it('is refused while the certificate is valid, and for a certificate that never expires', async () => {
      // Seed: the course sets no validity, so the certificate never expires.
      expect(await stateOf(db, (tx) => tx.query(start, [course]))).toBe('P0409');
      expect(await stateOf(db, async (tx) => {
        await expireIn(tx, '61 days');
        return tx.query(start, [course]);
      })).toBe('P0409');
    });

    it('starts the next cycle from an expiring certificate: 0 %, fresh module and quiz progress, history kept', async () => {
      const r = await rolledBack(db, learner, async (tx) => {
        await expireIn(tx, '30 days');
        const before = await tx.query<{ n: number }>(`select count(*)::int as n from public.quiz_attempts where user_id = $1`, [learner.id]);
        const [enrolment] = (await tx.query<Record<string, unknown>>(start, [course])).rows;
        const progress = await tx.query(`select p.* from public.user_module_progress p join public.course_modules m on m.id = p.module_id
                                         where p.user_id = $1 and m.course_id = $2`, [learner.id, course]);
        const attempts = await tx.query<{ n: number }>(`select count(*)::int as n from public.quiz_attempts where user_id = $1`, [learner.id]);
        const certificates = await tx.query(`select id from public.certificates where user_id = $1 and course_id = $2`, [learner.id, course]);
        await tx.query('savepoint s');
        const again = await sqlState(() => tx.query(start, [course]));
        await tx.query('rollback to savepoint s');
        return { enrolment, progress: progress.rows, before: before.rows[0].n, attempts: attempts.rows[0].n, certificates: certificates.rows, again };
      });
      expect(r.enrolment).toMatchObject({ id: ids.enrollment(3), cycle: 2, progress: 0, completed: false, completed_at: null, last_accessed_module_id: null });
      expect(r.progress).toEqual([]);
      expect(r.attempts).toBe(r.before);
      expect(r.certificates).toEqual([{ id: ids.certificate }]);
      expect(r.again).toBe('P0409'); // already recertifying
    });

    it('a recertifying learner reads every module and passes the quiz again, and earns a second certificate', async () => {
      const r = await rolledBack(db, learner, async (tx) => {
        await expireIn(tx, '-1 day'); // expired yesterday
        await tx.query(start, [course]);
        for (const n of [1, 2, 3]) await tx.query('select private.mark_module_read($1)', [ids.module(3, n)]);
        const afterReading = (await tx.query<{ progress: number; completed: boolean }>(
          'select progress, completed from public.enrollments where id = $1', [ids.enrollment(3)])).rows[0];
        const quizPassedBefore = (await tx.query<{ quiz_passed: boolean }>(
          'select quiz_passed from public.user_module_progress where user_id = $1 and module_id = $2', [learner.id, ids.module(3, 3)])).rows[0];
        await tx.query('select private.start_quiz_attempt($1)', [quiz]);
        await tx.query('select private.finish_quiz_attempt($1, $2::text::jsonb)', [quiz, JSON.stringify(rightAnswers)]);
        const done = (await tx.query<{ progress: number; completed: boolean }>(
          'select progress, completed from public.enrollments where id = $1', [ids.enrollment(3)])).rows[0];
        const certificates = (await tx.query<{ cycle: number; state: string; id: string }>(
          `select id, cycle, private.certificate_state(expires_at, revoked_at) as state from public.certificates
           where user_id = $1 and course_id = $2 order by issued_at desc`, [learner.id, course])).rows;
        return { afterReading, quizPassedBefore, done, certificates };
      });
      // Two of three modules: module 3 is read but its quiz not yet passed in this cycle.
      expect(r.afterReading).toEqual({ progress: 67, completed: false });
      expect(r.quizPassedBefore).toEqual({ quiz_passed: false });
      expect(r.done).toEqual({ progress: 100, completed: true });
      expect(r.certificates.map((c) => [c.cycle, c.state])).toEqual([[2, 'valid'], [1, 'expired']]);
      expect(r.certificates[1].id).toBe(ids.certificate);
    });

    it('is refused for a revoked certificate, without a certificate, for another person and for a visitor', async () => {
      expect(await stateOf(db, async (tx) => {
        await asOwner(tx, `update public.certificates set expires_at = now() - interval '1 day', issued_at = now() - interval '2 days',
                           revoked_at = now(), revoked_reason = 'Issued in error' where id = $1`, [ids.certificate]);
        return tx.query(start, [course]);
      })).toBe('P0409');
      // Enrolled in course 1 without a certificate.
      expect(await stateOf(db, (tx) => tx.query(start, [ids.course(1)]))).toBe('P0409');
      // Not enrolled in course 3: nothing of the learner's is touched.
      expect(await stateOf(db, async (tx) => {
        await expireIn(tx, '-1 day');
        await tx.query('set local role authenticated');
        await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: otherInstructor.id, role: 'authenticated' })]);
        return tx.query(start, [course]);
      })).toBe('P0002');
      expect(await sqlState(() => queryAs(db, visitor, start, [course]))).toBe('42501');
      const e = await db.query('select cycle, progress, completed from public.enrollments where id = $1', [ids.enrollment(3)]);
      expect(e.rows).toEqual([{ cycle: 1, progress: 100, completed: true }]);
    });

    it('an enrolment made again after leaving the course continues after the certified cycle', async () => {
      const r = await rolledBack(db, learner, async (tx) => {
        await tx.query('delete from public.enrollments where id = $1', [ids.enrollment(3)]);
        return tx.query<{ cycle: number }>('insert into public.enrollments (user_id, course_id) values ($1, $2) returning cycle', [learner.id, course]);
      });
      expect(r.rows).toEqual([{ cycle: 2 }]);
      const fresh = await rolledBack(db, learner, (tx) =>
        tx.query<{ cycle: number }>('insert into public.enrollments (user_id, course_id) values ($1, $2) returning cycle', [learner.id, ids.course(2)]));
      expect(fresh.rows).toEqual([{ cycle: 1 }]);
    });
  });

  describe('revocation', () => {
    const revoke = `select id, revoked_reason, revoked_by from private.revoke_certificate($1, $2)`;

    it('an admin revokes with a reason, recorded in the audit trail; verification then says revoked', async () => {
      const r = await rolledBack(db, admin, async (tx) => {
        const revoked = await tx.query(revoke, [ids.certificate, '  Issued in error  ']);
        const audit = await tx.query(`select action, target_type, target_id, actor_id, new_data ->> 'reason' as reason
                                      from public.audit_events where action = 'certificate.revoked'`);
        await tx.query('savepoint s');
        const again = await sqlState(() => tx.query(revoke, [ids.certificate, 'Twice']));
        await tx.query('rollback to savepoint s');
        const verified = await tx.query(`select state, revoked_at is not null as revoked from private.verify_certificate('DEMO2026CERT0001')`);
        return { revoked: revoked.rows, audit: audit.rows, again, verified: verified.rows };
      });
      expect(r.revoked).toEqual([{ id: ids.certificate, revoked_reason: 'Issued in error', revoked_by: admin.id }]);
      expect(r.audit).toEqual([{ action: 'certificate.revoked', target_type: 'certificate', target_id: ids.certificate, actor_id: admin.id, reason: 'Issued in error' }]);
      expect(r.again).toBe('P0409');
      expect(r.verified).toEqual([{ state: 'revoked', revoked: true }]);
    });

    it('learners, instructors and visitors may not revoke, nor write revocation columns directly', async () => {
      expect(await stateOf(db, (tx) => tx.query(revoke, [ids.certificate, 'Mine']), learner)).toBe('42501');
      expect(await stateOf(db, (tx) => tx.query(revoke, [ids.certificate, 'Author']), instructor)).toBe('42501');
      expect(await sqlState(() => queryAs(db, visitor, revoke, [ids.certificate, 'Anyone']))).toBe('42501');
      for (const persona of [learner, instructor, admin]) {
        expect(await stateOf(db, (tx) => tx.query(`update public.certificates set revoked_at = now(), revoked_reason = 'x'`), persona)).toBe('42501');
      }
      const c = await db.query('select revoked_at from public.certificates where id = $1', [ids.certificate]);
      expect(c.rows).toEqual([{ revoked_at: null }]);
      expect((await db.query(`select count(*)::int as n from public.audit_events where action = 'certificate.revoked'`)).rows).toEqual([{ n: 0 }]);
    });

    it('refuses an empty or over-long reason and an unknown certificate', async () => {
      expect(await stateOf(db, (tx) => tx.query(revoke, [ids.certificate, '   ']), admin)).toBe('22023');
      expect(await stateOf(db, (tx) => tx.query(revoke, [ids.certificate, 'x'.repeat(501)]), admin)).toBe('22023');
      expect(await stateOf(db, (tx) => tx.query(revoke, [ids.certificate, null]), admin)).toBe('22023');
      expect(await stateOf(db, (tx) => tx.query(revoke, ['60000000-0000-4000-a000-0000000000ff', 'Gone']), admin)).toBe('P0002');
    });
  });

  describe('verification', () => {
    const verify = `select * from private.verify_certificate('DEMO2026CERT0001')`;

    it('answers validity and state to anyone, never the revocation reason or who revoked', async () => {
      const r = await queryAs<Record<string, unknown>>(db, visitor, verify);
      expect(Object.keys(r.rows[0]).sort()).toEqual([
        'course_title', 'course_title_cy', 'expires_at', 'issued_at', 'learner_name', 'organisation_name', 'revoked_at', 'service', 'state', 'template',
        'verification_code',
      ]);
      // The seed's learner belongs to no organisation (certificate-organisation.test.ts).
      expect(r.rows[0]).toMatchObject({ expires_at: null, revoked_at: null, state: 'valid', organisation_name: null });
    });

    it('says expiring within 60 days and expired after the date', async () => {
      const states = [];
      for (const interval of ['90 days', '59 days', '-1 day']) {
        states.push(await rolledBack(db, learner, async (tx) => {
          await expireIn(tx, interval);
          await tx.query('set local role anon');
          return (await tx.query<{ state: string }>(verify)).rows[0].state;
        }));
      }
      expect(states).toEqual(['valid', 'expiring', 'expired']);
    });
  });

  describe('admin search', () => {
    // As in routes/certificates/admin.ts: learner name or code, newest first, paged.
    const search = `select c.id, c.verification_code, c.learner_name, count(*) over ()::int as total
                    from public.certificates c
                    where lower(c.learner_name || ' ' || c.verification_code) like $1
                    order by c.issued_at desc, c.id desc limit 20 offset 0`;

    it('an admin finds any certificate by code or learner name; others find only what RLS lets them read', async () => {
      expect((await queryAs(db, admin, search, ['%demo2026cert%'])).rows).toMatchObject([{ id: ids.certificate }]);
      expect((await queryAs(db, admin, search, ['%sam pat%'])).rows).toMatchObject([{ id: ids.certificate }]);
      expect((await queryAs(db, admin, search, ['%nobody%'])).rows).toEqual([]);
      expect((await queryAs(db, otherInstructor, search, ['%'])).rows).toEqual([]);
      expect((await queryAs(db, visitor, search, ['%'])).rows).toEqual([]);
    });

    it('the search has its trigram index', async () => {
      const r = await db.query<{ indexdef: string }>(`select indexdef from pg_indexes where indexname = 'certificates_search_trgm_idx'`);
      expect(r.rows[0].indexdef).toMatch(/gin_trgm_ops/);
    });
  });

  describe("the course's validity", () => {
    const set = `update public.courses set certificate_valid_months = $2 where id = $1 returning certificate_valid_months`;

    it('the author sets it on their course, and a certificate issued then records its expiry', async () => {
      const r = await rolledBack(db, instructor, async (tx) => {
        const updated = await tx.query(set, [ids.course(1), 12]);
        await asOwner(tx, 'select private.issue_certificate($1, $2)', [learner.id, ids.course(1)]);
        const cert = await asOwner(tx, `select cycle, (expires_at - issued_at) between interval '364 days' and interval '366 days' as year
                                        from public.certificates where course_id = $1 and user_id = $2`, [ids.course(1), learner.id]);
        return { updated: updated.rows, cert: cert.rows };
      });
      expect(r.updated).toEqual([{ certificate_valid_months: 12 }]);
      expect(r.cert).toEqual([{ cycle: 1, year: true }]);
    });

    it('outside 1..120 is refused; a learner and another instructor change nothing', async () => {
      expect(await stateOf(db, (tx) => tx.query(set, [ids.course(2), 0]), instructor)).toBe('23514');
      expect(await stateOf(db, (tx) => tx.query(set, [ids.course(2), 121]), instructor)).toBe('23514');
      expect((await rolledBack(db, learner, (tx) => tx.query(set, [ids.course(2), 12]))).rows).toEqual([]);
      expect((await rolledBack(db, otherInstructor, (tx) => tx.query(set, [ids.course(2), 12]))).rows).toEqual([]);
      expect((await rolledBack(db, instructor, (tx) => tx.query(set, [ids.course(2), null]))).rows).toEqual([{ certificate_valid_months: null }]);
    });
  });
});
