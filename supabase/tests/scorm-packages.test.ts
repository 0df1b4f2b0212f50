// SCORM packages (supabase/schemas/18_scorm_packages.sql): whoever may read a module reads its
// package row; nobody writes the table directly through the API roles; private.save_scorm_package
// and private.set_scorm_settings accept the course's author (and admins) only, each proved both ways;
// the files' hashes (what the offline manifest signs) come only with a revision, one per file;
// the upload limit (settings.scorm_max_upload_mb) is read by everyone and set by national administrators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOtherInstructor, backends, createUser, ids, personas, queryAs, sqlState, type Persona, type TestDatabase } from './helpers/database';

const { admin, instructor, learner, otherInstructor } = personas;
const visitor = null;
// An organisation's administrator: an ADMIN, but not of the platform-wide settings.
const orgAdmin: Persona = { id: '00000000-0000-4000-a000-0000000031a0', email: 'sp.orgadmin@example.uk' };
const organisation = '00000000-0000-4000-a000-0000000031a1';
// Course 1 is ACTIVE and authored by the seed instructor; course 16 is a DRAFT of the admin's.
const publishedModule = '20000000-0000-4000-a000-0000000000f1';
const draftModule = '20000000-0000-4000-a000-0000000000f2';
const scos = JSON.stringify([{ id: 'SCO1', title: 'Fire safety', href: 'index_lms.html' }]);
const FILES = ['imsmanifest.xml', 'index_lms.html', 'lms/scormdriver.js', 'metadata.xml', 'story_content/logo.png', 'story_content/styles.css'];
const hashesOf = (digit: string, files = FILES) => JSON.stringify(Object.fromEntries(files.map((f) => [f, digit.repeat(64)])));

const save = (moduleId: string, revision: number, version = '1.2', edition: string | null = null, hashes: string | null = hashesOf('a')) =>
  `select private.save_scorm_package('${moduleId}', ${revision}, '${version}', ${edition ? `'${edition}'` : 'null'}, 'Fire safety awareness', '${scos}'::jsonb, 6, 12345,
     ${hashes === null ? 'null' : `'${hashes}'`}::jsonb)`;

describe.each(backends)('SCORM packages on $name', ({ create }) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await create();
    await addOtherInstructor(db);
    await db.query(`insert into public.course_modules (id, course_id, title, kind, order_index) values
      ($1, $2, 'A SCORM module', 'scorm', 50), ($3, $4, 'A draft SCORM module', 'scorm', 50)`,
    [publishedModule, ids.course(1), draftModule, ids.course(16)]);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('refuses a module kind other than content or scorm', async () => {
    expect(await sqlState(() => db.query(`update public.course_modules set kind = 'video' where id = $1`, [publishedModule]))).toBe('23514');
  });

  it('lets the course\'s author record a package, and refuses a learner, another instructor and a visitor', async () => {
    for (const persona of [learner, otherInstructor]) {
      expect(await sqlState(() => queryAs(db, persona, save(publishedModule, 1)))).toBe('42501');
    }
    expect(await sqlState(() => queryAs(db, visitor, save(publishedModule, 1)))).toBe('42501');
    const r = await queryAs<{ old: string | null }>(db, instructor, `${save(publishedModule, 1)} as old`);
    expect(r.rows[0].old).toBeNull();
    const row = (await db.query('select course_id, storage_prefix, revision, uploaded_by from public.scorm_packages where module_id = $1', [publishedModule])).rows[0];
    expect(row).toEqual({ course_id: ids.course(1), storage_prefix: `${publishedModule}/1/`, revision: 1, uploaded_by: instructor.id });
  });

  it('replaces a package only with the next revision (a concurrent replacement is refused) and returns the old prefix', async () => {
    expect(await sqlState(() => queryAs(db, instructor, save(publishedModule, 1)))).toBe('55000');
    expect(await sqlState(() => queryAs(db, instructor, save(publishedModule, 3)))).toBe('55000');
    const r = await queryAs<{ old: string }>(db, instructor, `${save(publishedModule, 2, '2004', '3rd')} as old`);
    expect(r.rows[0].old).toBe(`${publishedModule}/1/`);
    expect(await sqlState(() => queryAs(db, instructor, save(publishedModule, 3, '2004', '5th')))).toBe('23514');
  });

  it('keeps the files\' hashes with the revision, one lowercase SHA-256 per file, and refuses a revision without them', async () => {
    const hashes = async () => (await db.query<{ file_hashes: Record<string, string> | null }>(
      'select file_hashes from public.scorm_packages where module_id = $1', [publishedModule])).rows[0].file_hashes;
    expect(await hashes()).toEqual(JSON.parse(hashesOf('a')));
    expect(await sqlState(() => queryAs(db, instructor, save(publishedModule, 3, '1.2', null, null)))).toBe('23502');
    // Not one per file, not hex, upper case, an empty path, not an object: the table's check.
    for (const bad of [hashesOf('b', FILES.slice(1)), hashesOf('g'), hashesOf('B'), hashesOf('b', ['', ...FILES.slice(1)]), '["x"]']) {
      expect(await sqlState(() => queryAs(db, instructor, save(publishedModule, 3, '1.2', null, bad))), bad).toBe('23514');
    }
    await queryAs(db, instructor, save(publishedModule, 3, '1.2', null, hashesOf('c')));
    expect(await hashes()).toEqual(JSON.parse(hashesOf('c')));
  });

  it('refuses a content module (22023) and lets an admin record any course\'s package', async () => {
    expect(await sqlState(() => queryAs(db, instructor, save(ids.module(1, 1), 1)))).toBe('22023');
    await queryAs(db, admin, save(draftModule, 1));
    expect((await db.query('select revision from public.scorm_packages where module_id = $1', [draftModule])).rows).toEqual([{ revision: 1 }]);
  });

  it('lets whoever sees the course read the row: the published one to everyone, the draft to its author and admins only', async () => {
    for (const persona of [visitor, learner, otherInstructor, instructor, admin]) {
      const r = await queryAs(db, persona, 'select module_id from public.scorm_packages where module_id = $1', [publishedModule]);
      expect(r.rows, String(persona?.email)).toHaveLength(1);
    }
    for (const persona of [visitor, learner, otherInstructor, instructor]) {
      const r = await queryAs(db, persona, 'select module_id from public.scorm_packages where module_id = $1', [draftModule]);
      expect(r.rows, String(persona?.email)).toHaveLength(0);
    }
    expect((await queryAs(db, admin, 'select module_id from public.scorm_packages where module_id = $1', [draftModule])).rows).toHaveLength(1);
  });

  it('refuses direct writes to every API role, the author included', async () => {
    for (const persona of [visitor, learner, instructor, admin]) {
      // The hashes the offline manifest signs: only the upload path, through save_scorm_package.
      expect(await sqlState(() => queryAs(db, persona, `update public.scorm_packages set file_hashes = $2::jsonb where module_id = $1`,
        [publishedModule, hashesOf('d')]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, `update public.scorm_packages set file_hashes = null where module_id = $1`, [publishedModule]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, `update public.scorm_packages set revision = 9, storage_prefix = module_id || '/9/' where module_id = $1`, [publishedModule]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, 'delete from public.scorm_packages where module_id = $1', [publishedModule]))).toBe('42501');
      expect(await sqlState(() => queryAs(db, persona, `insert into public.scorm_packages (module_id, course_id, version, title, scos, storage_prefix, file_count, unpacked_bytes)
        values ($1, $2, '1.2', 't', '[{}]', $3, 1, 1)`, [ids.module(1, 2), ids.course(1), `${ids.module(1, 2)}/1/`]))).toBe('42501');
    }
    expect(await sqlState(() => queryAs(db, otherInstructor, `update public.scorm_packages set file_hashes = '{}' where module_id = $1`, [publishedModule]))).toBe('42501');
    expect(Object.values((await db.query<{ file_hashes: Record<string, string> }>(
      'select file_hashes from public.scorm_packages where module_id = $1', [publishedModule])).rows[0].file_hashes)).not.toContain('d'.repeat(64));
  });

  it('lets the author (and admins) set the completion rule, and nobody else', async () => {
    const set = (rule: string, score: boolean, moduleId = publishedModule) =>
      `select private.set_scorm_settings('${moduleId}', '${rule}', ${score})`;
    for (const persona of [learner, otherInstructor]) expect(await sqlState(() => queryAs(db, persona, set('passed', true)))).toBe('42501');
    expect(await sqlState(() => queryAs(db, visitor, set('passed', true)))).toBe('42501');
    await queryAs(db, instructor, set('passed', true));
    expect((await db.query('select completion_rule, score_is_quiz_score from public.scorm_packages where module_id = $1', [publishedModule])).rows)
      .toEqual([{ completion_rule: 'passed', score_is_quiz_score: true }]);
    expect(await sqlState(() => queryAs(db, instructor, set('viewed', true)))).toBe('23514');
    await queryAs(db, admin, set('completed', false));
    // No package yet: P0002.
    await db.query(`insert into public.course_modules (id, course_id, title, kind, order_index) values ($1, $2, 'Empty SCORM module', 'scorm', 51)`,
      ['20000000-0000-4000-a000-0000000000f3', ids.course(1)]);
    expect(await sqlState(() => queryAs(db, instructor, set('passed', true, '20000000-0000-4000-a000-0000000000f3')))).toBe('P0002');
  });

  it('keeps the upload limit in the settings: 200 MB by default, whole MB from 1 to 1,024', async () => {
    expect((await db.query('select scorm_max_upload_mb from public.settings')).rows).toEqual([{ scorm_max_upload_mb: 200 }]);
    for (const bad of [0, -1, 1025, 2048]) {
      expect(await sqlState(() => queryAs(db, admin, 'update public.settings set scorm_max_upload_mb = $1', [bad])), String(bad)).toBe('23514');
    }
    expect(await sqlState(() => queryAs(db, admin, 'update public.settings set scorm_max_upload_mb = null'))).toBe('23502');
    for (const good of [1, 1024, 200]) {
      expect((await queryAs(db, admin, 'update public.settings set scorm_max_upload_mb = $1 returning scorm_max_upload_mb', [good])).rows)
        .toEqual([{ scorm_max_upload_mb: good }]);
    }
  });

  it('lets everyone read the upload limit (the upload control states it) and only a national administrator change it, audited', async () => {
    await createUser(db, { id: orgAdmin.id, email: orgAdmin.email, username: 'sp_orgadmin', name: 'Orla Org', role: 'ADMIN', services: ['UKPS'] });
    await db.query(`insert into public.organisations (id, name, code, service) values ($1, 'Scormshire Police', 'SCP', 'UKPS')`, [organisation]);
    await db.query('update public.profiles set organisation_id = $2 where id = $1', [orgAdmin.id, organisation]);
    for (const persona of [visitor, learner, instructor, otherInstructor, orgAdmin, admin]) {
      const r = await queryAs(db, persona, 'select scorm_max_upload_mb from public.settings');
      expect(r.rows, String(persona?.email)).toEqual([{ scorm_max_upload_mb: 200 }]);
    }
    const change = 'update public.settings set scorm_max_upload_mb = 10 returning scorm_max_upload_mb';
    // Under RLS the update finds no row for anyone but a national administrator; a visitor has no grant.
    for (const persona of [learner, instructor, otherInstructor, orgAdmin]) {
      expect((await queryAs(db, persona, change)).rows, persona.email).toEqual([]);
    }
    expect(await sqlState(() => queryAs(db, visitor, change))).toBe('42501');
    expect((await db.query('select scorm_max_upload_mb from public.settings')).rows).toEqual([{ scorm_max_upload_mb: 200 }]);
    expect((await queryAs(db, admin, change)).rows).toEqual([{ scorm_max_upload_mb: 10 }]);
    const audit = await db.query<{ actor_id: string; old_data: unknown; new_data: unknown }>(
      `select actor_id, old_data, new_data from public.audit_events where action = 'settings.updated' order by id desc limit 1`);
    expect(audit.rows).toEqual([{ actor_id: admin.id, old_data: { scorm_max_upload_mb: 200 }, new_data: { scorm_max_upload_mb: 10 } }]);
    await queryAs(db, admin, 'update public.settings set scorm_max_upload_mb = 200');
  });

  it('goes with its module', async () => {
    await db.query('delete from public.course_modules where id = $1', [draftModule]);
    expect((await db.query('select 1 from public.scorm_packages where module_id = $1', [draftModule])).rows).toEqual([]);
  });
});
