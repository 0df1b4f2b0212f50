// The demo organisations that `npm start` adds after seed.sql (supabase/seed-organisations.sql):
// they apply on a fresh database and show what README promises of the accounts orgadmin and manager,
// so a person trying the product meets a manager whose team has training in every state.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';
import { keptCountsDrift } from './helpers/kept-counts';

const seed = fs.readFileSync(path.resolve('supabase', 'seed-organisations.sql'), 'utf8');
const manager: Persona = { id: '00000000-0000-4000-a000-000000000005', email: 'manager@northshire-police.example.uk' };
const orgAdmin: Persona = { id: '00000000-0000-4000-a000-000000000004', email: 'orgadmin@northshire-police.example.uk' };
const sergeant: Persona = { id: '00000000-0000-4000-a000-000000000006', email: 'sergeant@northshire-police.example.uk' };
const sessionModule = '20000000-0000-4000-a000-000021000002';

describe.each(backends)('the demo organisations on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await db.exec(seed);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('give the manager a team of three whose required training is overdue, due soon and in progress', async () => {
    const team = await queryAs<{ username: string; direct: boolean; overdue: number; due_soon: number; in_progress: number }>(
      db, manager, 'select username, direct, overdue, due_soon, in_progress from private.team_members(null, null, null, 50, 0) order by username');
    expect(team.rows).toEqual([
      { username: 'constable1', direct: false, overdue: 1, due_soon: 0, in_progress: 0 },
      { username: 'constable2', direct: false, overdue: 0, due_soon: 0, in_progress: 1 },
      { username: 'sergeant', direct: true, overdue: 0, due_soon: 1, in_progress: 0 },
    ]);
  });

  it('let the organisation administrator see only the force\'s people, the paramedic of the trust not', async () => {
    const people = await queryAs<{ username: string }>(db, orgAdmin,
      'select username from public.profiles where organisation_id is not null order by username');
    expect(people.rows.map((r) => r.username)).toEqual(['constable1', 'constable2', 'harbour', 'manager', 'orgadmin', 'sergeant']);
  });

  it('give the first-aid course four dates at 09:30 London time, the first full, the student booked on the second', async () => {
    const dates = await queryAs<{ id: string; london: string; capacity: number; places_taken: number; trainers: number; after_change: boolean }>(
      db, personas.learner, `
      select s.id, to_char(s.starts_at at time zone 'Europe/London', 'HH24:MI') as london, s.capacity, s.places_taken,
             (select count(*)::int from public.session_trainers t where t.session_id = s.id) as trainers,
             -- the London offset that day differs from three days before: the clocks changed in between
             (s.starts_at at time zone 'Europe/London') - (s.starts_at at time zone 'UTC')
               <> ((s.starts_at - interval '3 days') at time zone 'Europe/London') - ((s.starts_at - interval '3 days') at time zone 'UTC') as after_change
      from public.classroom_sessions s where s.module_id = $1 order by s.id`, [sessionModule]);
    expect(dates.rows.map((d) => [d.london, d.capacity, d.places_taken, d.after_change])).toEqual([
      ['09:30', 2, 2, false], ['09:30', 12, 1, false], ['09:30', 12, 0, false], ['09:30', 12, 0, true],
    ]);
    expect(dates.rows.every((d) => d.trainers === 1)).toBe(true);
    const open = await db.query<{ n: number }>(
      'select count(*)::int as n from public.classroom_sessions where module_id = $1 and booking_closes_at > now()', [sessionModule]);
    expect(open.rows[0].n).toBe(4);
    const mine = await queryAs<{ session_id: string; status: string }>(db, personas.learner,
      'select session_id, status from public.session_bookings where user_id = $1', [personas.learner.id]);
    expect(mine.rows).toEqual([{ session_id: dates.rows[1].id, status: 'booked' }]);
    expect(await keptCountsDrift(db)).toEqual([]);
    // The full date puts the next learner on its waiting list; to one not enrolled it is not there.
    expect(await sqlState(() => queryAs(db, sergeant, 'select private.book_session($1)', [dates.rows[0].id]))).toBe('P0002');
    await db.query(`insert into public.enrollments (user_id, course_id, status) values ($1, '10000000-0000-4000-a000-000000000021', 'ACTIVE')`, [sergeant.id]);
    const waiting = await queryAs<{ status: string }>(db, sergeant, 'select status from private.book_session($1)', [dates.rows[0].id]);
    expect(waiting.rows[0].status).toBe('waiting');
  });
});
