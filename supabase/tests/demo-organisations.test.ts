// The demo organisations that `npm start` adds after seed.sql (supabase/seed-organisations.sql):
// they apply on a fresh database and show what README promises of the accounts orgadmin and manager,
// so a person trying the product meets a manager whose team has training in every state.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, queryAs, type Persona, type TestDatabase } from './helpers/database';

const seed = fs.readFileSync(path.resolve('supabase', 'seed-organisations.sql'), 'utf8');
const manager: Persona = { id: '00000000-0000-4000-a000-000000000005', email: 'manager@northshire-police.example.uk' };
const orgAdmin: Persona = { id: '00000000-0000-4000-a000-000000000004', email: 'orgadmin@northshire-police.example.uk' };

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
});
