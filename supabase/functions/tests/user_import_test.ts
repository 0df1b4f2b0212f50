// Bulk user import and the user CSV export against the real platform: the preview reports every
// row's problems and writes nothing; the import checks again, creates accounts whose temporary
// passwords sign in, skips what became taken since the preview, and writes one audit event per
// part; 1,050 users go through in three parts; the export streams the filtered list as CSV.
import assert from 'node:assert/strict';
import { app, call, closePoolAfterTests, db, register, test, unique } from './helpers.ts';

async function login(username: string, password: string): Promise<string> {
  const answer = await call('POST', '/api/login', { body: { username, password } });
  assert.equal(answer.status, 200, answer.text);
  return answer.json.session.access_token;
}

let adminTokenPromise: Promise<string> | undefined;
const adminToken = () => (adminTokenPromise ??= login('admin', 'password123'));

const csvHeaders = { 'content-type': 'text/csv; charset=utf-8' };

function preview(token: string | undefined, csv: string) {
  return call('POST', '/api/admin/users/import/preview', { token, raw: csv, headers: csvHeaders });
}

interface Row {
  line: number;
  username: string;
  email: string;
  name: string;
  role: string;
  services: string;
}

function importPart(token: string | undefined, rows: Row[], importId = crypto.randomUUID(), part = 1) {
  return call('POST', '/api/admin/users/import', { token, body: { importId, part, rows } });
}

/** The preview's valid rows as the web client sends them. */
// deno-lint-ignore no-explicit-any
const validRows = (previewJson: any): Row[] =>
  // deno-lint-ignore no-explicit-any
  previewJson.rows.filter((row: any) => row.problems.length === 0).map((row: any) => ({
    line: row.line,
    username: row.username,
    email: row.email,
    name: row.name,
    role: row.role,
    services: row.services.join(';'),
  }));

function assertNoLeak(text: string) {
  assert.doesNotMatch(text, /\bat .+:\d+:\d+|stack|select |insert into|syntax error|invalid input syntax/i);
}

async function profileCount(pattern: string): Promise<number> {
  const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.profiles where username like ${pattern}`;
  return row.n;
}

// ---------------------------------------------------------------- preview

test('preview: visitors 401, learners 403, wrong content type 415, unreadable files 400, too big 413', async () => {
  const { session } = await register();
  const csv = 'username,email,name\nsomeone,someone@example.test,Some One\n';
  assert.equal((await preview(undefined, csv)).status, 401);
  assert.equal((await preview(session.access_token, csv)).status, 403);
  const token = await adminToken();

  const wrongType = await call('POST', '/api/admin/users/import/preview', { token, raw: csv, headers: { 'content-type': 'application/xml' } });
  assert.equal(wrongType.status, 415, wrongType.text);

  for (const [bad, message] of [
    ['', /empty/],
    ['\r\n\r\n', /empty/],
    ['username,email\nx,y@example.test\n', /missing: name/],
    ['username,email,name\n', /no users/],
    ['username,email,name\n"abc,x@example.test,Open quote\n', /Line 2: a quoted field is not closed/],
    ['username,email,name\n"abc"x,x@example.test,Text after quote\n', /Line 2: unexpected text after a closing quote/],
  ] as const) {
    const answer = await preview(token, bad);
    assert.equal(answer.status, 400, `${JSON.stringify(bad)}: ${answer.text}`);
    assert.match(answer.json.message, message);
    assertNoLeak(answer.text);
  }
  const latin1 = new Uint8Array([...new TextEncoder().encode('username,email,name\nx1x,x@example.test,Ren'), 0xe9, 0x0a]);
  const notUtf8 = await call('POST', '/api/admin/users/import/preview', { token, raw: latin1, headers: csvHeaders });
  assert.equal(notUtf8.status, 400);
  assert.match(notUtf8.json.message, /UTF-8/);

  const tooManyRows = 'username,email,name\n' + Array.from({ length: 10_001 }, (_, i) => `u${i},u${i}@example.test,U ${i}`).join('\n');
  const rows413 = await preview(token, tooManyRows);
  assert.equal(rows413.status, 413, rows413.text);
  assert.match(rows413.json.message, /at most 10,000 users/);

  const tooBig = 'username,email,name\n' + 'x'.repeat(2 * 1024 * 1024);
  assert.equal((await preview(token, tooBig)).status, 413);
  const tooBigJson = await call('POST', '/api/admin/users/import/preview', { token, body: { csv: tooBig } });
  assert.equal(tooBigJson.status, 413);
  const notText = await call('POST', '/api/admin/users/import/preview', { token, body: { csv: 42 } });
  assert.equal(notText.status, 400);
  assert.equal(typeof notText.json.fields.csv, 'string');
});

test('preview: every row with its problems (format, role, services, repeats, taken), counts, and nothing written', async () => {
  const token = await adminToken();
  const id = unique();
  const taken = await register();
  // A BOM, CRLF line ends, a blank line, a row of empty fields, quoted fields holding a comma, a
  // quote and a line break, any column order and case, services in any case split by ; or |.
  const csv = '\uFEFFEmail,Username,Name,Role,Services,Joined\r\n' +
    `ok1_${id}@example.test,ok1_${id},"Smith, Jo",student,ukas;Misc,01/01/2026\r\n` +
    `ok2_${id}@example.test,ok2_${id},"Line one\r\nline ""two""",Instructor,UKPS|UKFRS,\r\n` +
    '\r\n' +
    ',,,,,\r\n' +
    `not-an-email,bad1_${id},Bad Email,,,\r\n` +
    `bad2_${id}@example.test,x,Short Username,,,\r\n` +
    `bad3_${id}@example.test,bad3_${id},,,,\r\n` +
    `OK1_${id}@EXAMPLE.TEST,dup_${id},Repeat Email,,,\r\n` +
    `dup2_${id}@example.test,OK1_${id},Repeat Username,,,\r\n` +
    `taken1_${id}@example.test,${taken.input.username.toUpperCase()},Taken Username,,,\r\n` +
    `${taken.input.email},taken2_${id},Taken Email,,,\r\n` +
    `role_${id}@example.test,role_${id},Unknown Role,OWNER,,\r\n` +
    `svc_${id}@example.test,svc_${id},Unknown Service,,UKAS;NHS;xyz,\r\n` +
    `extra_${id}@example.test,extra_${id},Smith,Jo,STUDENT,MISC,,surplus\r\n`;
  const answer = await preview(token, csv);
  assert.equal(answer.status, 200, answer.text);
  const body = answer.json;
  assert.deepEqual({ total: body.total, valid: body.valid, invalid: body.invalid }, { total: 12, valid: 1, invalid: 11 });
  // deno-lint-ignore no-explicit-any
  const byLine = new Map<number, any>(body.rows.map((row: any) => [row.line, row]));
  assert.deepEqual(byLine.get(2), {
    line: 2, username: `ok1_${id}`, email: `ok1_${id}@example.test`, name: 'Smith, Jo', role: 'STUDENT', services: ['UKAS', 'MISC'],
    organisation: '', unit: '', manager: '', problems: [],
  });
  // A quoted line break is read, but a name may not hold one (the shared name rule: no control characters).
  assert.deepEqual(byLine.get(3), {
    line: 3, username: `ok2_${id}`, email: `ok2_${id}@example.test`, name: 'Line one\r\nline "two"', role: 'INSTRUCTOR', services: ['UKPS', 'UKFRS'],
    organisation: '', unit: '', manager: '', problems: [{ field: 'name', message: 'Name may not contain invisible or control characters' }],
  });
  // deno-lint-ignore no-explicit-any
  const problems = (line: number) => byLine.get(line).problems.map((p: any) => `${p.field}: ${p.message}`);
  assert.deepEqual(problems(7), ['email: Invalid email address']);
  assert.deepEqual(problems(8), ['username: Invalid username: Username must be at least 3 characters']);
  assert.deepEqual(problems(9), ['name: Name is missing']);
  assert.deepEqual(problems(10), ['email: Email appears earlier in the file (line 2)']);
  assert.deepEqual(problems(11), ['username: Username appears earlier in the file (line 2)']);
  assert.deepEqual(problems(12), ['username: Username is already taken']);
  assert.deepEqual(problems(13), ['email: Email is already registered']);
  assert.deepEqual(problems(14), ['role: Unknown role "OWNER" (use ADMIN, INSTRUCTOR or STUDENT)']);
  assert.deepEqual(problems(15), ['services: Unknown services "NHS", "XYZ" (use UKPS, UKAS, UKFRS, UKHW, AUX, MISC)']);
  assert.match(problems(16)[0], /^line: This line has 8 fields but the header has 6/);

  // The same file as JSON {csv} gives the same answer; nothing was written either time.
  const json = await call('POST', '/api/admin/users/import/preview', { token, body: { csv } });
  assert.equal(json.status, 200);
  assert.deepEqual(json.json, body);
  assert.equal(await profileCount(`%\\_${id}`), 0);
});

// ---------------------------------------------------------------- import

test('import: admins only, bodies validated (400), every row checked again on the server', async () => {
  const { session } = await register();
  const id = unique();
  const row: Row = { line: 2, username: `imp_${id}`, email: `imp_${id}@example.test`, name: 'Imp', role: 'STUDENT', services: '' };
  assert.equal((await importPart(undefined, [row])).status, 401);
  assert.equal((await importPart(session.access_token, [row])).status, 403);
  const token = await adminToken();
  for (const body of [
    {},
    { importId: 'nope', rows: [row] },
    { importId: crypto.randomUUID(), rows: [] },
    { importId: crypto.randomUUID(), rows: [row, row] },
    { importId: crypto.randomUUID(), rows: [{ ...row, line: 'two' }] },
    { importId: crypto.randomUUID(), rows: Array.from({ length: 1001 }, (_, i) => ({ ...row, line: i + 2 })) },
  ]) {
    const answer = await call('POST', '/api/admin/users/import', { token, body });
    assert.equal(answer.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${answer.text}`);
  }
  assert.equal((await call('POST', '/api/admin/users/import', { token, raw: 'username,email', headers: csvHeaders })).status, 400);

  // A client that skips the preview: bad rows are reported, not created.
  const answer = await importPart(token, [
    { ...row, email: 'not-an-email' },
    { ...row, line: 3, username: `imp2_${id}`, email: `imp2_${id}@example.test`, role: 'KING' },
    { ...row, line: 4, username: `imp3_${id}`, email: `imp3_${id}@example.test`, name: '  ' },
  ]);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.created.length, 0);
  // deno-lint-ignore no-explicit-any
  assert.deepEqual(answer.json.skipped.map((s: any) => [s.line, s.problems[0].field]), [[2, 'email'], [3, 'role'], [4, 'name']]);
  assert.equal(await profileCount(`imp%\\_${id}`), 0);
});

test('import: creates the valid rows with temporary passwords that sign in, role and services set, one audit event; rows taken since the preview are skipped', async () => {
  const token = await adminToken();
  const id = unique();
  const csv = 'username,email,name,role,services\n' +
    `a_${id},a_${id}@example.test,Alice ${id},INSTRUCTOR,UKAS;MISC\n` +
    `b_${id},b_${id}@example.test,=Bob ${id},,UKAS\n` +
    `c_${id},c_${id}@example.test,Carol ${id},student,\n` +
    `bad_${id},bad,Bad Row,,\n`;
  const checked = await preview(token, csv);
  assert.equal(checked.status, 200, checked.text);
  assert.equal(checked.json.valid, 3);

  // Between the preview and the import, someone signs up as c_<id>: the server finds out itself.
  await register({ username: `c_${id}`, email: `someone_${id}@example.test`, name: 'Early Bird', password: `pw-${id}-secret` });

  const importId = crypto.randomUUID();
  const answer = await importPart(token, validRows(checked.json), importId, 1);
  assert.equal(answer.status, 201, answer.text);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.deepEqual(
    // deno-lint-ignore no-explicit-any
    answer.json.created.map((u: any) => [u.line, u.username, u.role, u.services.join(';'), u.name]),
    [[2, `a_${id}`, 'INSTRUCTOR', 'UKAS;MISC', `Alice ${id}`], [3, `b_${id}`, 'STUDENT', 'UKAS', `=Bob ${id}`]],
  );
  assert.deepEqual(answer.json.skipped, [
    { line: 4, username: `c_${id}`, email: `c_${id}@example.test`, problems: [{ field: 'username', message: 'Username is already taken' }] },
  ]);

  // The temporary password (at least 80 bits: 20 characters of 67) signs in; the profile is right.
  const alice = answer.json.created[0];
  assert.ok(alice.temporaryPassword.length >= 20);
  assert.notEqual(alice.temporaryPassword, answer.json.created[1].temporaryPassword);
  const aliceToken = await login(alice.username, alice.temporaryPassword);
  const me = await call('GET', '/api/user', { token: aliceToken });
  assert.equal(me.status, 200);
  assert.equal(me.json.mustChangePassword, true);
  assert.deepEqual([me.json.id, me.json.role, me.json.services, me.json.email], [alice.id, 'INSTRUCTOR', ['UKAS', 'MISC'], `a_${id}@example.test`]);
  const wrong = await call('POST', '/api/login', { body: { username: alice.username, password: 'password123' } });
  assert.equal(wrong.status, 401);

  // One audit event for the part, none per user.
  const events = await db.sql<{ action: string; newData: Record<string, unknown> }[]>`
    select action, new_data from public.audit_events
    where new_data ->> 'importId' = ${importId} or target_id = any(${[alice.id, answer.json.created[1].id]}::uuid[])`;
  assert.deepEqual(events.map((e) => [e.action, e.newData.created, e.newData.skipped, e.newData.part]), [['users.imported', 2, 1, 1]]);

  // The same rows again: all taken now, nothing created.
  const again = await importPart(token, validRows(checked.json), crypto.randomUUID());
  assert.equal(again.status, 200);
  assert.equal(again.json.created.length, 0);
  assert.equal(again.json.skipped.length, 3);
});

test('import: a sign-up that commits the same email while a part is being written: the part is redone whole, that row skipped', async () => {
  const token = await adminToken();
  const id = unique();
  const rows: Row[] = [0, 1, 2].map((i) => ({
    line: i + 2, username: `race${i}_${id}`, email: `race${i}_${id}@example.test`, name: `Racer ${i}`, role: 'STUDENT', services: 'UKAS',
  }));
  // Another transaction creates an account with row 3's email and holds it uncommitted: the import's
  // check cannot see it, so its insert waits on the unique email (Postgres) or behind it (PGlite),
  // then meets the committed row.
  let release!: () => void;
  let inserted!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
  const holder = db.sql.begin(async (tx) => {
    await tx`
      insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
      values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', ${rows[1].email}, '', now(),
        '{"provider":"email","providers":["email"]}', ${tx.json({ username: `early_${id}`, name: 'Early Bird' })}, now(), now())`;
    inserted();
    await released;
  });
  await insertedNow;
  const importing = importPart(token, rows);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  release();
  await holder;
  const answer = await importing;
  assert.equal(answer.status, 201, answer.text);
  // deno-lint-ignore no-explicit-any
  assert.deepEqual(answer.json.created.map((u: any) => u.line), [2, 4]);
  assert.deepEqual(answer.json.skipped, [
    { line: 3, username: `race1_${id}`, email: rows[1].email, problems: [{ field: 'email', message: 'Email is already registered' }] },
  ]);
  const [counts] = await db.sql<{ users: number; profiles: number; identities: number }[]>`
    select (select count(*)::int from auth.users where email like ${`race%\_${id}@example.test`}) as users,
           (select count(*)::int from public.profiles where username like ${`race%\_${id}`}) as profiles,
           (select count(*)::int from auth.identities where identity_data ->> 'email' like ${`race%\_${id}@example.test`}) as identities`;
  // Rows 2 and 4 once each, and the racing sign-up's account (whose profile has its own username).
  assert.deepEqual(counts, { users: 3, profiles: 2, identities: 2 });
});

test('import: 1,050 users in parts of 500 (as the web client sends them), then exported as CSV across pages', async () => {
  const token = await adminToken();
  const id = unique();
  const total = 1050;
  const csv = 'username,email,name,role,services\n' +
    Array.from({ length: total }, (_, i) => `bulk${id}_${i},bulk${id}_${i}@example.test,Bulk Person ${i},,UKAS`).join('\n');
  let started = performance.now();
  const checked = await preview(token, csv);
  assert.equal(checked.status, 200, checked.text.slice(0, 300));
  assert.equal(checked.json.valid, total);
  console.log(`preview of ${total} rows: ${Math.round(performance.now() - started)} ms`);

  const rows = validRows(checked.json);
  const importId = crypto.randomUUID();
  let created = 0;
  started = performance.now();
  for (let part = 0; part * 500 < rows.length; part += 1) {
    const answer = await importPart(token, rows.slice(part * 500, part * 500 + 500), importId, part + 1);
    assert.equal(answer.status, 201, answer.text.slice(0, 300));
    assert.equal(answer.json.skipped.length, 0);
    created += answer.json.created.length;
  }
  console.log(`import of ${total} rows in 3 parts: ${Math.round(performance.now() - started)} ms`);
  assert.equal(created, total);
  assert.equal(await profileCount(`bulk${id}\\_%`), total);
  const [events] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.audit_events where new_data ->> 'importId' = ${importId}`;
  assert.equal(events.n, 3);

  // Export with the same search: every one of them, over two pages of the server's 1,000.
  const exported = await call('GET', `/api/admin/users/export.csv?search=bulk${id}_&service=UKAS&role=STUDENT`, { token });
  assert.equal(exported.status, 200, exported.text.slice(0, 300));
  assert.match(exported.headers.get('content-type') ?? '', /^text\/csv/);
  assert.match(exported.headers.get('content-disposition') ?? '', /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"/);
  // (The answer's text has lost its byte-order mark in decoding; the bytes are checked below.)
  assert.ok(exported.text.startsWith('username,email,name,role,services,organisation,unit,manager,joined\r\n'));
  const lines = exported.text.split('\r\n').filter((line) => line !== '');
  assert.equal(lines.length, total + 1);
  assert.equal(new Set(lines).size, total + 1);
  assert.match(lines[1], new RegExp(`^bulk${id}_\\d+,bulk${id}_\\d+@example\\.test,Bulk Person \\d+,STUDENT,UKAS,,,,\\d{4}-\\d{2}-\\d{2}$`));
  const none = await call('GET', `/api/admin/users/export.csv?search=bulk${id}_&role=ADMIN`, { token });
  assert.equal(none.text, 'username,email,name,role,services,organisation,unit,manager,joined\r\n');
  const raw = await app.request(`/api/admin/users/export.csv?search=bulk${id}_&role=ADMIN`, { headers: { authorization: `Bearer ${token}` } });
  assert.deepEqual([...new Uint8Array(await raw.arrayBuffer())].slice(0, 11), [0xef, 0xbb, 0xbf, ...new TextEncoder().encode('username')]);
});

test('export: admins only, query validated, spreadsheet formulas neutralised, and an export previews back as all taken', async () => {
  const { session } = await register();
  assert.equal((await call('GET', '/api/admin/users/export.csv')).status, 401);
  assert.equal((await call('GET', '/api/admin/users/export.csv', { token: session.access_token })).status, 403);
  const token = await adminToken();
  for (const query of ['role=OWNER', 'service=NHS', `search=${'x'.repeat(201)}`]) {
    const answer = await call('GET', `/api/admin/users/export.csv?${query}`, { token });
    assert.equal(answer.status, 400, query);
    assert.ok(answer.json.fields);
  }
  const id = unique();
  const made = await importPart(token, [
    { line: 2, username: `f_${id}`, email: `f_${id}@example.test`, name: `=HYPERLINK("http://x") ${id}`, role: 'STUDENT', services: 'MISC' },
    { line: 3, username: `g_${id}`, email: `g_${id}@example.test`, name: `Gail, "G" ${id}`, role: 'STUDENT', services: 'MISC;UKAS' },
  ]);
  assert.equal(made.status, 201, made.text);
  const exported = await call('GET', `/api/admin/users/export.csv?search=${id}`, { token });
  assert.equal(exported.status, 200);
  assert.ok(exported.text.includes(`"'=HYPERLINK(""http://x"") ${id}"`), exported.text);
  assert.ok(exported.text.includes(`"Gail, ""G"" ${id}",STUDENT,UKAS;MISC,`), exported.text);
  // Round trip: the exported file is a valid import file, and every row in it is now taken.
  const back = await preview(token, exported.text);
  assert.equal(back.status, 200, back.text);
  assert.equal(back.json.total, 2);
  // deno-lint-ignore no-explicit-any
  assert.deepEqual(back.json.rows.map((r: any) => [r.name, r.problems.map((p: any) => p.message)]).sort(), [
    [`=HYPERLINK("http://x") ${id}`, ['Username is already taken', 'Email is already registered']],
    [`Gail, "G" ${id}`, ['Username is already taken', 'Email is already registered']],
  ]);
});

closePoolAfterTests();
