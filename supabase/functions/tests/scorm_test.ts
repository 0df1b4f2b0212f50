// SCORM packages against the real platform: an author adds a SCORM module and uploads
// packages built as authoring tools export them; the files land in Storage with their types; others
// are refused; every malformed package is refused with its reason and leaves nothing stored.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, config, db, register, test } from './helpers.ts';
import { malformed, real2004Manifest, real2004Package, real12Package, scorm12Package, scorm2004Package, zipOf } from './scorm_packages.ts';

async function login(username: string): Promise<string> {
  const answer = await call('POST', '/api/login', { body: { username, password: 'password123' } });
  if (answer.status !== 200) throw new Error(`login ${username} failed: ${answer.status} ${answer.text}`);
  return answer.json.session.access_token;
}

let instructor = '';
let student = '';
let other = '';
let courseId = '';
let moduleId = '';
let contentModuleId = '';

const zipHeaders = { 'content-type': 'application/zip' };
const uploadZip = (id: string, bytes: Uint8Array, token?: string, headers: Record<string, string> = zipHeaders) =>
  call('POST', `/api/modules/${id}/scorm`, { token, raw: bytes as Uint8Array<ArrayBuffer>, headers });

async function storedNames(prefix: string): Promise<{ name: string; mimetype: string }[]> {
  // The type without parameters: the platform's Storage keeps only that much (hosted Supabase all).
  return [...await db.sql<{ name: string; mimetype: string }[]>`
    select name, split_part(metadata->>'mimetype', ';', 1) as mimetype from storage.objects
    where bucket_id = 'scorm-content' and name like ${prefix + '%'} order by name`];
}

test('setup: an instructor\'s course with a SCORM module and a content module; a learner; another instructor', async () => {
  instructor = await login('instructor');
  student = (await register()).session.access_token;
  const o = await register();
  await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS,MISC}' where id = ${o.user.id}::uuid`;
  other = o.session.access_token;
  const course = await call('POST', '/api/courses', {
    token: instructor,
    body: { title: 'SCORM test course', description: 'A course with SCORM packages in it.', service: 'UKPS', duration: 1 },
  });
  assert.equal(course.status, 201, course.text);
  courseId = course.json.id;
  await db.sql`update public.courses set status = 'ACTIVE' where id = ${courseId}::uuid`;

  const bad = await call('POST', `/api/courses/${courseId}/modules`, { token: instructor, body: { kind: 'video', title: 'A video module' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.fields.kind, 'Kind must be content, scorm, session or assessment');
  const created = await call('POST', `/api/courses/${courseId}/modules`, { token: instructor, body: { kind: 'scorm', title: 'Fire safety package' } });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.json.kind, 'scorm');
  assert.equal(created.json.content, '');
  moduleId = created.json.id;
  const content = await call('POST', `/api/courses/${courseId}/modules`, {
    token: instructor,
    body: { title: 'A reading module', content: 'Long enough content for a module body here.' },
  });
  assert.equal(content.status, 201, content.text);
  assert.equal(content.json.kind, 'content');
  contentModuleId = content.json.id;
});

test('only the course\'s author may upload: visitor 401, learner and other instructor 403, unknown module 404, a content module 409', async () => {
  const pkg = scorm12Package();
  assert.equal((await uploadZip(moduleId, pkg)).status, 401);
  const learner = await uploadZip(moduleId, pkg, student);
  assert.equal(learner.status, 403);
  assert.equal(learner.json.message, 'You can only change courses you author');
  assert.equal((await uploadZip(moduleId, pkg, other)).status, 403);
  assert.equal((await uploadZip('00000000-0000-4000-a000-00000000dead', pkg, instructor)).status, 404);
  const notScorm = await uploadZip(contentModuleId, pkg, instructor);
  assert.equal(notScorm.status, 409);
  assert.match(notScorm.json.message, /not a SCORM package module/);
  assert.equal((await call('GET', `/api/modules/${moduleId}/scorm`, { token: instructor })).status, 404);
  assert.deepEqual(await storedNames(`${moduleId}/`), []);
});

test('a single-SCO SCORM 1.2 package (Articulate-like) is checked, unpacked with content types and recorded', async () => {
  const answer = await uploadZip(moduleId, scorm12Package(), instructor);
  assert.equal(answer.status, 201, answer.text);
  const pkg = answer.json;
  assert.equal(pkg.title, 'Fire safety awareness');
  assert.equal(pkg.version, '1.2');
  assert.equal(pkg.edition, null);
  assert.equal(pkg.revision, 1);
  assert.equal(pkg.fileCount, 6);
  assert.equal(pkg.completionRule, 'completed-or-passed');
  assert.equal(pkg.scoreIsQuizScore, false);
  assert.deepEqual(pkg.scos.map((s: { id: string; href: string }) => [s.id, s.href]), [['Fire_Safety_SCO', 'index_lms.html']]);
  const base = `${config.supabaseUrl}/storage/v1/object/public/scorm-content/${moduleId}/1/`;
  assert.equal(pkg.baseUrl, base);
  assert.equal(pkg.scos[0].url, `${base}index_lms.html`);

  const stored = await storedNames(`${moduleId}/1/`);
  assert.deepEqual(stored.map((o) => [o.name.slice(moduleId.length + 3), o.mimetype]), [
    ['imsmanifest.xml', 'application/xml'],
    ['index_lms.html', 'text/html'],
    ['lms/scormdriver.js', 'text/javascript'],
    ['metadata.xml', 'application/xml'],
    ['story_content/logo.png', 'image/png'],
    ['story_content/styles.css', 'text/css'],
  ]);
  // Served through the public URL, byte for byte (the image with its type).
  const page = await fetch(`${base}index_lms.html`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /api\.LMSSetValue\('cmi\.core\.lesson_status', 'passed'\)/);
  const logo = await fetch(`${base}story_content/logo.png`);
  assert.equal(logo.headers.get('content-type'), 'image/png');
  assert.equal((await logo.arrayBuffer()).byteLength, 70);

  const row = await db.sql`select course_id, storage_prefix, file_count, unpacked_bytes > 0 as sized from public.scorm_packages where module_id = ${moduleId}::uuid`;
  assert.deepEqual(row[0], { courseId, storagePrefix: `${moduleId}/1/`, fileCount: 6, sized: true });
});

test('the author reads the package; others may not (GET /api/modules/:id/scorm)', async () => {
  const mine = await call('GET', `/api/modules/${moduleId}/scorm`, { token: instructor });
  assert.equal(mine.status, 200);
  assert.equal(mine.json.title, 'Fire safety awareness');
  assert.equal((await call('GET', `/api/modules/${moduleId}/scorm`)).status, 401);
  assert.equal((await call('GET', `/api/modules/${moduleId}/scorm`, { token: student })).status, 403);
  assert.equal((await call('GET', `/api/modules/${moduleId}/scorm`, { token: other })).status, 403);
});

test('the author sets the completion rule and the score as quiz score; bad values 400; others 403', async () => {
  const path = `/api/modules/${moduleId}/scorm/settings`;
  const set = await call('PUT', path, { token: instructor, body: { completionRule: 'passed', scoreIsQuizScore: true } });
  assert.equal(set.status, 200, set.text);
  assert.equal(set.json.completionRule, 'passed');
  assert.equal(set.json.scoreIsQuizScore, true);
  const bad = await call('PUT', path, { token: instructor, body: { completionRule: 'viewed', scoreIsQuizScore: 'yes' } });
  assert.equal(bad.status, 400);
  assert.ok(bad.json.fields.completionRule);
  assert.ok(bad.json.fields.scoreIsQuizScore);
  assert.equal((await call('PUT', path, { token: student, body: { completionRule: 'completed', scoreIsQuizScore: false } })).status, 403);
  assert.equal((await call('PUT', path, { token: other, body: { completionRule: 'completed', scoreIsQuizScore: false } })).status, 403);
  assert.equal((await call('PUT', path, { body: { completionRule: 'completed', scoreIsQuizScore: false } })).status, 401);
  const [row] = await db.sql`select completion_rule, score_is_quiz_score from public.scorm_packages where module_id = ${moduleId}::uuid`;
  assert.deepEqual(row, { completionRule: 'passed', scoreIsQuizScore: true });
});

const REFUSALS: [string, () => Uint8Array, number, RegExp][] = [
  ['a renamed PNG', malformed.renamedPng, 415, /^The file is not a zip archive: export the course again as a SCORM 1\.2 or 2004 package$/],
  ['no manifest', malformed.noManifest, 422, /^The package has no imsmanifest\.xml at its top level: export it again as SCORM 1\.2 or 2004$/],
  ['the manifest in a sub-folder', malformed.manifestInFolder, 422, /no imsmanifest\.xml at its top level: it is in the folder "Fire Safety Export\/"/],
  ['a path with ..', malformed.dotDot, 422, /a path that leads outside it \("\.\.\/\.\.\/etc\/evil\.html"\)/],
  ['an absolute path', malformed.absolutePath, 422, /an absolute path \("\/etc\/evil\.html"\)/],
  ['a symbolic link', malformed.symlink, 422, /contains a link \("story_content\/logo\.png"\); links are not allowed/],
  ['a zip bomb (ratio)', malformed.zipBomb, 413, /looks like a zip bomb/],
  ['a zip bomb (declared size)', malformed.declaredHuge, 413, /unpacks to more than 1 GB/],
  ['a lying header', malformed.lyingHeader, 422, /"assets\/liar\.bin" is damaged or larger than its zip header says/],
  ['an unsupported version', malformed.unsupportedVersion, 422, /SCORM version "1\.1", which is not supported/],
  ['nothing to launch', malformed.noSco, 422, /nothing a learner can launch/],
];

for (const [what, build, status, message] of REFUSALS) {
  test(`refuses ${what} with ${status} and its reason, storing nothing and keeping the package`, async () => {
    const bytes = build();
    const answer = await uploadZip(moduleId, bytes, instructor);
    assert.equal(answer.status, status, answer.text);
    assert.match(answer.json.message, message);
    assert.equal(answer.json.fields.package, answer.json.message);
    assert.deepEqual((await storedNames(`${moduleId}/`)).map((o) => o.name.split('/')[1]), Array(6).fill('1'));
    const [row] = await db.sql`select revision from public.scorm_packages where module_id = ${moduleId}::uuid`;
    assert.equal(row.revision, 1);
  });
}

test('the zip bombs are a few KB and are refused without inflating them whole (quickly)', async () => {
  const bomb = malformed.zipBomb();
  assert.ok(bomb.length < 200 * 1024, `bomb is ${bomb.length} bytes`);
  const started = performance.now();
  assert.equal((await uploadZip(moduleId, malformed.declaredHuge(), instructor)).status, 413);
  assert.ok(performance.now() - started < 2000);
});

test('a body that is neither a zip type nor multipart is 415; an empty one 400', async () => {
  const text = await uploadZip(moduleId, scorm12Package(), instructor, { 'content-type': 'text/plain' });
  assert.equal(text.status, 415);
  assert.match(text.json.message, /Send the package as a \.zip file/);
  const empty = await uploadZip(moduleId, new Uint8Array(), instructor);
  assert.equal(empty.status, 400);
  assert.equal(empty.json.fields.package, 'Choose a .zip file to upload');
});

// ------------------------------------------------------------ the upload limit (a setting)

const MB = 1024 * 1024;
const LIMIT_FIELD = 'Enter a whole number of megabytes between 1 and 1,024';
const ADVICE = 'Export it again with smaller media (compressed video and audio), or split the course into several packages; a national administrator can raise the limit in Settings.';

/** Sets the limit through the API as the national administrator (the whole settings form, as the Settings tab sends it). */
async function setLimit(megabytes: unknown, token?: string) {
  const admin = token ?? await login('admin');
  const current = (await call('GET', '/api/settings', { token: admin })).json;
  return await call('PUT', '/api/settings', { token: admin, body: { ...current, scormMaxUploadMb: megabytes } });
}

/** A body that counts what the server pulls from it: `total` bytes (or endless), 256 KB a chunk. */
function countedBody(total = Infinity) {
  const pulled = { bytes: 0 };
  const chunk = new Uint8Array(256 * 1024);
  // highWaterMark 0: nothing is read ahead of the server's own reads.
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close();
      const part = chunk.subarray(0, Math.min(chunk.length, total - pulled.bytes));
      pulled.bytes += part.length;
      controller.enqueue(part.slice());
    },
  }, { highWaterMark: 0 });
  return { stream, pulled };
}

test('the upload limit is a setting: everyone reads it (200 MB), only a national administrator sets it, whole MB from 1 to 1,024', async () => {
  assert.equal((await call('GET', '/api/settings')).json.scormMaxUploadMb, 200);
  assert.equal((await call('GET', '/api/settings', { token: instructor })).json.scormMaxUploadMb, 200);
  const admin = await login('admin');
  const body = (await call('GET', '/api/settings', { token: admin })).json;
  const change = { ...body, scormMaxUploadMb: 5 };
  // An organisation's administrator is an ADMIN, but not of the platform's settings.
  const org = await register();
  const [organisation] = await db.sql<{ id: string }[]>`
    insert into public.organisations (name, code, service) values ('Uploadshire Police', ${`U${Date.now().toString(36)}`}, 'UKPS') returning id`;
  await db.sql`update public.profiles set role = 'ADMIN', organisation_id = ${organisation.id}::uuid where id = ${org.user.id}::uuid`;
  assert.equal((await call('PUT', '/api/settings', { body: change })).status, 401);
  for (const token of [student, instructor, org.session.access_token]) {
    assert.equal((await call('PUT', '/api/settings', { token, body: change })).status, 403);
  }
  for (const bad of [0, -1, 1025, 2048, 2.5, '200', null]) {
    const answer = await call('PUT', '/api/settings', { token: admin, body: { ...body, scormMaxUploadMb: bad } });
    assert.equal(answer.status, 400, `${bad}: ${answer.text}`);
    assert.equal(answer.json.fields.scormMaxUploadMb, LIMIT_FIELD, String(bad));
  }
  assert.equal((await call('GET', '/api/settings')).json.scormMaxUploadMb, 200);
  // Left out (an older form), the limit stays as it is.
  const { scormMaxUploadMb: _left, ...withoutLimit } = body;
  assert.equal((await call('PUT', '/api/settings', { token: admin, body: withoutLimit })).json.scormMaxUploadMb, 200);
  try {
    for (const good of [1, 1024, 5]) {
      const saved = await call('PUT', '/api/settings', { token: admin, body: { ...body, scormMaxUploadMb: good } });
      assert.equal(saved.status, 200, saved.text);
      assert.equal(saved.json.scormMaxUploadMb, good);
    }
    assert.equal((await call('GET', '/api/settings')).json.scormMaxUploadMb, 5);
    const [row] = await db.sql<{ scormMaxUploadMb: number }[]>`select scorm_max_upload_mb from public.settings`;
    assert.equal(row.scormMaxUploadMb, 5);
    const audit = await call('GET', '/api/audit?pageSize=50', { token: admin });
    const event = audit.json.items.find((e: { action: string; newData: Record<string, unknown> }) =>
      e.action === 'settings.updated' && Object.values(e.newData ?? {}).includes(5));
    assert.ok(event, 'the change is in the audit trail');
    assert.equal(event.actor.username, 'admin');
  } finally {
    assert.equal((await setLimit(200, admin)).status, 200);
  }
});

test('over a lowered limit a package is 413 with its size and the limit, before the body is read whole; under it, it is stored', async () => {
  assert.equal((await setLimit(1)).status, 200);
  try {
    // Content-Length over the limit: refused before a byte of the body is read.
    const declared = countedBody();
    const early = await uploadZip(moduleId, declared.stream as unknown as Uint8Array, instructor,
      { 'content-type': 'application/zip', 'content-length': String(250 * MB) });
    assert.equal(early.status, 413, early.text);
    const stated = `The package is 250 MB; the largest package this site accepts is 1 MB. ${ADVICE}`;
    assert.equal(early.json.message, stated);
    assert.equal(early.json.fields.package, stated);
    assert.equal(declared.pulled.bytes, 0);

    // No Content-Length (a streamed body): refused once the stream passes the limit, not read to its end.
    const endless = countedBody();
    const streamed = await uploadZip(moduleId, endless.stream as unknown as Uint8Array, instructor);
    assert.equal(streamed.status, 413, streamed.text);
    assert.equal(streamed.json.message, `The package is larger than 1 MB, the largest package this site accepts. ${ADVICE}`);
    assert.ok(endless.pulled.bytes <= 1.25 * MB, `read ${endless.pulled.bytes} bytes`);

    // A real package just over: its size to a tenth of a MB, never rounded down to the limit.
    const noise = crypto.getRandomValues(new Uint8Array(60_000));
    const big = scorm12Package({ extra: Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`media/n${i}.bin`, noise.map((b) => b ^ i)])) });
    // Over 1 MB by less than the multipart allowance (64 KB), so that as multipart the file's size decides.
    assert.ok(big.length > MB && big.length < MB + 60 * 1024, `${big.length} bytes`);
    const over = await uploadZip(moduleId, big, instructor, { ...zipHeaders, 'content-length': String(big.length) });
    assert.equal(over.status, 413);
    assert.equal(over.json.message, `The package is ${Math.ceil((big.length / MB) * 10) / 10} MB; the largest package this site accepts is 1 MB. ${ADVICE}`);
    // As multipart: the body is read (it is within the limit and the form's allowance), the file's size decides.
    const form = new FormData();
    form.append('package', new File([big as Uint8Array<ArrayBuffer>], 'big.zip', { type: 'application/zip' }));
    const multipart = await call('POST', `/api/modules/${moduleId}/scorm`, { token: instructor, raw: form });
    assert.equal(multipart.status, 413);
    assert.equal(multipart.json.message, over.json.message);
    assert.equal((await db.sql`select 1 from public.scorm_packages where module_id = ${moduleId}::uuid and revision > 1`).length, 0);

    // Under the limit (a module of its own, so the revisions of the module above stay as the next tests expect).
    const small = await call('POST', `/api/courses/${courseId}/modules`, { token: instructor, body: { kind: 'scorm', title: 'Small package' } });
    const bytes = scorm12Package();
    const stored = await uploadZip(small.json.id, bytes, instructor, { ...zipHeaders, 'content-length': String(bytes.length) });
    assert.equal(stored.status, 201, stored.text);
    assert.equal((await storedNames(`${small.json.id}/1/`)).length, 6);
    assert.equal((await call('DELETE', `/api/modules/${small.json.id}`, { token: instructor })).status, 204);
  } finally {
    assert.equal((await setLimit(200)).status, 200);
  }
});

test('the zip is spooled to a temporary file, removed after a success, a refusal, a damaged file and a body over the limit', async () => {
  const spool = await Deno.makeTempDir({ prefix: 'scorm-spool-test-' });
  const tmpdir = Deno.env.get('TMPDIR');
  // The upload's temporary file goes to the process's TMPDIR (hosted: /tmp), here one of its own.
  Deno.env.set('TMPDIR', spool);
  const left = async () => (await Array.fromAsync(Deno.readDir(spool))).map((e) => e.name);
  const extra = await call('POST', `/api/courses/${courseId}/modules`, { token: instructor, body: { kind: 'scorm', title: 'Spooled package' } });
  try {
    // While the body streams in, the zip is in a file there, not in memory.
    const bytes = scorm12Package();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let part = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (part++ === 0) return controller.enqueue(bytes.slice(0, 100));
        await gate;
        controller.enqueue(bytes.slice(100));
        controller.close();
      },
    }, { highWaterMark: 0 });
    const pending = uploadZip(extra.json.id, stream as unknown as Uint8Array, instructor);
    for (let i = 0; i < 200 && (await left()).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const during = await left();
    release();
    const stored = await pending;
    assert.equal(stored.status, 201, stored.text);
    assert.equal(during.length, 1);
    assert.match(during[0], /^scorm-upload-.*\.zip$/);
    assert.deepEqual(await left(), [], 'removed after a success');

    const refused = await uploadZip(extra.json.id, malformed.noManifest(), instructor);
    assert.equal(refused.status, 422);
    assert.deepEqual(await left(), [], 'removed after a refusal');
    const damaged = await uploadZip(extra.json.id, malformed.lyingHeader(), instructor);
    assert.equal(damaged.status, 422);
    assert.deepEqual(await left(), [], 'removed after a file failed to inflate');
    const form = new FormData();
    form.append('package', new File([scorm2004Package() as Uint8Array<ArrayBuffer>], 'casualty.zip', { type: 'application/zip' }));
    assert.equal((await call('POST', `/api/modules/${extra.json.id}/scorm`, { token: instructor, raw: form })).status, 200);
    assert.deepEqual(await left(), [], 'removed after a multipart upload');

    assert.equal((await setLimit(1)).status, 200);
    try {
      const endless = countedBody();
      const over = await uploadZip(extra.json.id, endless.stream as unknown as Uint8Array, instructor);
      assert.equal(over.status, 413, over.text);
      assert.equal(over.json.message, `The package is larger than 1 MB, the largest package this site accepts. ${ADVICE}`);
      assert.deepEqual(await left(), [], 'removed after a body over the limit');
    } finally {
      assert.equal((await setLimit(200)).status, 200);
    }
  } finally {
    if (tmpdir === undefined) Deno.env.delete('TMPDIR');
    else Deno.env.set('TMPDIR', tmpdir);
    await Deno.remove(spool, { recursive: true });
    assert.equal((await call('DELETE', `/api/modules/${extra.json.id}`, { token: instructor })).status, 204);
  }
});

test('a multipart body over 16 MB is 413, saying to send the zip as the body; the same zip as application/zip is read', async () => {
  const extra = await call('POST', `/api/courses/${courseId}/modules`, { token: instructor, body: { kind: 'scorm', title: 'Large multipart package' } });
  try {
    const bytes = zipOf({
      'imsmanifest.xml': (await import('./scorm_packages.ts')).scorm12Manifest('Large'),
      'index_lms.html': '<p>Large</p>',
      'media/clip.bin': crypto.getRandomValues(new Uint8Array(65536)).map((b, i) => b ^ (i & 255)),
      'media/film.mp4': new Uint8Array(17 * MB).map((_, i) => (i * 7919) & 255),
    }, { level: 0 });
    const form = new FormData();
    form.append('package', new File([bytes as Uint8Array<ArrayBuffer>], 'large.zip', { type: 'application/zip' }));
    const multipart = await call('POST', `/api/modules/${extra.json.id}/scorm`, { token: instructor, raw: form });
    assert.equal(multipart.status, 413, multipart.text.slice(0, 300));
    const message = 'A package over 16 MB cannot be sent as multipart/form-data: send the .zip file itself as the body (Content-Type application/zip)';
    assert.equal(multipart.json.message, message);
    assert.equal(multipart.json.fields.package, message);
    const raw = await uploadZip(extra.json.id, bytes, instructor);
    assert.equal(raw.status, 201, raw.text.slice(0, 300));
    assert.equal(raw.json.fileCount, 4);
  } finally {
    assert.equal((await call('DELETE', `/api/modules/${extra.json.id}`, { token: instructor })).status, 204);
  }
});

test('a file bigger than Storage takes for one object (50 MB here) is 413 with its name, not a 500; nothing is kept', async () => {
  const extra = await call('POST', `/api/courses/${courseId}/modules`, { token: instructor, body: { kind: 'scorm', title: 'Video package' } });
  // Stored, not deflated: a zip of 51 MB that is no bomb.
  const bytes = zipOf({
    'imsmanifest.xml': (await import('./scorm_packages.ts')).scorm12Manifest('Video'),
    'index_lms.html': '<p>Video</p>',
    'media/briefing.mp4': new Uint8Array(51 * MB),
  }, { level: 0 });
  const answer = await uploadZip(extra.json.id, bytes, instructor);
  assert.equal(answer.status, 413, answer.text.slice(0, 300));
  assert.match(answer.json.message, /^The package's file "media\/briefing\.mp4" is 51 MB, more than this site's file storage accepts for one file: /);
  assert.deepEqual(await storedNames(`${extra.json.id}/`), []);
  assert.equal((await call('DELETE', `/api/modules/${extra.json.id}`, { token: instructor })).status, 204);
});

test('replacing with a multi-SCO SCORM 2004 3rd edition package (multipart) bumps the revision and removes the old files', async () => {
  const form = new FormData();
  form.append('package', new File([scorm2004Package() as Uint8Array<ArrayBuffer>], 'casualty.zip', { type: 'application/x-zip-compressed' }));
  const answer = await call('POST', `/api/modules/${moduleId}/scorm`, { token: instructor, raw: form });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.version, '2004');
  assert.equal(answer.json.edition, '3rd');
  assert.equal(answer.json.title, 'Casualty care');
  assert.equal(answer.json.revision, 2);
  assert.deepEqual(answer.json.scos.map((s: { id: string; title: string; href: string }) => [s.id, s.title, s.href]), [
    ['ITEM_ASSESS', 'Primary survey', 'assess/index.html'],
    ['ITEM_BLEED', 'Catastrophic bleeding', 'bleeding/index.html?section=bleeding'],
    ['ITEM_AIRWAY', 'Airway management', 'airway/index.html'],
  ]);
  // The settings stay with the module.
  assert.equal(answer.json.completionRule, 'passed');
  assert.deepEqual(await storedNames(`${moduleId}/1/`), []);
  const stored = await storedNames(`${moduleId}/2/`);
  assert.equal(stored.length, 8);
  assert.ok(stored.some((o) => o.name.endsWith('common/font.woff2') && o.mimetype === 'font/woff2'));
  const launch = await fetch(answer.json.scos[1].url);
  assert.equal(launch.status, 200);
  assert.match(await launch.text(), /API_1484_11/);
});

test('editions: 2nd (CAM 1.3) and 4th are read from schemaversion', async () => {
  for (const edition of ['2nd', '4th'] as const) {
    const answer = await uploadZip(moduleId, scorm2004Package({ edition }), instructor);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.json.edition, edition);
  }
  const [row] = await db.sql`select revision from public.scorm_packages where module_id = ${moduleId}::uuid`;
  assert.equal(row.revision, 4);
  assert.equal((await storedNames(`${moduleId}/`)).every((o) => o.name.startsWith(`${moduleId}/4/`)), true);
});

test('a stored (uncompressed) zip is read too', async () => {
  const answer = await uploadZip(moduleId, zipOf({ 'imsmanifest.xml': (await import('./scorm_packages.ts')).scorm12Manifest('Stored'), 'index_lms.html': 'x' }, { level: 0 }), instructor);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.title, 'Stored');
});

test('the manifest\'s run-time data is kept per SCO: objectives, passing score, completion threshold, launch data; 1.2\'s mastery score', async () => {
  const storedScos = async () => {
    const [row] = await db.sql<{ scos: string }[]>`select scos::text as scos from public.scorm_packages where module_id = ${moduleId}::uuid`;
    return JSON.parse(row.scos);
  };
  const real = await uploadZip(moduleId, real2004Package({ passingScore: '0.8', completionThreshold: '0.75' }), instructor);
  assert.equal(real.status, 200, real.text);
  assert.deepEqual(await storedScos(), [{
    id: 'MajorIncidentTriage_SCO', title: 'Major incident triage', href: 'scormcontent/index.html',
    objectives: ['PRIMARYOBJ', 'obj_sieve', 'obj_sort'], passingScore: '0.8', completionThreshold: '0.75', launchData: 'lang=en-GB',
  }]);
  // 4th edition: the threshold is an attribute, used only with completedByMeasure; satisfiedByMeasure
  // false gives no passing score; a value out of range is left out, not a refusal.
  const fourth = real2004Manifest({ completionThreshold: '0.5' })
    .replace('2004 3rd Edition', '2004 4th Edition')
    .replace('<adlcp:completionThreshold>0.5</adlcp:completionThreshold>', '<adlcp:completionThreshold completedByMeasure="true" minProgressMeasure="0.6" />')
    .replace('satisfiedByMeasure="true"', 'satisfiedByMeasure="false"');
  const edition4 = await uploadZip(moduleId, zipOf({ 'imsmanifest.xml': fourth, 'scormcontent/index.html': '<p>x</p>' }), instructor);
  assert.equal(edition4.status, 200, edition4.text);
  const [sco4] = await storedScos();
  assert.deepEqual([sco4.completionThreshold, sco4.passingScore], ['0.6', undefined]);
  const outOfRange = real2004Manifest({ passingScore: '7' });
  assert.equal((await uploadZip(moduleId, zipOf({ 'imsmanifest.xml': outOfRange, 'scormcontent/index.html': '<p>x</p>' }), instructor)).status, 200);
  assert.equal((await storedScos())[0].passingScore, undefined);
  const v12 = await uploadZip(moduleId, real12Package(), instructor);
  assert.equal(v12.status, 200, v12.text);
  assert.equal((await storedScos())[0].masteryScore, '80');
});

test('deleting a SCORM module removes its row and its files', async () => {
  const extra = await call('POST', `/api/courses/${courseId}/modules`, { token: instructor, body: { kind: 'scorm', title: 'Second package' } });
  assert.equal((await uploadZip(extra.json.id, scorm12Package(), instructor)).status, 201);
  assert.equal((await storedNames(`${extra.json.id}/`)).length, 6);
  assert.equal((await call('DELETE', `/api/modules/${extra.json.id}`, { token: instructor })).status, 204);
  assert.deepEqual(await storedNames(`${extra.json.id}/`), []);
});

test('deleting the course removes the package rows and their files', async () => {
  assert.ok((await storedNames(`${moduleId}/`)).length > 0);
  assert.equal((await call('DELETE', `/api/courses/${courseId}`, { token: instructor })).status, 204);
  const rows = await db.sql`select 1 from public.scorm_packages where module_id = ${moduleId}::uuid`;
  assert.equal(rows.length, 0);
  assert.deepEqual(await storedNames(`${moduleId}/`), []);
});

closePoolAfterTests();
