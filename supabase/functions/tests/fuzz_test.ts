// Property-based fuzzing with fast-check: every route the app serves (read from the app
// itself, so a new route is fuzzed the day it lands), as a visitor, a learner, an instructor and an
// admin, with generated bodies (any JSON, objects of real field names holding wrong types, huge and
// odd strings, nulls, negative and huge numbers, SQL and HTML metacharacters), malformed JSON,
// wrong content types, odd query strings and headers, and hostile uploads (lying names and types,
// SVG and HTML posing as images, a gzip bomb, a decompression-heavy PNG, truncated and oversized
// multipart). Every answer must be < 500, show no stack trace or SQL text, carry a message when it
// is a JSON error, and a refused request (>= 400) must change no data.
//
// FUZZ_RUNS sets the number of generated requests (npm test: 1,000; `npm run test:soak`: 20,000).
// Valid ids in paths belong to a world made for this file, so an accepted write never touches the
// seed that other suites read; destructive routes (DELETE, logout, approve, decline, revoke, reset-password) only
// ever get ids that name nothing.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { app, call, closePoolAfterTests, db, LEAK_PATTERNS, register, test } from './helpers.ts';

const RUNS = Number(Deno.env.get('FUZZ_RUNS') ?? 1000);

// ---- The world the valid ids name ----
const learner = await register();
const instructor = await register();
await db.sql`update public.profiles set role = 'INSTRUCTOR', services = '{UKPS}' where id = ${instructor.user.id}`;
const adminLogin = await call('POST', '/api/login', { body: { username: 'admin', password: 'password123' } });
const adminToken: string = adminLogin.json.session.access_token;
const startedAt = new Date();

const [world] = await db.sql<Record<string, string>[]>`
  with course as (
    insert into public.courses (title, description, service, author_id, status)
    values ('Fuzz course', 'The course the fuzz test may change.', 'UKPS', ${instructor.user.id}, 'DRAFT') returning id
  ), module as (
    insert into public.course_modules (course_id, title, content) select id, 'Fuzz module', 'Content the fuzz test may change.' from course returning id
  ), quiz as (
    insert into public.quizzes (module_id, title) select id, 'Fuzz quiz' from module returning id
  ), question as (
    insert into public.quiz_questions (quiz_id, question_text, options, correct_answers)
    select id, 'Fuzz question?', '[{"text":"A","isCorrect":true},{"text":"B","isCorrect":false}]', '[0]' from quiz returning id
  ), enrolment as (
    insert into public.enrollments (user_id, course_id, status) select ${learner.user.id}::uuid, id, 'ACTIVE' from course returning id
  ), certificate as (
    insert into public.certificates (user_id, course_id, learner_name, course_title)
    select ${learner.user.id}::uuid, id, 'Fuzz Learner', 'Fuzz course' from course returning id, verification_code
  )
  select (select id::text from course) as course, (select id::text from module) as module, (select id::text from quiz) as quiz,
         (select id::text from question) as question, (select id::text from enrolment) as enrollment,
         (select id::text from certificate) as certificate, (select verification_code from certificate) as code`;

/** A valid id for a path parameter, by its name in the route. */
function validParam(name: string): string {
  if (/course/i.test(name)) return world.course;
  if (/module/i.test(name)) return world.module;
  if (/quiz/i.test(name)) return world.quiz;
  if (/question/i.test(name)) return world.question;
  if (/enrol/i.test(name)) return world.enrollment;
  if (/certificate/i.test(name)) return world.certificate;
  if (/code/i.test(name)) return world.code;
  if (/role/i.test(name)) return 'STUDENT';
  return learner.user.id; // :id of users and anything else
}

// ---- The routes, straight from the app ----
interface Route {
  method: string;
  path: string;
  destructive: boolean;
}
const routes: Route[] = [
  ...new Map(
    app.routes
      .filter((r) => ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(r.method) && !r.path.includes('*'))
      .map((r) => [`${r.method} ${r.path}`, {
        method: r.method,
        path: r.path,
        destructive: r.method === 'DELETE' || /logout|approve|decline|revoke|recertify|reset-password|roles\/|settings|import$|deactivate|reactivate/.test(r.path),
      }]),
  ).values(),
];

// ---- Arbitraries ----
const FIELDS = [
  'title', 'description', 'service', 'level', 'duration', 'status', 'featured', 'requiresEnrollment', 'certificateValidMonths',
  'content', 'orderIndex', 'moduleIds', 'questionIds', 'questionText', 'questionType', 'options', 'points', 'explanation',
  'passingScore', 'timeLimit', 'randomizeQuestions', 'answers', 'progress', 'completed', 'username', 'email', 'name',
  'password', 'confirmPassword', 'currentPassword', 'newPassword', 'role', 'services', 'siteName', 'adminEmail',
  'courseAccess', 'certificateTemplate', 'footerText', 'enableAnalytics', 'autoEnrollment', 'reason', 'courseId', 'userId',
  'dueWithinDays', 'renewBeforeDays', 'activityDate', 'activity', 'hours', 'learnt', 'reflection', 'csv', 'rows', 'id',
];
const nasty = fc.constantFrom(
  "' or 1=1 --", '"; drop table public.courses; --', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
  'javascript:alert(1)', '\u202e\u0000\ud800', '%00%27', '${7*7}', '{{7*7}}', '../../etc/passwd', '🚒🚑🚓', 'ÅÉÎØÜ ß 日本',
  '=HYPERLINK("http://x")', '\\', '%', '_', ' ', '', 'null', 'NaN', '-0', '1e309',
);
const scalar = fc.oneof(
  fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }), nasty, fc.integer(), fc.double(),
  fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53, -(2 ** 63), Number.MAX_SAFE_INTEGER), fc.boolean(), fc.constant(null),
  fc.uuid(), fc.string({ minLength: 5000, maxLength: 20000 }),
);
const value = fc.oneof({ depthSize: 'small' }, scalar, fc.array(scalar, { maxLength: 5 }), fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }));
const fieldObject = fc.dictionary(fc.constantFrom(...FIELDS), value, { minKeys: 1, maxKeys: 6 });

type Body =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; type: string }
  | { kind: 'none' };
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 5, arbitrary: fieldObject.map((v) => ({ kind: 'json' as const, value: v })) },
  { weight: 2, arbitrary: fc.jsonValue().map((v) => ({ kind: 'json' as const, value: v })) },
  {
    weight: 2,
    arbitrary: fc.record({
      text: fc.oneof(fc.string(), fieldObject.map((v) => JSON.stringify(v).slice(0, -1)), fc.constantFrom('{', '[', '{"a":', '\u0000', 'nul', '{"__proto__":{"x":1}}')),
      type: fc.constantFrom('application/json', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', ''),
    }).map((r) => ({ kind: 'raw' as const, ...r })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
);
const query = fc.dictionary(
  fc.constantFrom('page', 'pageSize', 'search', 'service', 'status', 'role', 'mine', 'courseId', 'scope', 'format', 'q'),
  fc.oneof(fc.string({ maxLength: 30 }), nasty, fc.integer().map(String), fc.constantFrom('-1', '0', '1e9', '101', 'true', '[]')),
  { maxKeys: 3 },
);
const param = fc.oneof(
  fc.constant('valid'), fc.uuid(), nasty, fc.string({ maxLength: 60 }), fc.constantFrom('0', '-1', 'null', 'undefined', '%2e%2e', 'x'.repeat(3000)),
);
const persona = fc.constantFrom('visitor', 'learner', 'instructor', 'admin');
const header = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('Bearer', 'Bearer ', 'Basic YWRtaW46cGFzc3dvcmQ=', 'Bearer a.b.c', 'Bearer ' + 'x'.repeat(9000), 'bearer\tnull'),
);
const request = fc.record({ route: fc.constantFrom(...routes), persona, body, query, param, header });

// ---- What a refused request must not change ----
const tables = (await db.sql<{ name: string; stamped: boolean }[]>`
  select c.relname::text as name,
         exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'updated_at' and not a.attisdropped) as stamped
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind = 'r' and c.relname <> 'audit_events' order by 1`);
const fingerprintSql = tables
  .map((t) => `select '${t.name}' as t, count(*)::text || '/' || ${t.stamped ? 'coalesce(max(updated_at)::text, \'\')' : "''"} as v from public.${t.name}`)
  .concat([`select 'auth.users', count(*)::text from auth.users`, `select 'storage.objects', count(*)::text from storage.objects`])
  .join(' union all ');
async function fingerprint(): Promise<string> {
  const rows = await db.sql.unsafe(fingerprintSql);
  return rows.map((r) => `${r.t}=${r.v}`).join(';');
}

const tokens: Record<string, string | undefined> = {
  visitor: undefined,
  learner: learner.session.access_token,
  instructor: instructor.session.access_token,
  admin: adminToken,
};

let cases = 0;

function checkAnswer(label: string, status: number, text: string, contentType: string) {
  assert.ok(status < 500, `${label} -> ${status} ${text.slice(0, 300)}`);
  for (const pattern of LEAK_PATTERNS) assert.ok(!pattern.test(text), `${label} leaks ${pattern}: ${text.slice(0, 300)}`);
  if (status >= 400 && contentType.includes('json')) {
    // SCIM's routes answer in SCIM's error format (RFC 7644 section 3.12): the message is `detail`.
    const error = JSON.parse(text);
    const message = contentType.includes('application/scim+json') ? error.detail : error.message;
    assert.ok(typeof message === 'string' && message.length > 0, `${label}: no message in ${text.slice(0, 200)}`);
  }
}

test(`fuzz: ${RUNS} generated requests over every route and persona`, async () => {
  let baseline = await fingerprint();
  const details = await fc.check(
    fc.asyncProperty(request, async (r) => {
      cases += 1;
      const path = r.route.path.replace(/:(\w+)/g, (_, name: string) =>
        // A URL cannot carry a lone surrogate: it goes as U+FFFD, as a browser would send it.
        encodeURIComponent(r.param === 'valid' && !r.route.destructive ? validParam(name) : r.param === 'valid' ? crypto.randomUUID() : r.param.toWellFormed()));
      const search = new URLSearchParams(Object.entries(r.query).map(([k, v]) => [k, v.toWellFormed()])).toString();
      const url = search ? `${path}?${search}` : path;
      const headers: Record<string, string> = {};
      // Logging out would end the persona's session for every later case: it gets no real token.
      const token = r.route.path.endsWith('/logout') ? undefined : tokens[r.persona];
      if (r.header !== undefined) headers.authorization = r.header;
      else if (token) headers.authorization = `Bearer ${token}`;
      let payload: BodyInit | undefined;
      if (r.route.method === 'GET') {
        // fetch refuses a body on GET.
      } else if (r.body.kind === 'json') {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(r.body.value);
      } else if (r.body.kind === 'raw') {
        if (r.body.type) headers['content-type'] = r.body.type;
        payload = r.body.text;
      }
      const answer = await call(r.route.method, url, { raw: payload, headers });
      const label = `${r.persona} ${r.route.method} ${url.slice(0, 120)}`;
      checkAnswer(label, answer.status, answer.text, answer.headers.get('content-type') ?? '');
      const now = await fingerprint();
      if (answer.status >= 400) assert.equal(now, baseline, `${label} -> ${answer.status} changed data`);
      baseline = now;
    }),
    { numRuns: RUNS, seed: Number(Deno.env.get('FUZZ_SEED') ?? Date.now() % 2 ** 31), endOnFailure: true },
  );
  if (details.failed) {
    // The counterexample can hold 20 kB strings: show its start, and the seed to replay it.
    const example = JSON.stringify(details.counterexample)?.slice(0, 1500);
    throw new Error(`fuzz failed (FUZZ_SEED=${details.seed}): ${String(details.errorInstance).slice(0, 1500)}\n${example}`);
  }
});

// ---- Hostile uploads ----

async function crc32(bytes: Uint8Array): Promise<number> {
  let crc = ~0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
async function chunk(type: string, data: Uint8Array): Promise<Uint8Array> {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, await crc32(out.subarray(4, 8 + data.length)));
  return out;
}
async function compress(bytes: Uint8Array, format: 'deflate' | 'gzip'): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream(format))).arrayBuffer());
}
/** A real PNG whose header declares width x height, with `rows` rows of zero pixels compressed. */
async function png(width: number, height: number, rows: number): Promise<Uint8Array> {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const raw = new Uint8Array(rows * (width + 1));
  const parts = [Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), await chunk('IHDR', ihdr),
    await chunk('IDAT', await compress(raw, 'deflate')), await chunk('IEND', new Uint8Array())];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

test('fuzz: hostile uploads are refused with 400, 413 or 415 and store nothing', async () => {
  const bomb = await png(60_000, 60_000, 300); // ~3.6 GB of pixels declared in a few kilobytes
  const wide = await png(20_000, 1, 1);
  const gzipBomb = await compress(new Uint8Array(50 * 1024 * 1024), 'gzip'); // 50 MB of zeros in ~50 KB
  const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>');
  const html = new TextEncoder().encode('<!doctype html><script>alert(document.cookie)</script>');
  const good = await png(2, 2, 2);
  const cases: { name: string; bytes: Uint8Array; filename: string; type: string; expected: number[] }[] = [
    { name: 'decompression-heavy PNG', bytes: bomb, filename: 'bomb.png', type: 'image/png', expected: [413] },
    { name: 'PNG wider than 10,000 pixels', bytes: wide, filename: 'wide.png', type: 'image/png', expected: [413] },
    { name: 'gzip bomb named .png', bytes: gzipBomb, filename: 'bomb.png', type: 'image/png', expected: [415] },
    { name: 'SVG with script claiming PNG', bytes: svg, filename: 'x.png', type: 'image/png', expected: [415] },
    { name: 'HTML claiming JPEG', bytes: html, filename: 'x.jpg', type: 'image/jpeg', expected: [415] },
    { name: 'truncated PNG', bytes: good.subarray(0, good.length - 20), filename: 'x.png', type: 'image/png', expected: [400] },
    { name: 'oversized file', bytes: new Uint8Array(6 * 1024 * 1024), filename: 'big.png', type: 'image/png', expected: [413] },
  ];
  const objectsBefore = await fingerprint();
  for (const upload of [
    { path: `/api/courses/${world.course}/cover`, field: 'coverImage' },
    { path: `/api/modules/${world.module}/images`, field: 'moduleImage' },
  ]) {
    for (const item of cases) {
      const form = new FormData();
      form.append(upload.field, new File([item.bytes as Uint8Array<ArrayBuffer>], item.filename, { type: item.type }));
      const answer = await call('POST', upload.path, { token: instructor.session.access_token, raw: form });
      assert.ok(item.expected.includes(answer.status), `${item.name} on ${upload.path}: ${answer.status} ${answer.text}`);
      checkAnswer(item.name, answer.status, answer.text, answer.headers.get('content-type') ?? '');
    }
    // Multipart cut off in the middle, and a body far over the cap.
    const boundary = 'fuzzboundary';
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="${upload.field}"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`;
    const cut = await call('POST', upload.path, {
      token: instructor.session.access_token, raw: truncated, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.ok([400, 415].includes(cut.status), `truncated multipart: ${cut.status} ${cut.text}`);
    const huge = await call('POST', upload.path, {
      token: instructor.session.access_token, raw: new Uint8Array(8 * 1024 * 1024),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    assert.equal(huge.status, 413, huge.text);
  }
  // A JSON body that says it is gzip is not inflated: it is not JSON.
  const inflated = await call('PUT', '/api/profile', {
    token: learner.session.access_token, raw: gzipBomb as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  assert.ok([400, 413, 415].includes(inflated.status), `gzip JSON: ${inflated.status}`);
  assert.equal(await fingerprint(), objectsBefore, 'a refused upload changed data');
  const stored = await call('POST', `/api/courses/${world.course}/cover`, {
    token: instructor.session.access_token,
    raw: (() => {
      const form = new FormData();
      form.append('coverImage', new File([good as Uint8Array<ArrayBuffer>], 'ok.png', { type: 'image/png' }));
      return form;
    })(),
  });
  assert.equal(stored.status, 200, `a real 2 x 2 PNG is still accepted: ${stored.text}`);
});

test('fuzz: figures and clean-up', async () => {
  console.log(`fuzz: ${cases} generated requests over ${routes.length} routes`);
  assert.equal(cases >= RUNS, true);
  await db.sql`select private.erase_course(id) from public.courses where id = ${world.course} or (created_at >= ${startedAt} and author_id in
    (select id from public.profiles where username = 'admin' or id = ${instructor.user.id}))`;
});

closePoolAfterTests();
