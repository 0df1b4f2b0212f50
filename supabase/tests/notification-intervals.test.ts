// Notification intervals: administrators set the defaults in settings (notify_*), a
// required-training rule may override "due soon" and escalation, and private.decide_notifications
// reads them (the most cautious of several rules wins); the weekly digest of a line manager; leavers
// hear nothing more (supabase/schemas/15_notifications.sql). Time moves by the function's argument,
// never the clock: each notice's created_at is the time it was decided at, so the tests read when
// each notice was written as a day after the rule (t0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends,
  createUser,
  ids,
  personas,
  queryAs,
  sqlState,
  startRulesOnATuesday,
  type Persona,
  type TestDatabase,
} from './helpers/database';

const { admin, learner: seedLearner } = personas;
const DAY = 86_400_000;

const org = '00000000-0000-4000-a000-0000000029f0';
const otherOrg = '00000000-0000-4000-a000-0000000029f1';
const unit = '00000000-0000-4000-a000-0000000029e1';
const orgAdmin: Persona = { id: '00000000-0000-4000-a000-000000002900', email: 'ni.orgadmin@example.uk' };
const manager: Persona = { id: '00000000-0000-4000-a000-000000002901', email: 'ni.manager@example.uk' };
const learnerA: Persona = { id: '00000000-0000-4000-a000-000000002902', email: 'ni.a@example.uk' };
const learnerB: Persona = { id: '00000000-0000-4000-a000-000000002903', email: 'ni.b@example.uk' };
const subManager: Persona = { id: '00000000-0000-4000-a000-000000002904', email: 'ni.sub@example.uk' };
const holder: Persona = { id: '00000000-0000-4000-a000-000000002905', email: 'ni.holder@example.uk' };
const quietManager: Persona = { id: '00000000-0000-4000-a000-000000002906', email: 'ni.quiet@example.uk' };
const quietReport: Persona = { id: '00000000-0000-4000-a000-000000002907', email: 'ni.quietreport@example.uk' };
const leaver: Persona = { id: '00000000-0000-4000-a000-000000002908', email: 'ni.leaver@example.uk' };
const deactivated: Persona = { id: '00000000-0000-4000-a000-000000002909', email: 'ni.deactivated@example.uk' };
const stayer: Persona = { id: '00000000-0000-4000-a000-00000000290a', email: 'ni.stayer@example.uk' };
const goneManager: Persona = { id: '00000000-0000-4000-a000-00000000290b', email: 'ni.gonemanager@example.uk' };
const orphan: Persona = { id: '00000000-0000-4000-a000-00000000290c', email: 'ni.orphan@example.uk' };

// Course 5 (Manual Handling for Ambulance Crews) and course 11 are required; course 6 is a certificate's.
const course5 = ids.course(5);
const course11 = ids.course(11);
const course6 = ids.course(6);
const course7 = ids.course(7);
const course8 = ids.course(8);

interface Written {
  kind: string;
  recipient_id: string;
  person_id: string | null;
  course_id: string | null;
  threshold: number;
  cycle: number;
  day: number;
}

async function people(db: TestDatabase, list: [Persona, string, string, string[], string?][]): Promise<void> {
  for (const [p, username, name, services, role] of list) {
    await createUser(db, { id: p.id, email: p.email, username, name, services, role });
  }
}

async function organisation(db: TestDatabase, id: string, name: string, code: string): Promise<void> {
  await db.query(`insert into public.organisations (id, name, code, service) values ($1, $2, $3, 'UKFRS')`, [id, name, code]);
}

const at = (t0: Date, days: number, minutes = 10) => new Date(t0.getTime() + days * DAY + minutes * 60_000).toISOString();

/** The next Monday at 08:00 London on or after the time given (plus whole weeks). */
async function monday(db: TestDatabase, after: string, weeks = 0): Promise<string> {
  const r = await db.query<{ at: Date }>(
    `select ((date_trunc('week', $1::timestamptz at time zone 'Europe/London') + interval '7 days 8 hours'
              + make_interval(weeks => $2)) at time zone 'Europe/London') as at`, [after, weeks]);
  return new Date(r.rows[0].at).toISOString();
}

describe.each(backends)('notification intervals on $name', ({ create }) => {
  let db: TestDatabase;

  describe('settings and rules: who may set the intervals, and what they may be', () => {
    afterAll(async () => {
      await db?.close();
    });
    beforeAll(async () => {
      db = await create();
      await organisation(db, org, 'Testshire Fire', 'TFI');
      await organisation(db, otherOrg, 'Otherland Fire', 'OFI');
      await people(db, [[orgAdmin, 'ni_orgadmin', 'Ora Admin', ['UKFRS'], 'ADMIN']]);
      await db.query('update public.profiles set organisation_id = $2 where id = $1', [orgAdmin.id, org]);
    });

    const settingsDays = async () =>
      (await db.query('select notify_due_soon_days, notify_expiry_days, notify_overdue_every_days, notify_escalation_days from public.settings')).rows[0];

    it('the defaults are 14 and 3, 60, 30 and 7, weekly and 7, readable by anyone', async () => {
      expect(await settingsDays()).toEqual({
        notify_due_soon_days: [14, 3], notify_expiry_days: [60, 30, 7], notify_overdue_every_days: 7, notify_escalation_days: 7,
      });
      const read = await queryAs(db, null, 'select notify_due_soon_days, notify_escalation_days from public.settings');
      expect(read.rows).toEqual([{ notify_due_soon_days: [14, 3], notify_escalation_days: 7 }]);
    });

    it('a national administrator changes them; a learner, an organisation administrator and a visitor cannot', async () => {
      const change = `update public.settings set notify_due_soon_days = '{21,7}', notify_escalation_days = 10 returning id`;
      expect((await queryAs(db, seedLearner, change)).rows).toEqual([]);
      expect((await queryAs(db, orgAdmin, change)).rows).toEqual([]);
      expect(await sqlState(() => queryAs(db, null, change))).toBe('42501');
      expect((await settingsDays()).notify_due_soon_days).toEqual([14, 3]);
      expect((await queryAs(db, admin, change)).rows).toHaveLength(1);
      expect(await settingsDays()).toMatchObject({ notify_due_soon_days: [21, 7], notify_escalation_days: 10 });
      await queryAs(db, admin, `update public.settings set notify_due_soon_days = '{14,3}', notify_escalation_days = 7`);
    });

    it('day lists are 1 to 5 distinct days of 1 to 365, largest first; single days 1 to 365', async () => {
      for (const bad of ['{}', '{3,14}', '{14,14}', '{0}', '{366}', '{50,40,30,20,10,5}', '{14,null}', '{{14,3},{2,1}}', '[0:1]={14,3}']) {
        for (const column of ['notify_due_soon_days', 'notify_expiry_days']) {
          expect(await sqlState(() => queryAs(db, admin, `update public.settings set ${column} = $1::integer[]`, [bad])), `${column} ${bad}`).toBe('23514');
        }
      }
      for (const bad of [0, 366, -1]) {
        expect(await sqlState(() => queryAs(db, admin, `update public.settings set notify_overdue_every_days = $1`, [bad]))).toBe('23514');
        expect(await sqlState(() => queryAs(db, admin, `update public.settings set notify_escalation_days = $1`, [bad]))).toBe('23514');
      }
      expect((await queryAs(db, admin, `update public.settings set notify_expiry_days = '{365,90,30,7,1}' returning id`)).rows).toHaveLength(1);
      await queryAs(db, admin, `update public.settings set notify_expiry_days = '{60,30,7}'`);
    });

    it('a rule\'s overrides: an organisation administrator on their own rules only, a learner on none', async () => {
      const national = (await queryAs<{ id: string }>(db, admin,
        `insert into public.required_training (course_id, service, notify_due_soon_days, notify_escalation_days)
         values ($1, 'UKFRS', '{7}', 3) returning id`, [course5])).rows[0].id;
      const own = (await queryAs<{ id: string }>(db, orgAdmin,
        `insert into public.required_training (course_id, organisation_id, notify_due_soon_days, notify_escalation_days)
         values ($1, $2, '{21,5}', 10) returning id`, [course11, org])).rows[0].id;
      const other = (await queryAs<{ id: string }>(db, admin,
        `insert into public.required_training (course_id, organisation_id) values ($1, $2) returning id`, [course11, otherOrg])).rows[0].id;
      const set = 'update public.required_training set notify_escalation_days = 2 where id = $1 returning id';
      expect((await queryAs(db, orgAdmin, set, [own])).rows).toHaveLength(1);
      expect((await queryAs(db, orgAdmin, set, [national])).rows).toEqual([]);
      expect((await queryAs(db, orgAdmin, set, [other])).rows).toEqual([]);
      expect((await queryAs(db, orgAdmin, 'update public.required_training set notify_escalation_days = null where id = $1 returning id', [own])).rows).toHaveLength(1);
      expect((await queryAs(db, seedLearner, set, [national])).rows).toEqual([]);
      expect(await sqlState(() => queryAs(db, seedLearner,
        `insert into public.required_training (course_id, service, notify_escalation_days) values ($1, 'UKPS', 2)`, [course8]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, null, set, [national]))).toBe('42501');
      const rules = await db.query<{ id: string; notify_due_soon_days: number[] | null; notify_escalation_days: number | null }>(
        'select id, notify_due_soon_days, notify_escalation_days from public.required_training where id = any($1::uuid[])', [[national, own, other]]);
      const byId = Object.fromEntries(rules.rows.map((r) => [r.id, [r.notify_due_soon_days, r.notify_escalation_days]]));
      expect(byId).toEqual({ [national]: [[7], 3], [own]: [[21, 5], null], [other]: [null, null] });
      for (const bad of ['{}', '{5,21}', '{0}', '{400}']) {
        expect(await sqlState(() => queryAs(db, admin, 'update public.required_training set notify_due_soon_days = $2::integer[] where id = $1', [national, bad])), bad).toBe('23514');
      }
      expect(await sqlState(() => queryAs(db, admin, 'update public.required_training set notify_escalation_days = 0 where id = $1', [national]))).toBe('23514');
      // The change is in the audit log (only when set, so older records read as before).
      const audit = await db.query<{ new_data: Record<string, unknown> }>(
        `select new_data from public.audit_events where action = 'required_training.added' and target_id = $1`, [own]);
      expect(audit.rows[0].new_data).toMatchObject({ notifyDueSoonDays: [21, 5], notifyEscalationDays: 10 });
    });
  });

  describe('the intervals decide when each notice goes', () => {
    let t0: Date;
    beforeAll(async () => {
      db = await create();
      await organisation(db, org, 'Testshire Fire', 'TFI');
      await db.query(`insert into public.units (id, organisation_id, parent_id, name) values ($1, $2, null, 'Central Station')`, [unit, org]);
      await people(db, [
        [orgAdmin, 'ni_orgadmin', 'Ora Admin', ['AUX'], 'ADMIN'],
        [manager, 'ni_manager', 'Mo Manager', ['AUX']],
        [learnerA, 'ni_a', 'Ann A', ['UKFRS']],
        [learnerB, 'ni_b', 'Ben B', ['UKFRS']],
      ]);
      await db.query('update public.profiles set organisation_id = $1 where id = any($2::uuid[])',
        [org, [orgAdmin.id, manager.id, learnerA.id, learnerB.id]]);
      await db.query('update public.profiles set manager_id = $1 where id = any($2::uuid[])', [manager.id, [learnerA.id, learnerB.id]]);
      await db.query('update public.profiles set unit_id = $1 where id = $2', [unit, learnerA.id]);
      // The settings: due soon 10 and 5 days before, overdue every 3 days, escalation after 5.
      await queryAs(db, admin, `update public.settings set notify_due_soon_days = '{10,5}', notify_overdue_every_days = 3,
        notify_escalation_days = 5`);
      await queryAs(db, admin,
        `insert into public.required_training (course_id, service, due_within_days) values ($1, 'UKFRS', 14)`, [course5]);
      // Course 11: national, due soon 7 days before, escalation after 2; and the unit's own rule of
      // the same course, due soon 12 days before, escalation after 9 (Ann has both: the earliest
      // "due soon" and the shortest escalation win).
      await queryAs(db, admin,
        `insert into public.required_training (course_id, service, due_within_days, notify_due_soon_days, notify_escalation_days)
         values ($1, 'UKFRS', 20, '{7}', 2)`, [course11]);
      await queryAs(db, orgAdmin,
        `insert into public.required_training (course_id, organisation_id, unit_id, due_within_days, notify_due_soon_days, notify_escalation_days)
         values ($1, $2, $3, 20, '{12}', 9)`, [course11, org, unit]);
      t0 = await startRulesOnATuesday(db);
      for (const day of [0, 4, 5, 8, 9, 10, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 22.5]) {
        await db.query('select private.decide_notifications($1::timestamptz)', [at(t0, day)]);
      }
    });
    afterAll(async () => {
      await db?.close();
    });

    const written = async (who: Persona, course: string) =>
      (await db.query<Written>(
        `select kind, recipient_id, person_id, course_id, threshold, cycle,
                round(extract(epoch from created_at - $3::timestamptz) / 86400)::int as day
         from public.notifications where recipient_id = $1 and course_id = $2
         order by created_at, kind, person_id, threshold, cycle`, [who.id, course, t0.toISOString()])).rows
        .map((n) => `${n.kind}:${n.threshold}:${n.cycle}@${n.day}${n.person_id === who.id ? '' : ` about ${n.person_id}`}`);

    it('the settings\' intervals: due soon 10 and 5 days before, overdue every 3 days', async () => {
      for (const who of [learnerA, learnerB]) {
        expect(await written(who, course5)).toEqual([
          'training-assigned:0:0@0', 'training-due-soon:10:0@4', 'training-due-soon:5:0@9',
          'training-overdue:0:0@14', 'training-overdue:0:1@17', 'training-overdue:0:2@20',
        ]);
      }
    });

    it('a rule\'s override of "due soon", and of two rules for the same course the earliest', async () => {
      expect(await written(learnerB, course11)).toEqual([
        'training-assigned:0:0@0', 'training-due-soon:7:0@13', 'training-overdue:0:0@20',
      ]);
      expect(await written(learnerA, course11)).toEqual([
        'training-assigned:0:0@0', 'training-due-soon:12:0@8', 'training-overdue:0:0@20',
      ]);
    });

    it('escalation at the settings\' day, and at the rule\'s (the shortest of two rules), once', async () => {
      expect(await written(manager, course5)).toEqual([
        `manager-escalation:5:0@19 about ${learnerA.id}`, `manager-escalation:5:0@19 about ${learnerB.id}`,
      ].sort((x, y) => x.localeCompare(y)));
      expect(await written(manager, course11)).toEqual([
        `manager-escalation:2:0@22 about ${learnerA.id}`, `manager-escalation:2:0@22 about ${learnerB.id}`,
      ].sort((x, y) => x.localeCompare(y)));
      expect(await db.query('select private.decide_notifications($1::timestamptz) as n', [at(t0, 22, 30)]))
        .toMatchObject({ rows: [{ n: 0 }] });
    });

    it('the titles say the days', async () => {
      const titles = await db.query<{ title: string }>(
        `select title from public.notifications where recipient_id = $1 and kind = 'training-due-soon' order by created_at`, [learnerA.id]);
      expect(titles.rows.map((r) => r.title)).toEqual([
        'Manual Handling for Ambulance Crews is due in 10 days',
        expect.stringMatching(/ is due in 12 days$/),
        'Manual Handling for Ambulance Crews is due in 5 days',
      ]);
    });
  });

  describe('the weekly digest of a line manager', () => {
    let t0: Date;
    let monday1: string;
    beforeAll(async () => {
      db = await create();
      await organisation(db, org, 'Testshire Fire', 'TFI');
      await people(db, [
        [manager, 'ni_manager', 'Mo Manager', ['AUX']],
        [subManager, 'ni_sub', 'Sue Sub', ['AUX']],
        [learnerA, 'ni_a', 'Ann A', ['UKFRS']],
        [learnerB, 'ni_b', 'Ben B', ['UKFRS']],
        [holder, 'ni_holder', 'Hal Holder', ['AUX']],
        [quietManager, 'ni_quiet', 'Quin Quiet', ['AUX']],
        [quietReport, 'ni_quietreport', 'Rae Report', ['AUX']],
      ]);
      await db.query('update public.profiles set organisation_id = $1 where id = any($2::uuid[])',
        [org, [manager, subManager, learnerA, learnerB, holder, quietManager, quietReport].map((p) => p.id)]);
      // Mo manages Sue and Hal; Sue manages Ann and Ben; Quin manages Rae, who has nothing due.
      await db.query('update public.profiles set manager_id = $1 where id = any($2::uuid[])', [manager.id, [subManager.id, holder.id]]);
      await db.query('update public.profiles set manager_id = $1 where id = any($2::uuid[])', [subManager.id, [learnerA.id, learnerB.id]]);
      await db.query('update public.profiles set manager_id = $1 where id = $2', [quietManager.id, quietReport.id]);
      await queryAs(db, admin,
        `insert into public.required_training (course_id, service, due_within_days) values ($1, 'UKFRS', 14)`, [course5]);
      t0 = await startRulesOnATuesday(db);
      monday1 = await monday(db, at(t0, 15));
      // Hal's certificate expires 20 days after that Monday.
      await db.query(
        `insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at, expires_at)
         values ($1, $2, 'Hal Holder', 'Fire Safety', $3, $4)`,
        [holder.id, course6, at(t0, -300), new Date(new Date(monday1).getTime() + 20 * DAY).toISOString()]);
      // Sue wants no digest email (the bell still has it).
      await db.query(`insert into public.notification_preferences (user_id, email_off) values ($1, '{manager-digest}')`, [subManager.id]);
    });
    afterAll(async () => {
      await db?.close();
    });

    const digests = async () =>
      (await db.query<{ recipient_id: string; occasion: string; data: Record<string, unknown>; body: string; title: string;
        link_path: string; email_status: string; person_id: string | null }>(
        `select recipient_id, occasion::text, data, body, title, link_path, email_status, person_id from public.notifications
         where kind = 'manager-digest' order by created_at, recipient_id`)).rows;
    const decide = async (when: string) =>
      (await db.query<{ n: number }>('select private.decide_notifications($1::timestamptz) as n', [when])).rows[0].n;

    it('none before Monday 07:00 London', async () => {
      await decide(new Date(new Date(monday1).getTime() - 2 * 3600_000).toISOString()); // Monday 06:00
      expect(await digests()).toEqual([]);
    });

    it('on Monday: one to each manager with something to say, of direct and indirect reports; none to a quiet team', async () => {
      await decide(monday1);
      const sent = await digests();
      expect(sent.map((d) => d.recipient_id).sort()).toEqual([manager.id, subManager.id].sort());
      const mo = sent.find((d) => d.recipient_id === manager.id)!;
      const sue = sent.find((d) => d.recipient_id === subManager.id)!;
      expect(mo.occasion).toBe(monday1.slice(0, 10));
      expect(mo).toMatchObject({ link_path: '/team', email_status: 'queued', person_id: null,
        title: 'Your team this week: 2 overdue, 1 expiring' });
      expect(mo.data).toMatchObject({ overdue: 2, expiring: 1, people: 3 });
      expect((mo.data.lines as { personName: string; what: string }[]).map((l) => `${l.personName}:${l.what}`))
        .toEqual(['Ann A:overdue', 'Ben B:overdue', 'Hal Holder:expiring']);
      expect(mo.body).toContain('2 overdue items and 1 certificate expiring within 30 days, among 3 people.');
      expect(mo.body).toContain('Ann A: Manual Handling for Ambulance Crews overdue since ');
      expect(mo.body).toMatch(/Hal Holder: Fire Safety certificate expires on \d{1,2} [A-Z][a-z]+ \d{4}/);
      expect(sue.data).toMatchObject({ overdue: 2, expiring: 0, people: 2 });
      // Switched off: in the bell, no email.
      expect(sue.email_status).toBe('skipped');
    });

    it('once a week: later runs that week write none, the next Monday one more', async () => {
      await decide(new Date(new Date(monday1).getTime() + 5 * 60_000).toISOString());
      await decide(new Date(new Date(monday1).getTime() + 2 * DAY).toISOString());
      expect(await digests()).toHaveLength(2);
      // Ben now reports to Quin: Sue's and Mo's next digests leave him out, Quin's has him.
      await db.query('update public.profiles set manager_id = $1 where id = $2', [quietManager.id, learnerB.id]);
      await decide(await monday(db, monday1));
      const second = (await digests()).slice(2);
      const of = (p: Persona) => second.find((d) => d.recipient_id === p.id)?.data;
      expect(of(subManager)).toMatchObject({ overdue: 1, people: 1 });
      expect(of(manager)).toMatchObject({ overdue: 1, expiring: 1, people: 2 });
      expect(of(quietManager)).toMatchObject({ overdue: 1, expiring: 0, people: 1 });
      expect(second.every((d) => d.occasion === second[0].occasion && d.occasion > monday1.slice(0, 10))).toBe(true);
    });

    it('a deactivated report is left out; nothing to say, no digest', async () => {
      await db.query('update public.profiles set deactivated_at = now() where id = $1', [learnerA.id]);
      const next = await monday(db, monday1, 1);
      await decide(next);
      const third = (await digests()).filter((d) => d.occasion === next.slice(0, 10));
      expect(third.map((d) => d.recipient_id).sort()).toEqual([manager.id, quietManager.id].sort());
      expect(third.find((d) => d.recipient_id === manager.id)?.data).toMatchObject({ overdue: 0, expiring: 1, people: 1 });
    });
  });

  describe('leavers: nothing more about an organisation\'s training, nor about a former report', () => {
    let t0: Date;
    const kindsOf = async (who: Persona, sinceDay: number) =>
      (await db.query<Written>(
        `select kind, recipient_id, person_id, course_id, threshold, cycle, 0 as day from public.notifications
         where recipient_id = $1 and created_at > $2::timestamptz order by created_at, kind`, [who.id, at(t0, sinceDay, 0)])).rows;
    beforeAll(async () => {
      db = await create();
      await organisation(db, org, 'Testshire Fire', 'TFI');
      await people(db, [
        [manager, 'ni_manager', 'Mo Manager', ['AUX']],
        [leaver, 'ni_leaver', 'Lena Leaver', ['UKFRS']],
        [deactivated, 'ni_deactivated', 'Dee Deactivated', ['UKFRS']],
        [stayer, 'ni_stayer', 'Stan Stayer', ['UKFRS']],
        [goneManager, 'ni_gonemanager', 'Gil Gone', ['AUX']],
        [orphan, 'ni_orphan', 'Otto Orphan', ['UKFRS']],
      ]);
      const everyone = [manager, leaver, deactivated, stayer, goneManager, orphan].map((p) => p.id);
      await db.query('update public.profiles set organisation_id = $1 where id = any($2::uuid[])', [org, everyone]);
      await db.query('update public.profiles set manager_id = $1 where id = any($2::uuid[])', [manager.id, [leaver.id, deactivated.id, stayer.id]]);
      await db.query('update public.profiles set manager_id = $1 where id = $2', [goneManager.id, orphan.id]);
      // Course 6 and course 8 are the organisation's own; course 7 national.
      await db.query('update public.courses set organisation_id = $1 where id = any($2::uuid[])', [org, [course6, course8]]);
      await db.query('update public.courses set requires_approval = true where id = $1', [course8]);
      await queryAs(db, admin,
        `insert into public.required_training (course_id, organisation_id, due_within_days) values ($1, $2, 14)`, [course5, org]);
      t0 = await startRulesOnATuesday(db);
      // Everyone holds a certificate of the organisation's course 6 and of national course 7,
      // expiring 40 days after t0; each asked to join course 8.
      for (const p of [leaver, deactivated, stayer]) {
        for (const course of [course6, course7]) {
          await db.query(
            `insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at, expires_at)
             values ($1, $2, 'X', $3, $4, $5)`, [p.id, course, course === course6 ? 'Org Course' : 'National Course', at(t0, -300), at(t0, 40, 0)]);
        }
        await db.query(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'PENDING')`, [p.id, course8]);
      }
      await db.query('select private.decide_notifications($1::timestamptz)', [at(t0, 0)]);
      // Lena leaves the organisation (her manager goes with it), Dee is deactivated, Gil (Otto's
      // manager) is deactivated.
      await db.query('update public.profiles set organisation_id = null where id = $1', [leaver.id]);
      await db.query('update public.profiles set deactivated_at = now() where id = any($1::uuid[])', [[deactivated.id, goneManager.id]]);
      // Then each is approved on course 8 and issued a certificate of course 6 again.
      await queryAs(db, admin, `select private.approve_enrollment(e.id) from public.enrollments e
        where e.course_id = $1 and e.status = 'PENDING' and e.user_id = any($2::uuid[])`, [course8, [leaver.id, deactivated.id, stayer.id]]);
      for (const p of [leaver, deactivated, stayer]) {
        await db.query(`insert into public.certificates (user_id, course_id, learner_name, course_title, issued_at)
          values ($1, $2, 'X', 'Org Course', $3)`, [p.id, course8, at(t0, 1, 0)]);
      }
      const mon = await monday(db, at(t0, 22));
      for (const when of [at(t0, 1), at(t0, 11), at(t0, 15), at(t0, 22), mon, at(t0, 31), at(t0, 34), at(t0, 41)]) {
        await db.query('select private.decide_notifications($1::timestamptz)', [when]);
      }
    });
    afterAll(async () => {
      await db?.close();
    });

    it('a person still there gets every kind (the control)', async () => {
      const kinds = new Set((await kindsOf(stayer, 0.5)).map((n) => n.kind));
      expect([...kinds].sort()).toEqual(['certificate-expired', 'certificate-expiring', 'certificate-issued',
        'enrolment-approved', 'training-due-soon', 'training-overdue']);
    });

    it('a person who left the organisation: nothing about its courses, still about their national certificate', async () => {
      const after = await kindsOf(leaver, 0.5);
      expect(after.filter((n) => n.course_id !== course7)).toEqual([]);
      expect(after.map((n) => `${n.kind}:${n.threshold}`)).toEqual(['certificate-expiring:30', 'certificate-expiring:7', 'certificate-expired:0']);
    });

    it('a deactivated person: nothing at all, and nobody hears about them', async () => {
      expect(await kindsOf(deactivated, 0.5)).toEqual([]);
      const about = await db.query('select kind from public.notifications where person_id = $1 and created_at > $2', [deactivated.id, at(t0, 0.5, 0)]);
      expect(about.rows).toEqual([]);
    });

    it('a manager: escalation and digest about their current report only; a deactivated manager nothing', async () => {
      const mo = await kindsOf(manager, 0.5);
      expect(mo.filter((n) => n.kind === 'manager-escalation').map((n) => `${n.kind}:${n.person_id}`)).toEqual([`manager-escalation:${stayer.id}`]);
      // (a run of the other days may fall on a Monday too: every digest is about Stan alone)
      const digests = await db.query<{ data: { people: number; lines: { personId: string }[] } }>(
        `select data from public.notifications where recipient_id = $1 and kind = 'manager-digest'`, [manager.id]);
      expect(digests.rows.length).toBeGreaterThanOrEqual(1);
      for (const digest of digests.rows) {
        expect(digest.data.people).toBe(1);
        expect(new Set(digest.data.lines.map((l) => l.personId))).toEqual(new Set([stayer.id]));
      }
      expect(await kindsOf(goneManager, 0.5)).toEqual([]);
      // Otto, whose manager left, still hears about his own training.
      expect((await kindsOf(orphan, 0.5)).map((n) => n.kind)).toContain('training-overdue');
    });
  });
});
