// The welcome notice (supabase/schemas/17_account_welcome.sql): a person added by an administrator
// (Auth admin create with app_metadata.must_change_password) or imported (private.import_users)
// gets one 'account-welcome' notice in the outbox, written in the transaction that creates them;
// people who register themselves get none. The notice is theirs alone (the notifications policies).
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, backends, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const added: Persona = { id: '00000000-0000-4000-a000-0000000000d1', email: 'added.person@example.uk' };
const registered: Persona = { id: '00000000-0000-4000-a000-0000000000d2', email: 'registered.person@example.uk' };

function insertAuthUser(db: { query: TestDatabase['query'] }, persona: Persona, username: string, appMeta: Record<string, unknown>) {
  return db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       extensions.crypt('password123', extensions.gen_salt('bf', 4)), now(),
       ($3::text)::jsonb, ($4::text)::jsonb, now(), now())`,
    [persona.id, persona.email, JSON.stringify({ provider: 'email', providers: ['email'], ...appMeta }),
      JSON.stringify({ username, name: `Person ${username}` })],
  );
}

interface Notice {
  recipient_id: string;
  person_id: string;
  kind: string;
  title: string;
  link_path: string | null;
  email_status: string;
  data: Record<string, unknown>;
}

const welcomes = async (db: TestDatabase, recipient: string) =>
  (await db.query<Notice>(`select * from public.notifications where kind = 'account-welcome' and recipient_id = $1`, [recipient])).rows;

describe.each(backends)('the welcome notice on $name', ({ create }) => {
  let db: TestDatabase;
  let siteName: string;
  beforeAll(async () => {
    db = await create();
    siteName = (await db.query<{ site_name: string }>('select site_name from public.settings')).rows[0].site_name;
    await insertAuthUser(db, added, 'added_person', { must_change_password: true, created_by: personas.admin.id });
    await insertAuthUser(db, registered, 'registered_person', {});
  });
  afterAll(async () => {
    await db?.close();
  });

  it('is written once for a person an administrator adds, and not for one who registers', async () => {
    const [notice, ...more] = await welcomes(db, added.id);
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      recipient_id: added.id,
      person_id: added.id,
      kind: 'account-welcome',
      title: `Welcome to ${siteName}`,
      link_path: null,
      email_status: 'queued',
    });
    expect(notice.data).toMatchObject({ siteName, username: 'added_person' });
    expect(await welcomes(db, registered.id)).toEqual([]);
  });

  it('is written in the transaction that creates the person: none when it rolls back', async () => {
    const person: Persona = { id: randomUUID(), email: 'rolled.back@example.uk' };
    class Undo extends Error {}
    let inside = -1;
    await db.transaction(async (tx) => {
      await insertAuthUser(tx, person, 'rolled_back', { must_change_password: true });
      inside = (await tx.query(`select 1 from public.notifications where recipient_id = $1 and kind = 'account-welcome'`, [person.id])).rows.length;
      throw new Undo();
    }).catch((error: unknown) => {
      if (!(error instanceof Undo)) throw error;
    });
    expect(inside).toBe(1);
    expect(await welcomes(db, person.id)).toEqual([]);
  });

  it('is written once for each person an import creates, none for a skipped row', async () => {
    const password = () => randomBytes(15).toString('base64url');
    const rows = [
      { line: 2, username: 'welcome_one', email: 'welcome.one@import.example.uk', name: 'Welcome One', role: 'STUDENT', services: [], password: password() },
      { line: 3, username: 'welcome_two', email: 'welcome.two@import.example.uk', name: 'Welcome Two', role: 'STUDENT', services: [], password: password() },
      // Taken: skipped, so nobody new to welcome.
      { line: 4, username: 'added_person', email: 'another@import.example.uk', name: 'Taken', role: 'STUDENT', services: [], password: password() },
    ];
    const outcome = (await queryAs<{ line: number; user_id: string | null }>(db, personas.admin,
      'select * from private.import_users($1::uuid, 1, $2::text::jsonb)', [randomUUID(), JSON.stringify(rows)])).rows;
    const created = outcome.filter((row) => row.user_id).map((row) => row.user_id as string);
    expect(created).toHaveLength(2);
    for (const id of created) expect(await welcomes(db, id)).toHaveLength(1);
    const total = await db.query<{ n: number }>(
      `select count(*)::int as n from public.notifications n join public.profiles p on p.id = n.recipient_id
       where n.kind = 'account-welcome' and p.email like '%@import.example.uk'`);
    expect(total.rows[0].n).toBe(2);
    expect(await welcomes(db, added.id)).toHaveLength(1);
  });

  it('is read by its recipient and their administrator only (the Delivery list), by no other person', async () => {
    const own = await queryAs<Notice>(db, added, `select * from public.notifications where kind = 'account-welcome'`);
    expect(own.rows.map((row) => row.recipient_id)).toEqual([added.id]);
    for (const other of [registered, personas.learner]) {
      const rows = await queryAs(db, other, `select 1 from public.notifications where recipient_id = $1`, [added.id]);
      expect(rows.rows).toEqual([]);
    }
    const byAdmin = await queryAs(db, personas.admin, `select 1 from public.notifications where recipient_id = $1`, [added.id]);
    expect(byAdmin.rows).toHaveLength(1);
    expect(await sqlState(() => queryAs(db, null, `select 1 from public.notifications`))).toBe('42501');
  });

  it('may be marked read by its recipient, and nothing else changed, by nobody else', async () => {
    const marked = await queryAs(db, added, `update public.notifications set read_at = now() where kind = 'account-welcome' returning id`);
    expect(marked.rows).toHaveLength(1);
    const byOther = await queryAs(db, personas.admin, `update public.notifications set read_at = now() where recipient_id = $1 returning id`, [added.id]);
    expect(byOther.rows).toEqual([]);
    expect(await sqlState(() => queryAs(db, added, `update public.notifications set title = 'Changed' where kind = 'account-welcome'`))).toBe('42501');
    expect(await sqlState(() => queryAs(db, added, `delete from public.notifications where kind = 'account-welcome'`))).toBe('42501');
  });

  it('cannot be written through the API roles, not even by an administrator', async () => {
    for (const who of [added, personas.admin, null]) {
      expect(await sqlState(() => asUser(db, who, (tx) => tx.query(
        `insert into public.notifications (recipient_id, kind, person_id, occasion, title)
         values ($1, 'account-welcome', $1, current_date, 'Welcome again')`, [registered.id])))).toBe('42501');
    }
    expect(await welcomes(db, registered.id)).toEqual([]);
  });

  it('cannot be switched off: the preferences do not take the kind', async () => {
    expect(await sqlState(() => queryAs(db, added,
      `insert into public.notification_preferences (email_off) values (array['account-welcome'])`))).toBe('23514');
  });
});
