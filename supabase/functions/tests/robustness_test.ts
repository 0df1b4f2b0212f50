// Robustness: every route of every router, walked with bad input as a visitor, a learner and an
// admin. Bad input must get a clear 4xx (never a 500), no answer may show a stack trace or SQL text,
// JSON error bodies carry a string message, and a refused request changes no data.
import assert from 'node:assert/strict';
import { type Answer, app, call, chooseNewPassword, closePoolAfterTests, db, LEAK_PATTERNS, register, test } from './helpers.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type FieldType = 'string' | 'number' | 'nullableNumber' | 'boolean' | 'array' | 'enum' | 'uuid' | 'record';
type Kind = 'none' | 'json' | 'image';

interface Route {
  method: Method;
  /** Path template with :params, as in the route files. */
  path: string;
  /** What the route reads: nothing, a JSON body, or a multipart image (field name). */
  body: Kind;
  /** Fields of the JSON body and their types: each is sent alone with values of the wrong type. */
  fields?: Record<string, FieldType>;
  /** The body has required fields, so `{}` must be refused. */
  required?: boolean;
  /** Query parameters the route reads. */
  query?: string[];
  /** Multipart field of an image upload. */
  imageField?: string;
  /** Calls with the valid ids would change data even with bad input (a DELETE, a logout): ids are only ever bad. */
  destructive?: boolean;
  /** A list filtered by the id under RLS: a well-formed unknown id is an empty list (200 []), by design
   * (learner_test: another learner sees none of a student's enrolments, not a 404 that would tell). */
  emptyForUnknown?: boolean;
}

// Every route of supabase/functions/api/routes/ (method + path), with what each reads.
const ROUTES: Route[] = [
  // auth.ts
  { method: 'POST', path: '/api/register', body: 'json', required: true, fields: { username: 'string', email: 'string', name: 'string', password: 'string', confirmPassword: 'string' } },
  { method: 'POST', path: '/api/login', body: 'json', required: true, fields: { username: 'string', password: 'string' } },
  { method: 'POST', path: '/api/logout', body: 'none', destructive: true },
  { method: 'GET', path: '/api/user', body: 'none' },
  // courses.ts
  { method: 'GET', path: '/api/courses', body: 'none', query: ['service', 'search', 'page', 'pageSize', 'status', 'mine'] },
  { method: 'GET', path: '/api/courses/:courseId', body: 'none' },
  { method: 'GET', path: '/api/courses/:courseId/modules', body: 'none' },
  { method: 'GET', path: '/api/modules/:moduleId', body: 'none' },
  { method: 'POST', path: '/api/modules/:moduleId/complete', body: 'json', fields: {} },
  { method: 'POST', path: '/api/courses/:courseId/enroll', body: 'json', fields: { userId: 'uuid', courseId: 'uuid' } },
  { method: 'PUT', path: '/api/enrollments/:enrollmentId', body: 'json', fields: { id: 'uuid', progress: 'number', completed: 'boolean' } },
  { method: 'GET', path: '/api/modules/:moduleId/quiz', body: 'none' },
  { method: 'POST', path: '/api/quizzes/:quizId/attempts', body: 'json', required: true, fields: { answers: 'record' } },
  { method: 'POST', path: '/api/courses/:courseId/recertify', body: 'json', fields: {} },
  // learner.ts
  { method: 'GET', path: '/api/users/:userId/enrollments', body: 'none', emptyForUnknown: true },
  { method: 'DELETE', path: '/api/enrollments/:enrollmentId', body: 'none', destructive: true },
  { method: 'GET', path: '/api/certificates', body: 'none', query: ['scope', 'page', 'pageSize'] },
  { method: 'GET', path: '/api/certificates/:certificateId/pdf', body: 'none' },
  { method: 'GET', path: '/api/certificates/verify/:code', body: 'none' },
  { method: 'PUT', path: '/api/profile', body: 'json', required: true, fields: { name: 'string', email: 'string' } },
  { method: 'PUT', path: '/api/profile/language', body: 'json', required: true, fields: { language: 'enum' } },
  { method: 'PUT', path: '/api/profile/password', body: 'json', required: true, fields: { currentPassword: 'string', newPassword: 'string', confirmPassword: 'string' } },
  // authoring.ts
  { method: 'POST', path: '/api/courses', body: 'json', required: true, fields: { title: 'string', description: 'string', service: 'enum', level: 'enum', duration: 'number', status: 'enum', featured: 'boolean', requiresEnrollment: 'boolean', certificateValidMonths: 'nullableNumber' } },
  { method: 'PUT', path: '/api/courses/:courseId', body: 'json', required: true, fields: { title: 'string', description: 'string', service: 'enum', level: 'enum', duration: 'number', status: 'enum', featured: 'boolean', requiresEnrollment: 'boolean', certificateValidMonths: 'nullableNumber' } },
  { method: 'DELETE', path: '/api/courses/:courseId', body: 'none', destructive: true },
  { method: 'POST', path: '/api/courses/:courseId/cover', body: 'image', imageField: 'coverImage' },
  { method: 'POST', path: '/api/courses/:courseId/modules', body: 'json', required: true, fields: { title: 'string', content: 'string', orderIndex: 'number', duration: 'number' } },
  { method: 'PUT', path: '/api/courses/:courseId/modules/reorder', body: 'json', required: true, fields: { moduleIds: 'array' } },
  { method: 'PUT', path: '/api/modules/:moduleId', body: 'json', required: true, fields: { title: 'string', content: 'string', orderIndex: 'number', duration: 'number' } },
  { method: 'DELETE', path: '/api/modules/:moduleId', body: 'none', destructive: true },
  { method: 'POST', path: '/api/modules/:moduleId/images', body: 'image', imageField: 'moduleImage' },
  { method: 'GET', path: '/api/modules/:moduleId/quiz/authoring', body: 'none' },
  { method: 'PUT', path: '/api/modules/:moduleId/quiz', body: 'json', required: true, fields: { title: 'string', description: 'string', passingScore: 'number', timeLimit: 'number', randomizeQuestions: 'boolean' } },
  { method: 'DELETE', path: '/api/modules/:moduleId/quiz', body: 'none', destructive: true },
  { method: 'POST', path: '/api/quizzes/:quizId/questions', body: 'json', required: true, fields: { questionText: 'string', questionType: 'enum', options: 'array', points: 'number' } },
  { method: 'PUT', path: '/api/quizzes/:quizId/questions/reorder', body: 'json', required: true, fields: { questionIds: 'array' } },
  { method: 'PUT', path: '/api/questions/:questionId', body: 'json', required: true, fields: { questionText: 'string', questionType: 'enum', options: 'array', points: 'number' } },
  { method: 'DELETE', path: '/api/questions/:questionId', body: 'none', destructive: true },
  // instructor.ts
  { method: 'GET', path: '/api/instructor/stats', body: 'none' },
  { method: 'GET', path: '/api/instructor/students', body: 'none', query: ['page', 'pageSize', 'courseId', 'status'] },
  { method: 'GET', path: '/api/instructor/analytics', body: 'none', query: ['page', 'pageSize'] },
  { method: 'POST', path: '/api/enrollments/:enrollmentId/approve', body: 'none', destructive: true },
  { method: 'POST', path: '/api/enrollments/:enrollmentId/decline', body: 'none', destructive: true },
  // admin.ts
  { method: 'GET', path: '/api/users', body: 'none', query: ['page', 'pageSize', 'search', 'role', 'service'] },
  { method: 'POST', path: '/api/users', body: 'json', required: true, fields: { username: 'string', email: 'string', name: 'string', role: 'enum', services: 'array' } },
  { method: 'PUT', path: '/api/users/:userId', body: 'json', required: true, fields: { name: 'string', email: 'string', role: 'enum', services: 'array' } },
  { method: 'DELETE', path: '/api/users/:userId', body: 'none', destructive: true },
  { method: 'GET', path: '/api/roles', body: 'none' },
  { method: 'PUT', path: '/api/roles/:role/services', body: 'json', required: true, fields: { services: 'array' } },
  { method: 'GET', path: '/api/settings', body: 'none' },
  { method: 'PUT', path: '/api/settings', body: 'json', required: true, fields: { siteName: 'string', adminEmail: 'string', courseAccess: 'enum', certificateTemplate: 'enum', footerText: 'string', enableAnalytics: 'boolean', autoEnrollment: 'boolean', contactEmail: 'string' } },
  { method: 'GET', path: '/api/audit', body: 'none', query: ['page', 'pageSize'] },
  // admin-import.ts
  { method: 'POST', path: '/api/admin/users/import/preview', body: 'json', required: true, fields: { csv: 'string' } },
  { method: 'POST', path: '/api/admin/users/import', body: 'json', required: true, fields: { importId: 'uuid', part: 'number', rows: 'array' } },
  { method: 'GET', path: '/api/admin/users/export.csv', body: 'none', query: ['search', 'role', 'service'] },
  // admin-certificates.ts
  { method: 'GET', path: '/api/admin/certificates', body: 'none', query: ['search', 'page', 'pageSize'] },
  { method: 'POST', path: '/api/admin/certificates/:certificateId/revoke', body: 'json', required: true, fields: { reason: 'string' } },
  // learning-record.ts
  { method: 'GET', path: '/api/me/learning-record', body: 'none' },
  { method: 'GET', path: '/api/me/learning-record.pdf', body: 'none' },
  { method: 'GET', path: '/api/me/learning-record.csv', body: 'none' },
  { method: 'GET', path: '/api/admin/users/:userId/learning-record', body: 'none' },
  { method: 'GET', path: '/api/admin/users/:userId/learning-record.pdf', body: 'none' },
  { method: 'GET', path: '/api/admin/users/:userId/learning-record.csv', body: 'none' },
  { method: 'GET', path: '/api/me/cpd-entries', body: 'none', query: ['page', 'pageSize'] },
  { method: 'GET', path: '/api/me/cpd-entries/:cpdEntryId', body: 'none' },
  { method: 'POST', path: '/api/me/cpd-entries', body: 'json', required: true, fields: { activityDate: 'string', activity: 'string', hours: 'number', learnt: 'string', reflection: 'string' } },
  { method: 'PUT', path: '/api/me/cpd-entries/:cpdEntryId', body: 'json', required: true, fields: { activityDate: 'string', activity: 'string', hours: 'number', learnt: 'string', reflection: 'string' } },
  { method: 'DELETE', path: '/api/me/cpd-entries/:cpdEntryId', body: 'none', destructive: true },
  // notifications/mine.ts, notification-preferences.ts
  { method: 'GET', path: '/api/notifications', body: 'none', query: ['page', 'pageSize', 'unread'] },
  { method: 'PUT', path: '/api/notifications/:notificationId/read', body: 'none' },
  { method: 'POST', path: '/api/notifications/read-all', body: 'none' },
  { method: 'GET', path: '/api/me/notification-preferences', body: 'none' },
  { method: 'PUT', path: '/api/me/notification-preferences', body: 'json', fields: { language: 'enum', email: 'record' } },
];

/** Example valid ids, filled in by the set-up (a course, module, quiz and question the test admin owns). */
const VALID: Record<string, string> = {
  courseId: '',
  moduleId: '',
  quizId: '',
  questionId: '',
  enrollmentId: '',
  userId: '',
  certificateId: '00000000-0000-4000-a000-0000000000c1',
  cpdEntryId: '00000000-0000-4000-a000-0000000000e1',
  notificationId: '00000000-0000-4000-a000-0000000000f9',
  role: 'STUDENT',
  code: 'ABCDEFGH12345678',
};

const UNKNOWN_UUID = '6f1c2a4e-9b1d-4c3e-8f00-123456789abc';
const MALFORMED_IDS = [
  'abc',
  '1',
  '0',
  '-1',
  '00000000-0000-0000-0000-00000000000g',
  '00000000-0000-0000-0000-0000000000000',
  'x'.repeat(5000),
  '%00',
  '%',
  '%2e%2e',
  encodeURIComponent('ü✓😀'),
  encodeURIComponent("1' or '1'='1"),
  'null',
  'NaN',
  '1e309',
];

const BIG = 'x'.repeat(100 * 1024);


let cases = 0;
const failures: string[] = [];

/** Fails the test with what went wrong (first 80), then starts the next test with a clean list. */
function report() {
  const found = failures.splice(0);
  if (found.length > 0) {
    console.error(found.slice(0, 80).join('\n'));
    assert.fail(`${found.length} bad answers`);
  }
}

/** Sends one case and checks it: < 500, no leak, a string message on a JSON error; `refused` also wants >= 400. */
async function check(label: string, method: string, path: string, options: Parameters<typeof call>[2] = {}, refused = true): Promise<Answer | null> {
  cases += 1;
  let answer: Answer;
  try {
    answer = await call(method, path, options);
  } catch (error) {
    failures.push(`${label}: ${method} ${path.slice(0, 120)} threw ${String(error).slice(0, 200)}`);
    return null;
  }
  const where = `${label}: ${method} ${path.slice(0, 120)} -> ${answer.status} ${answer.text.slice(0, 200)}`;
  if (answer.status >= 500) failures.push(`5xx ${where}`);
  else if (refused && answer.status < 400) failures.push(`accepted ${where}`);
  for (const pattern of LEAK_PATTERNS) {
    if (pattern.test(answer.text)) {
      failures.push(`leak ${pattern} ${where}`);
      break;
    }
  }
  if (answer.status >= 400 && (answer.headers.get('content-type') ?? '').includes('json')) {
    if (typeof answer.json?.message !== 'string' || answer.json.message === '') failures.push(`no message ${where}`);
  }
  return answer;
}

function fill(path: string, overrides: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => overrides[name] ?? VALID[name]);
}

const paramsOf = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);

/** Values of the wrong type (or out of range) for a field of `type`, as raw JSON text. */
function wrongValues(type: FieldType): string[] {
  const common = ['null', '{}', JSON.stringify(BIG), '"\\u0000"', '"\\ud800"'];
  switch (type) {
    case 'string':
      return [...common, '123', 'true', '[]', '""', '["a","b"]'];
    case 'number':
      return [...common, '"NaN"', '"Infinity"', '"12"', '1e309', '-1e309', '-1', String(2 ** 53), '1e100', 'true', '[1]'];
    case 'nullableNumber': // null is a value (e.g. a certificate that never expires)
      return wrongValues('number').filter((v) => v !== 'null');
    case 'boolean':
      return [...common, '"true"', '1', '"yes"', '[]'];
    case 'array':
      return [...common, '"UKPS"', '[1,2]', '[null]', JSON.stringify(Array.from({ length: 5000 }, () => 'NOPE')), '[{"text":1}]', 'true'];
    case 'enum':
      return [...common, '"NOPE"', '1', '"\'; drop table public.courses; --"', '["UKPS"]'];
    case 'uuid':
      return [...common, '"abc"', '1', '"00000000-0000-0000-0000-00000000000g"', '[]'];
    case 'record':
      // (an empty record is a real, if unanswered, submission)
      return [...common.filter((v) => v !== '{}'), '[]', '"x"', '1', '{"abc":1}', '{"6f1c2a4e-9b1d-4c3e-8f00-123456789abc":-1}', '{"6f1c2a4e-9b1d-4c3e-8f00-123456789abc":1e309}', '{"6f1c2a4e-9b1d-4c3e-8f00-123456789abc":"NaN"}'];
  }
}

/** Bodies a JSON route must refuse whatever its fields: [label, raw text, content type]. */
function genericBodies(route: Route): [string, BodyInit | undefined, string | undefined][] {
  const bodies: [string, BodyInit | undefined, string | undefined][] = [
    ['malformed JSON', '{"a": ', 'application/json'],
    ['trailing garbage', '{} x', 'application/json'],
    ['invalid utf-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'application/json'],
    ['array', '[]', 'application/json'],
    ['array of objects', '[{"title":"x"}]', 'application/json'],
    ['string', '"hello"', 'application/json'],
    ['null', 'null', 'application/json'],
    ['number', '42', 'application/json'],
    ['huge number', '1e309', 'application/json'],
    ['boolean', 'true', 'application/json'],
    ['text/plain', '{}', 'text/plain'],
    ['form-urlencoded', 'title=x&content=y', 'application/x-www-form-urlencoded'],
    ['multipart', '--b\r\ncontent-disposition: form-data; name="title"\r\n\r\nx\r\n--b--\r\n', 'multipart/form-data; boundary=b'],
    ['oversized JSON', `{"title":"${'x'.repeat(1024 * 1024 + 10)}"}`, 'application/json'],
    ['deeply nested', `${'['.repeat(5000)}${']'.repeat(5000)}`, 'application/json'],
  ];
  if (route.required) {
    bodies.push(['empty object', '{}', 'application/json']);
    bodies.push(['empty body', '', 'application/json']);
    bodies.push(['no content type', '{}', undefined]);
    bodies.push(['only extra fields', '{"extra":"field","__proto__":{"admin":true},"constructor":1}', 'application/json']);
  }
  return bodies;
}

/** A real 1x1 PNG. */
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (ch) => ch.charCodeAt(0),
);

function form(field: string, bytes: Uint8Array<ArrayBuffer> | string, name = 'image.png', type = 'image/png'): FormData {
  const data = new FormData();
  data.append(field, new File([bytes], name, { type }));
  return data;
}

/** Uploads an image route must refuse: [label, body, content type (undefined: FormData's own)]. */
function badUploads(field: string): [string, BodyInit, string | undefined][] {
  const oversized = new Uint8Array(5 * 1024 * 1024 + 1);
  oversized.set(PNG.slice(0, 16));
  return [
    ['JSON where multipart is expected', JSON.stringify({ [field]: 'x' }), 'application/json'],
    ['text/plain', 'hello', 'text/plain'],
    ['raw png without multipart', PNG, 'image/png'],
    ['multipart without boundary', 'x', 'multipart/form-data'],
    ['broken multipart', '--b\r\nnonsense', 'multipart/form-data; boundary=b'],
    ['empty multipart', '--b--\r\n', 'multipart/form-data; boundary=b'],
    ['empty file', form(field, new Uint8Array(0)), undefined],
    ['wrong field name', form('somethingElse', PNG), undefined],
    ['field as text, not file', (() => { const f = new FormData(); f.append(field, 'not a file'); return f; })(), undefined],
    ['text file renamed .png', form(field, 'this is just text, not an image at all', 'photo.png', 'image/png'), undefined],
    ['truncated PNG', form(field, PNG.slice(0, 30)), undefined],
    ['PNG signature only', form(field, PNG.slice(0, 8)), undefined],
    ['svg with script', form(field, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'x.svg', 'image/svg+xml'), undefined],
    ['oversized PNG', form(field, oversized), undefined],
  ];
}

interface Caller {
  name: string;
  token?: string;
}
const callers: Caller[] = [{ name: 'visitor' }, { name: 'learner' }, { name: 'admin' }];

async function login(username: string, password: string): Promise<string> {
  const answer = await call('POST', '/api/login', { body: { username, password } });
  if (answer.status !== 200) throw new Error(`login ${username} failed: ${answer.status} ${answer.text}`);
  return answer.json.session.access_token;
}

/** What no refused request may change: the test's own records, the settings and the row counts. (The
 * learner's place in the course is left out: the query-string cases are accepted reads of a module,
 * which rightly remember it.) */
async function snapshot(): Promise<Record<string, unknown>> {
  const [row] = await db.sql`
    select
      (select to_jsonb(c) from public.courses c where c.id = ${VALID.courseId}::uuid) as course,
      (select jsonb_agg(to_jsonb(m) order by m.id) from public.course_modules m where m.course_id = ${VALID.courseId}::uuid) as modules,
      (select jsonb_agg(to_jsonb(q) order by q.id) from public.quizzes q where q.module_id = ${VALID.moduleId}::uuid) as quizzes,
      (select jsonb_agg(to_jsonb(q) order by q.id) from public.quiz_questions q where q.quiz_id = ${VALID.quizId}::uuid) as questions,
      (select jsonb_agg(to_jsonb(e) - 'last_accessed_module_id' - 'updated_at' order by e.id) from public.enrollments e where e.course_id = ${VALID.courseId}::uuid) as enrollments,
      (select jsonb_agg(to_jsonb(p) order by p.id) from public.profiles p where p.id in (${VALID.userId}::uuid, ${adminId}::uuid)) as profiles,
      (select jsonb_agg(to_jsonb(s)) from public.settings s) as settings,
      (select count(*) from public.courses) as courses,
      (select count(*) from public.profiles) as users,
      (select count(*) from public.cpd_entries) as cpd_entries,
      (select count(*) from auth.users) as auth_users`;
  return JSON.parse(JSON.stringify(row));
}

let adminId = '';
let before: Record<string, unknown> = {};

test('robustness set-up: a new admin owns a course with a module, quiz and question; a learner is enrolled', async () => {
  const adminToken = await login('admin', 'password123');
  const created = await call('POST', '/api/users', {
    token: adminToken,
    body: { username: `rob_${crypto.randomUUID().slice(0, 8)}`, email: `rob_${crypto.randomUUID().slice(0, 8)}@example.test`, name: 'Robustness Admin', role: 'ADMIN', services: [] },
  });
  assert.equal(created.status, 201, created.text);
  adminId = created.json.user.id;
  callers[2].token = await login(created.json.user.username, created.json.temporaryPassword);
  await chooseNewPassword(callers[2].token, created.json.temporaryPassword);

  const learner = await register();
  callers[1].token = learner.session.access_token;
  VALID.userId = learner.user.id;

  const course = await call('POST', '/api/courses', {
    token: callers[2].token,
    body: { title: 'Robustness course', description: 'A course the robustness test walks with bad input.', service: 'MISC', status: 'ACTIVE' },
  });
  assert.equal(course.status, 201, course.text);
  VALID.courseId = course.json.id;
  const module = await call('POST', `/api/courses/${VALID.courseId}/modules`, {
    token: callers[2].token,
    body: { title: 'Robustness module', content: 'Content of the robustness module, long enough.' },
  });
  assert.equal(module.status, 201, module.text);
  VALID.moduleId = module.json.id;
  const quiz = await call('PUT', `/api/modules/${VALID.moduleId}/quiz`, {
    token: callers[2].token,
    body: { title: 'Robustness quiz', passingScore: 70 },
  });
  assert.ok(quiz.status === 200 || quiz.status === 201, quiz.text);
  VALID.quizId = quiz.json.id;
  const question = await call('POST', `/api/quizzes/${VALID.quizId}/questions`, {
    token: callers[2].token,
    body: { questionText: 'Which number is two?', options: [{ text: 'One' }, { text: 'Two', isCorrect: true }] },
  });
  assert.equal(question.status, 201, question.text);
  VALID.questionId = question.json.id;
  const enrolled = await call('POST', `/api/courses/${VALID.courseId}/enroll`, { token: callers[1].token });
  assert.equal(enrolled.status, 201, enrolled.text);
  VALID.enrollmentId = enrolled.json.id;
  // The learner opens the quiz once, so attempts reach the scoring code.
  assert.equal((await call('GET', `/api/modules/${VALID.moduleId}/quiz`, { token: callers[1].token })).status, 200);
  before = await snapshot();
});

test('robustness: malformed and unknown ids in every path parameter', async () => {
  for (const route of ROUTES) {
    for (const param of paramsOf(route.path)) {
      for (const bad of [...MALFORMED_IDS, UNKNOWN_UUID, UNKNOWN_UUID.toUpperCase()]) {
        for (const caller of callers) {
          const unknown = bad.toLowerCase() === UNKNOWN_UUID;
          const answer = await check(`${caller.name} id ${param}=${bad.slice(0, 20)}`, route.method, fill(route.path, { [param]: bad }), { token: caller.token }, !(unknown && route.emptyForUnknown));
          if (answer && answer.status < 400) assert.deepEqual(answer.json, [], `${route.path} with an unknown id lists nothing`);
        }
      }
    }
  }
  report();
});

test('robustness: JSON bodies of the wrong shape, type and size', async () => {
  for (const route of ROUTES.filter((r) => r.body === 'json' && !r.destructive)) {
    const path = fill(route.path);
    for (const caller of callers) {
      for (const [label, raw, type] of genericBodies(route)) {
        await check(`${caller.name} body ${label}`, route.method, path, { token: caller.token, raw, headers: type ? { 'content-type': type } : {} });
      }
      for (const [field, type] of Object.entries(route.fields ?? {})) {
        for (const value of wrongValues(type)) {
          // Alone, and beside an unknown field: a wrong value is refused either way.
          await check(`${caller.name} ${field}=${value.slice(0, 30)}`, route.method, path, {
            token: caller.token, raw: `{"${field}":${value}}`, headers: { 'content-type': 'application/json' },
          });
          await check(`${caller.name} ${field}=${value.slice(0, 30)} +extra`, route.method, path, {
            token: caller.token, raw: `{"unknownField":"x","${field}":${value}}`, headers: { 'content-type': 'application/json' },
          });
        }
      }
    }
  }
  report();
});

test('robustness: bad query strings (wrong types, repeated and array params, huge values)', async () => {
  const values = ['abc', '-1', '0', '1e309', String(2 ** 53), '1.5', 'NaN', 'Infinity', '%00', '%', BIG, encodeURIComponent('ü✓😀'), "'; select 1; --"];
  for (const route of ROUTES.filter((r) => r.method === 'GET')) {
    const path = fill(route.path);
    for (const caller of callers) {
      // Unknown and repeated parameters never break a route (they may simply be ignored).
      await check(`${caller.name} junk query`, 'GET', `${path}?x[]=1&x[]=2&__proto__=1&constructor=2`, { token: caller.token }, false);
      for (const name of route.query ?? []) {
        for (const value of values) {
          await check(`${caller.name} ${name}=${value.slice(0, 20)}`, 'GET', `${path}?${name}=${value}`, { token: caller.token }, false);
        }
        await check(`${caller.name} repeated ${name}`, 'GET', `${path}?${name}=1&${name}=2&${name}=abc`, { token: caller.token }, false);
        await check(`${caller.name} array ${name}`, 'GET', `${path}?${name}[]=1&${name}[0]=2`, { token: caller.token }, false);
      }
    }
  }
  report();
});

test('robustness: uploads that are not a usable image, too large, empty or not multipart', async () => {
  for (const route of ROUTES.filter((r) => r.body === 'image')) {
    for (const caller of callers) {
      for (const [label, raw, type] of badUploads(route.imageField!)) {
        await check(`${caller.name} upload ${label}`, route.method, fill(route.path), { token: caller.token, raw, headers: type ? { 'content-type': type } : {} });
      }
    }
  }
  report();
});

test('robustness: bad Authorization headers are 401, never a 500', async () => {
  const headers = ['Bearer', 'Bearer ', 'Basic abc', 'Bearer abc', 'Bearer a.b.c', `Bearer ${BIG.slice(0, 9000)}`, 'Bearer eyJhbGciOiJub25lIn0.eyJyb2xlIjoiYXV0aGVudGljYXRlZCJ9.', '\u00e9'];
  for (const value of headers) {
    for (const route of ROUTES.filter((r) => !r.destructive)) {
      cases += 1;
      let response: Response;
      try {
        response = await app.request(fill(route.path), { method: route.method, headers: { authorization: value, 'x-forwarded-for': '10.9.9.9' } });
      } catch (error) {
        // The Headers API itself refuses some values before any request is made.
        assert.ok(error instanceof TypeError, String(error));
        continue;
      }
      const text = await response.text();
      if (response.status !== 401) failures.push(`auth ${value.slice(0, 20)} ${route.method} ${route.path} -> ${response.status} ${text.slice(0, 100)}`);
    }
  }
  report();
});

test('robustness: a refusal raised by a SQL function keeps its own message; learners get 403, never SQL text', async () => {
  const path = `/api/enrollments/${VALID.enrollmentId}/approve`;
  const admin = await check('admin approve active', 'POST', path, { token: callers[2].token });
  assert.equal(admin?.status, 409);
  assert.equal(admin?.json.message, 'This enrolment is not awaiting approval');
  const learner = await check('learner approve own', 'POST', path, { token: callers[1].token });
  assert.equal(learner?.status, 403);
  report();
});

test('robustness: no refused request changed any data; the number of cases', async () => {
  assert.deepEqual(await snapshot(), before);
  // The learner is still signed in: no bad request ended their session.
  assert.equal((await call('GET', '/api/user', { token: callers[1].token })).status, 200);
  console.log(`robustness: ${cases} bad-input cases over ${ROUTES.length} routes, 3 callers`);
  assert.ok(cases > 3000, `only ${cases} cases`);
});

test('robustness clean-up: the test course goes', async () => {
  // The learners' enrolments of the run are records: the API refuses the delete (409), the owner erases it.
  const answer = await call('DELETE', `/api/courses/${VALID.courseId}`, { token: callers[2].token });
  assert.ok([204, 409].includes(answer.status), answer.text);
  if (answer.status === 409) await db.sql`select private.erase_course(${VALID.courseId}::uuid)`;
  assert.equal((await db.sql`select 1 from public.courses where id = ${VALID.courseId}::uuid`).length, 0);
});

closePoolAfterTests();
