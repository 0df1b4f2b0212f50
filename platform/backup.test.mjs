// Backup and restore, as README's "Backup and restore" section tells an operator to do it: a
// platform on the machine's Postgres takes writes (a new learner, an enrolment, a course cover in
// Storage); pg_dump takes the database, a copy of DATA_DIR's storage/ and keys.json the rest; the
// dump is restored with pg_restore into a fresh database and a new platform is started on it.
// Everything the first platform held must be there (row counts of every table, the learner's
// sign-in and session, the image's bytes), and the api function's own test suite must pass against
// the restored platform: a representative subset here (concurrency, faults, the learner journey),
// the whole suite with LONG_TESTS=1 (npm run test:soak). The concurrency tests running here is also
// the proof that they hold on real Postgres, where transactions run at the same time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrl, denoTest, pgTool, startPlatformProcess } from '../scripts/platform-process.mjs';

const LONG = Boolean(process.env.LONG_TESTS);
const SUBSET = LONG
  ? ['supabase/functions/tests']
  : ['supabase/functions/tests/concurrency_test.ts', 'supabase/functions/tests/faults_test.ts', 'supabase/functions/tests/courses_test.ts'];

const stamp = `${process.pid}_${Date.now().toString(36)}`;
const source = `esl_backup_${stamp}_source`;
const restored = `esl_backup_${stamp}_restored`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'esl-backup-'));
const platforms = [];

afterAll(async () => {
  for (const p of platforms) await p.stop().catch(() => {});
  for (const name of [source, restored]) await pgTool('dropdb', ['--if-exists', '--force', name]).catch(() => {});
  fs.rmSync(work, { recursive: true, force: true });
});

/** A real 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function json(response) {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/** Row counts of every table in the schemas the platform keeps data in. */
async function tableCounts(url) {
  const sql = postgres(url, { max: 1, prepare: false, onnotice: () => {} });
  try {
    const tables = await sql`
      select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname in ('public', 'auth', 'storage', 'private', 'supabase_migrations')
      order by 1, 2`;
    const counts = {};
    for (const t of tables) {
      const [{ n }] = await sql.unsafe(`select count(*)::int as n from "${t.schema}"."${t.name}"`);
      counts[`${t.schema}.${t.name}`] = n;
    }
    return counts;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

describe('backup with pg_dump, restore into a fresh database', () => {
  it(`restores every row, file and session, and the API suite passes on it (${LONG ? 'whole suite' : 'subset'})`, async () => {
    await pgTool('createdb', [source]);
    const first = await startPlatformProcess({ dataDir: path.join(work, 'first'), databaseUrl: databaseUrl(source) });
    platforms.push(first);

    // Writes a backup must keep: a learner (Auth and profile), an enrolment, a course cover in Storage.
    const id = stamp.replace(/_/g, '');
    const registration = { username: `backup_${id}`, email: `backup_${id}@example.test`, name: 'Bea Backup', password: `pw-${id}-secret`, confirmPassword: `pw-${id}-secret` };
    const registered = await first.api('POST', '/register', { body: registration });
    expect(registered.status).toBe(201);
    const { user, session } = await json(registered);
    const enrolled = await first.api('POST', '/courses/10000000-0000-4000-a000-000000000001/enroll', { token: session.access_token });
    expect(enrolled.status).toBe(201);
    const author = (await json(await first.api('POST', '/login', { body: { username: 'instructor', password: 'password123' } }))).session.access_token;
    const course = await json(await first.api('POST', '/courses', {
      token: author,
      body: { title: `Backup course ${id}`, description: 'A course whose cover must survive a restore.', service: 'UKPS', level: 'BEGINNER', duration: 1 },
    }));
    const form = new FormData();
    form.append('coverImage', new File([PNG], 'cover.png', { type: 'image/png' }));
    const covered = await first.api('POST', `/courses/${course.id}/cover`, { token: author, body: form });
    expect(covered.status).toBe(200);
    const coverUrl = new URL((await json(covered)).coverImage);

    // Backup: the database with pg_dump (custom format), the files and keys by copying them.
    const dump = path.join(work, 'backup.dump');
    await pgTool('pg_dump', ['--format=custom', '--file', dump, source]);
    const before = await tableCounts(databaseUrl(source));
    await first.stop();
    fs.cpSync(path.join(work, 'first', 'storage'), path.join(work, 'second', 'storage'), { recursive: true });
    fs.copyFileSync(path.join(work, 'first', 'keys.json'), path.join(work, 'second', 'keys.json'));
    expect(fs.statSync(dump).size).toBeGreaterThan(10_000);

    // Restore into a database that has never seen the platform, and start a platform on it.
    await pgTool('createdb', [restored]);
    await pgTool('pg_restore', ['--exit-on-error', '--dbname', restored, dump]);
    const after = await tableCounts(databaseUrl(restored));
    expect(after).toEqual(before);
    // On the same address, as a restored project keeps its URL: tokens name their issuer, and
    // stored image URLs name the host.
    const second = await startPlatformProcess({ dataDir: path.join(work, 'second'), databaseUrl: databaseUrl(restored), port: Number(new URL(first.url).port) });
    platforms.push(second);

    // The learner's session, sign-in and enrolment, and the cover's bytes, all came back.
    const me = await second.api('GET', '/user', { token: session.access_token });
    expect(me.status).toBe(200);
    expect((await json(me)).id).toBe(user.id);
    const signIn = await second.api('POST', '/login', { body: { username: registration.username, password: registration.password } });
    expect(signIn.status).toBe(200);
    const enrolments = await json(await second.api('GET', `/users/${user.id}/enrollments`, { token: session.access_token }));
    expect(enrolments.map((e) => e.courseId)).toContain('10000000-0000-4000-a000-000000000001');
    const image = await fetch(coverUrl);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);

    // The function's own tests against the restored platform.
    const result = await denoTest(second, SUBSET, { check: LONG });
    console.log(`backup: dump ${fs.statSync(dump).size} bytes, ${Object.keys(after).length} tables, ` +
      `${Object.values(after).reduce((a, b) => a + b, 0)} rows restored; API tests on the restored database: ` +
      `${result.passed} passed, ${result.failed} failed`);
    if (result.failed > 0 || result.code !== 0) console.log(result.output.slice(-6000));
    expect(result.failed).toBe(0);
    expect(result.code).toBe(0);
    expect(result.passed).toBeGreaterThan(LONG ? 100 : 20);
  }, LONG ? 900_000 : 240_000);
});
