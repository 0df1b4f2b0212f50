// The CPD record API against the real platform: CRUD of /api/me/cpd-entries with its validation,
// GET /api/me/learning-record (completed courses from certificates, CPD entries, totals) as JSON, PDF
// and CSV, and the admins' read-only /api/admin/users/:id/learning-record(.pdf|.csv).
import { assert, assertEquals, call, closePoolAfterTests, db, login, pdfText, register, test } from './helpers.ts';

const AIRWAVE = '10000000-0000-4000-a000-000000000003'; // 2 hours, quiz on module 3
const AIRWAVE_QUIZ = '30000000-0000-4000-a000-000003000003';
const DATA_PROTECTION = '10000000-0000-4000-a000-000000000014'; // 1 hour, no modules

/** ISO yyyy-mm-dd of the London calendar day (today by default), as every CSV writes dates. */
const londonDay = (d: Date = new Date()) => {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'Europe/London' })
    .formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}`;
};
const londonToday = () => londonDay();
const ukLong = (d: Date) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(d);

const entry = (overrides: Record<string, unknown> = {}) => ({
  activityDate: '2026-03-14',
  activity: 'Major trauma study day',
  hours: 6.5,
  learnt: 'Catastrophic haemorrhage: tourniquet first, then pack and press.',
  reflection: 'I will brief my crew mate on the new kit.',
  ...overrides,
});

async function raw(path: string, token?: string): Promise<Response> {
  const { app } = await import('./helpers.ts');
  return await app.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
}

/** A learner who completed Airwave (passing its quiz at 2/3) and Data Protection, as the learning functions record it. */
async function learnerWithCompletions() {
  const learner = await register();
  const id = learner.user.id as string;
  await db.sql`insert into public.enrollments (user_id, course_id) values (${id}::uuid, ${AIRWAVE}::uuid), (${id}::uuid, ${DATA_PROTECTION}::uuid)`;
  await db.sql`insert into public.quiz_attempts (user_id, quiz_id, score, max_score, passed, started_at, completed_at)
               values (${id}::uuid, ${AIRWAVE_QUIZ}::uuid, 2, 3, true, now() - interval '1 hour', now() - interval '1 hour')`;
  await db.sql`select private.issue_certificate(${id}::uuid, ${AIRWAVE}::uuid)`;
  // The record lists the newest first. Two statements can start within the same millisecond on
  // PGlite, which would tie their issue times, so the second is issued a little later.
  await new Promise((resolve) => setTimeout(resolve, 10));
  await db.sql`select private.issue_certificate(${id}::uuid, ${DATA_PROTECTION}::uuid)`;
  return { token: learner.session.access_token as string, id, name: learner.input.name, username: learner.input.username };
}

test('CPD entries: a learner adds, lists, reads, changes and deletes their own; others get 404; visitors 401', async () => {
  const learner = await register();
  const token = learner.session.access_token;
  const created = await call('POST', '/api/me/cpd-entries', { token, body: entry({ activity: '  Major trauma study day  ', reflection: undefined }) });
  assertEquals(created.status, 201);
  const id = created.json.id;
  assertEquals({ ...created.json, id: 'x', createdAt: 'x', updatedAt: 'x' }, {
    id: 'x', activityDate: '2026-03-14', activity: 'Major trauma study day', hours: 6.5,
    learnt: entry().learnt, reflection: '', createdAt: 'x', updatedAt: 'x',
  });
  await call('POST', '/api/me/cpd-entries', { token, body: entry({ activityDate: '2026-01-02', activity: 'Older activity', hours: 0.25 }) });

  const list = await call('GET', '/api/me/cpd-entries', { token });
  assertEquals(list.status, 200);
  assertEquals([list.json.total, list.json.page, list.json.pageSize], [2, 1, 20]);
  assertEquals(list.json.items.map((e: { activity: string }) => e.activity), ['Major trauma study day', 'Older activity']);
  const paged = await call('GET', '/api/me/cpd-entries?page=2&pageSize=1', { token });
  assertEquals([paged.json.items.length, paged.json.total], [1, 2]);
  const past = await call('GET', '/api/me/cpd-entries?page=9&pageSize=1', { token });
  assertEquals([past.json.items.length, past.json.total], [0, 2]);
  assertEquals((await call('GET', `/api/me/cpd-entries/${id}`, { token })).json.hours, 6.5);

  const changed = await call('PUT', `/api/me/cpd-entries/${id}`, { token, body: entry({ hours: 7.25, reflection: 'Revised' }) });
  assertEquals(changed.status, 200);
  assertEquals([changed.json.hours, changed.json.reflection], [7.25, 'Revised']);

  const other = (await register()).session.access_token;
  assertEquals((await call('GET', `/api/me/cpd-entries/${id}`, { token: other })).status, 404);
  assertEquals((await call('PUT', `/api/me/cpd-entries/${id}`, { token: other, body: entry() })).status, 404);
  assertEquals((await call('DELETE', `/api/me/cpd-entries/${id}`, { token: other })).status, 404);
  assertEquals((await call('GET', '/api/me/cpd-entries', { token: other })).json.total, 0);
  // Not even an admin changes or deletes a learner's entry through the API (read-only for audits).
  const admin = await login('admin');
  assertEquals((await call('PUT', `/api/me/cpd-entries/${id}`, { token: admin, body: entry() })).status, 404);
  assertEquals((await call('DELETE', `/api/me/cpd-entries/${id}`, { token: admin })).status, 404);

  for (const [method, path] of [['GET', '/api/me/cpd-entries'], ['POST', '/api/me/cpd-entries'], ['DELETE', `/api/me/cpd-entries/${id}`], ['GET', '/api/me/learning-record']]) {
    assertEquals((await call(method, path, { body: method === 'POST' ? entry() : undefined })).status, 401);
  }
  assertEquals((await call('DELETE', '/api/me/cpd-entries/not-a-uuid', { token })).status, 404);
  assertEquals((await call('DELETE', `/api/me/cpd-entries/${id}`, { token })).status, 204);
  assertEquals((await call('DELETE', `/api/me/cpd-entries/${id}`, { token })).status, 404);
});

test('CPD entries: every bad field is a 400 with its message, never a 500', async () => {
  const token = (await register()).session.access_token;
  const tomorrow = new Date(Date.now() + 36 * 3600_000);
  const future = `${tomorrow.getUTCFullYear()}-${String(tomorrow.getUTCMonth() + 1).padStart(2, '0')}-${String(tomorrow.getUTCDate()).padStart(2, '0')}`;
  const cases: [Record<string, unknown>, string, string][] = [
    [entry({ activityDate: future }), 'activityDate', 'The activity date cannot be in the future'],
    [entry({ activityDate: '2026-02-30' }), 'activityDate', 'Enter a real date'],
    [entry({ activityDate: '14/03/2026' }), 'activityDate', 'Enter a real date'],
    [entry({ activityDate: '1949-12-31' }), 'activityDate', 'The activity date cannot be before 1950'],
    [entry({ activityDate: '' }), 'activityDate', 'Enter the date of the activity'],
    [entry({ activity: 'ab' }), 'activity', 'Describe the activity in at least 3 characters'],
    [entry({ activity: 'a'.repeat(201) }), 'activity', 'The activity must be at most 200 characters'],
    [entry({ hours: 0.3 }), 'hours', 'Hours must be in quarter hours (for example 1.25 or 1.5)'],
    [entry({ hours: 0 }), 'hours', 'Hours must be between 0.25 and 1000'],
    [entry({ hours: 1000.25 }), 'hours', 'Hours must be between 0.25 and 1000'],
    [entry({ hours: '2' }), 'hours', 'Enter the hours spent'],
    [entry({ hours: undefined }), 'hours', 'Enter the hours spent'],
    [entry({ learnt: '   ' }), 'learnt', 'Describe what you learnt'],
    [entry({ learnt: 'x'.repeat(5001) }), 'learnt', 'What you learnt must be at most 5000 characters'],
    [entry({ reflection: 'x'.repeat(5001) }), 'reflection', 'The reflection must be at most 5000 characters'],
    [entry({ activity: 'Bad \u0000 byte' }), 'activity', 'Contains characters that are not allowed'],
  ];
  for (const [body, field, message] of cases) {
    const answer = await call('POST', '/api/me/cpd-entries', { token, body });
    assertEquals([answer.status, answer.json?.message, answer.json?.fields?.[field]], [400, 'Validation failed', message]);
  }
  // Today (in London) is allowed.
  assertEquals((await call('POST', '/api/me/cpd-entries', { token, body: entry({ activityDate: londonToday() }) })).status, 201);
  assertEquals((await call('POST', '/api/me/cpd-entries', { token, raw: '{"activity":', headers: { 'content-type': 'application/json' } })).status, 400);
  assertEquals((await call('POST', '/api/me/cpd-entries', { token, raw: 'x'.repeat(1024 * 1024 + 1), headers: { 'content-type': 'application/json' } })).status, 413);
  assertEquals((await call('POST', '/api/me/cpd-entries', { token, body: [] })).status, 400);
  const badPage = await call('GET', '/api/me/cpd-entries?page=0&pageSize=101', { token });
  assertEquals([badPage.status, badPage.json.fields.page, badPage.json.fields.pageSize],
    [400, 'Page must be a whole number of at least 1', 'Page size must be between 1 and 100']);
});

test('learning record: completed courses with hours, service, score, code and state; CPD entries; totals', async () => {
  const learner = await learnerWithCompletions();
  await call('POST', '/api/me/cpd-entries', { token: learner.token, body: entry() });
  await call('POST', '/api/me/cpd-entries', { token: learner.token, body: entry({ activityDate: '2026-02-01', activity: 'Reading', hours: 1.25 }) });
  const answer = await call('GET', '/api/me/learning-record', { token: learner.token });
  assertEquals(answer.status, 200);
  const record = answer.json;
  assertEquals(record.learner, { id: learner.id, name: learner.name, username: learner.username });
  assertEquals(record.completedCourses.map((c: Record<string, unknown>) => [c.courseTitle, c.serviceLabel, c.hours, c.score, c.state, c.cycle]), [
    ['Data Protection and UK GDPR Essentials', 'Miscellaneous Service', 1, null, 'valid', 1],
    ['Airwave Radio Voice Procedure', 'United Kingdom Police Service', 2, 67, 'valid', 1],
  ]);
  assert(record.completedCourses.every((c: { verificationCode: string }) => /^[A-Z0-9]{8,32}$/.test(c.verificationCode)));
  assertEquals(record.cpdEntries.map((e: { activity: string }) => e.activity), ['Major trauma study day', 'Reading']);
  assertEquals(record.totals, { courseHours: 3, cpdHours: 7.75, totalHours: 10.75, completedCourses: 2, cpdEntries: 2 });

  // A revoked certificate stays in the record as revoked and counts no hours; an expired one still counts.
  await db.sql`update public.certificates set revoked_at = now(), revoked_reason = 'Test' where user_id = ${learner.id}::uuid and course_id = ${AIRWAVE}::uuid`;
  await db.sql`update public.certificates set issued_at = now() - interval '2 years', expires_at = now() - interval '1 year'
               where user_id = ${learner.id}::uuid and course_id = ${DATA_PROTECTION}::uuid`;
  const after = (await call('GET', '/api/me/learning-record', { token: learner.token })).json;
  assertEquals(after.completedCourses.map((c: { state: string }) => c.state), ['revoked', 'expired']);
  assertEquals([after.totals.courseHours, after.totals.totalHours], [1, 8.75]);
});

test('learning record: only the learner and admins; instructors and other learners are refused', async () => {
  const learner = await learnerWithCompletions();
  const own = (await call('POST', '/api/me/cpd-entries', { token: learner.token, body: entry() })).json.id;
  const admin = await login('admin');
  const seen = await call('GET', `/api/admin/users/${learner.id}/learning-record`, { token: admin });
  assertEquals(seen.status, 200);
  assertEquals([seen.json.learner.id, seen.json.completedCourses.length, seen.json.cpdEntries.length], [learner.id, 2, 1]);
  const instructor = await login('instructor'); // the author of Airwave, on which the learner is enrolled
  for (const suffix of ['', '.pdf', '.csv']) {
    const path = `/api/admin/users/${learner.id}/learning-record${suffix}`;
    assertEquals((await call('GET', path, { token: instructor })).status, 403);
    assertEquals((await call('GET', path, { token: (await register()).session.access_token })).status, 403);
    assertEquals((await call('GET', path)).status, 401);
  }
  assertEquals((await call('GET', '/api/admin/users/00000000-0000-4000-a000-00000000dead/learning-record', { token: admin })).status, 404);
  assertEquals((await call('GET', '/api/admin/users/nope/learning-record.pdf', { token: admin })).status, 404);
  // The admin's own record holds only their own entries.
  const adminOwn = await call('GET', '/api/me/learning-record', { token: admin });
  assert(!adminOwn.json.cpdEntries.some((e: { id: string }) => e.id === own));
  assertEquals(adminOwn.json.learner.username, 'admin');
});

test('learning record PDF: A4 attachment with name, date, both tables, totals; long records break onto pages', async () => {
  const learner = await learnerWithCompletions();
  const longText = 'Airway management with supraglottic devices and capnography in the back of the ambulance. '.repeat(50);
  await call('POST', '/api/me/cpd-entries', { token: learner.token, body: entry({ activity: 'Café reflection: trauma', reflection: 'Pack, press, & review.' }) });
  for (let i = 0; i < 12; i += 1) {
    const answer = await call('POST', '/api/me/cpd-entries', { token: learner.token, body: entry({ activityDate: `2025-0${(i % 9) + 1}-1${i % 10}`, activity: `Airway workshop ${i + 1}`, hours: 2, learnt: longText }) });
    assertEquals(answer.status, 201);
  }
  // The day it was made, in London: the day before the request or after it (they differ only at midnight).
  const madeFrom = new Date();
  const response = await raw('/api/me/learning-record.pdf', learner.token);
  const madeBy = new Date();
  assertEquals(response.status, 200);
  assertEquals(response.headers.get('content-type'), 'application/pdf');
  const day = [londonDay(madeFrom), londonDay(madeBy)].find((d) => response.headers.get('content-disposition')?.includes(`-${d}.pdf`));
  assertEquals(response.headers.get('content-disposition'),
    `attachment; filename="learning-record-${learner.username}-${day}.pdf"; filename*=UTF-8''learning-record-${learner.username}-${day}.pdf`);
  const generatedOn = ukLong(new Date(`${day}T12:00:00Z`));
  const bytes = new Uint8Array(await response.arrayBuffer());
  assertEquals(new TextDecoder().decode(bytes.slice(0, 5)), '%PDF-');
  const latin = new TextDecoder('latin1').decode(bytes);
  assert(latin.includes('/MediaBox [ 0 0 595.28 841.89 ]'), 'A4 portrait');
  assert(latin.includes(`/TotalHours (${3 + 6.5 + 24})`));
  const text = await pdfText(bytes);
  const pages = Number(/Page 1 of (\d+)/.exec(text)?.[1]);
  assert(pages >= 3, `a long record runs over several pages (got ${pages}):\n${text.slice(0, 400)}`);
  for (let p = 1; p <= pages; p += 1) assert(text.includes(`Page ${p} of ${pages}`));
  for (const expected of [
    'Learning record', learner.name, `Generated on ${generatedOn}`, 'Total hours: 33.5',
    'Completed courses: 2 (3 hours)', 'CPD activities: 13 (30.5 hours)', 'Completed courses', 'CPD activities',
    'Airwave Radio Voice Procedure', 'United Kingdom Police Service', '67%', 'Does not expire',
    'Data Protection and UK', 'Café reflection: trauma', '14 March 2026', 'What I learnt:', 'Reflection:',
    'Pack, press, & review.', 'Airway workshop 12', `Learning record: ${learner.name} (continued)`,
  ]) {
    assert(text.includes(expected), `the PDF shows "${expected}"`);
  }
  // The code of each certificate.
  const codes = await db.sql<{ verificationCode: string }[]>`select verification_code from public.certificates where user_id = ${learner.id}::uuid`;
  for (const { verificationCode } of codes) assert(text.includes(verificationCode));
  // Wrapped lines stay within the page: no drawn line is longer than the text width allows.
  assert(text.split('\n').every((line) => line.length < 130), 'long text is wrapped');

  const admin = await login('admin');
  const adminPdf = await raw(`/api/admin/users/${learner.id}/learning-record.pdf`, admin);
  assertEquals(adminPdf.status, 200);
  assert((await pdfText(new Uint8Array(await adminPdf.arrayBuffer()))).includes(learner.name));
});

test('learning record CSV: UTF-8 with BOM, header row, ISO dates, formulas neutralised, quoting', async () => {
  const learner = await learnerWithCompletions();
  await call('POST', '/api/me/cpd-entries', { token: learner.token, body: entry({ activity: '=HYPERLINK("http://evil.example","Click")', learnt: 'Line one\nLine "two", with comma', reflection: '+44 1234 567890' }) });
  const madeFrom = londonDay();
  const response = await raw('/api/me/learning-record.csv', learner.token);
  const madeBy = londonDay();
  assertEquals(response.status, 200);
  assertEquals(response.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert([madeFrom, madeBy].some((d) => response.headers.get('content-disposition')!.startsWith(`attachment; filename="learning-record-${learner.username}-${d}.csv"`)));
  const bytes = new Uint8Array(await response.arrayBuffer());
  assertEquals([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
  const text = new TextDecoder().decode(bytes); // drops the BOM
  const lines = text.split('\r\n');
  assertEquals(lines[0], 'Type,Date,Course or activity,Service,Hours,Score (%),Certificate code,Certificate status,Valid until,What I learnt,Reflection');
  const [issued] = await db.sql<{ issuedAt: Date }[]>`select issued_at from public.certificates where user_id = ${learner.id}::uuid and course_id = ${AIRWAVE}::uuid`;
  const [code] = await db.sql<{ verificationCode: string }[]>`select verification_code from public.certificates where user_id = ${learner.id}::uuid and course_id = ${AIRWAVE}::uuid`;
  assert(lines.includes(`Course,${londonDay(issued.issuedAt)},Airwave Radio Voice Procedure,United Kingdom Police Service,2,67,${code.verificationCode},Valid,Does not expire,,`), text);
  assert(text.includes(`CPD activity,2026-03-14,"'=HYPERLINK(""http://evil.example"",""Click"")",,6.5,,,,,"Line one\nLine ""two"", with comma",'+44 1234 567890\r\n`), text);
  assertEquals(text.endsWith('\r\n'), true);

  const admin = await login('admin');
  const adminCsv = await raw(`/api/admin/users/${learner.id}/learning-record.csv`, admin);
  assertEquals(adminCsv.status, 200);
  assert((await adminCsv.text()).includes('Airwave Radio Voice Procedure'));
});

test('learning record PDF and CSV in the reader\'s language: Welsh for a Welsh speaker (ŵ and ŷ drawn), dates in the CSV still ISO', async () => {
  const learner = await learnerWithCompletions();
  const language = await call('PUT', '/api/profile/language', { token: learner.token, body: { language: 'cy' } });
  assertEquals(language.status, 200);
  await call('POST', '/api/me/cpd-entries', { token: learner.token, body: entry({ activity: 'Diwrnod hyfforddi: achub o ddŵr a thŷ ar dân', learnt: 'Gwŷr a gwragedd y criw.' }) });
  const response = await raw('/api/me/learning-record.pdf', learner.token);
  assertEquals(response.status, 200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const latin = new TextDecoder('latin1').decode(bytes);
  assert(latin.includes('/Language (cy)') && latin.includes('/FontFile2'), 'a Welsh record in the embedded fonts');
  const text = await pdfText(bytes);
  for (const expected of [
    'Cofnod dysgu', learner.name, 'Crëwyd ar ', 'Cyfanswm yr oriau: 9.5', 'Cyrsiau wedi\'u cwblhau: 2 (3 awr)', 'Gweithgareddau DPP: 1 (6.5 awr)',
    'Cwblhawyd', 'Cwrs', 'Oriau', 'Sgôr', 'Tystysgrif', 'Dyddiad', 'Gweithgaredd', 'Gwasanaeth Heddlu\'r Deyrnas Unedig',
    'Nid yw\'n dod i ben', '14 Mawrth 2026', 'Diwrnod hyfforddi: achub o ddŵr a thŷ ar dân', 'Beth a ddysgais:', 'Myfyrio:',
    'Gwŷr a gwragedd y criw.', 'Tudalen 1 o 1',
  ]) {
    assert(text.includes(expected), `the Welsh PDF shows "${expected}":\n${text}`);
  }
  for (const english of ['Learning record', 'Generated on', 'Total hours', 'Does not expire', 'What I learnt', 'Page 1 of']) {
    assert(!text.includes(english), `no English "${english}" left in the Welsh PDF`);
  }

  const csv = new TextDecoder().decode(new Uint8Array(await (await raw('/api/me/learning-record.csv', learner.token)).arrayBuffer()));
  const lines = csv.split('\r\n');
  assertEquals(lines[0], 'Math,Dyddiad,Cwrs neu weithgaredd,Gwasanaeth,Oriau,Sgôr (%),Cod y dystysgrif,Statws y dystysgrif,Yn ddilys tan,Beth a ddysgais,Myfyrio');
  const [issued] = await db.sql<{ issuedAt: Date; verificationCode: string }[]>`
    select issued_at, verification_code from public.certificates where user_id = ${learner.id}::uuid and course_id = ${AIRWAVE}::uuid`;
  // The course's Welsh title, as the certificate kept it at issue.
  assert(lines.includes(`Cwrs,${londonDay(issued.issuedAt)},Trefn Llais Radio Airwave,Gwasanaeth Heddlu'r Deyrnas Unedig,2,67,${issued.verificationCode},Yn ddilys,Nid yw'n dod i ben,,`), csv);
  assert(csv.includes('Gweithgaredd DPP,2026-03-14,Diwrnod hyfforddi: achub o ddŵr a thŷ ar dân,'), csv);

  // An administrator who reads English gets the same learner's record in English.
  const admin = await login('admin');
  const adminText = await pdfText(new Uint8Array(await (await raw(`/api/admin/users/${learner.id}/learning-record.pdf`, admin)).arrayBuffer()));
  assert(adminText.includes('Learning record') && adminText.includes('Diwrnod hyfforddi: achub o ddŵr a thŷ ar dân'), adminText);
  assert(!adminText.includes('Cofnod dysgu'), adminText);
});

test('learning record: a certificate\'s Welsh course title in the JSON, and in the Welsh reader\'s PDF and CSV (the English title for an English reader)', async () => {
  const learner = await learnerWithCompletions();
  await db.sql`update public.certificates set course_title_cy = 'Gweithdrefn Llais Radio Airwave'
               where user_id = ${learner.id}::uuid and course_id = ${AIRWAVE}::uuid`;
  const json = await call('GET', '/api/me/learning-record', { token: learner.token });
  const airwave = json.json.completedCourses.find((c: { courseId: string }) => c.courseId === AIRWAVE);
  assertEquals([airwave.courseTitle, airwave.courseTitleCy], ['Airwave Radio Voice Procedure', 'Gweithdrefn Llais Radio Airwave']);
  assert(json.json.completedCourses.every((c: { courseTitleCy?: unknown }) => c.courseTitleCy !== undefined), json.text);

  assertEquals((await call('PUT', '/api/profile/language', { token: learner.token, body: { language: 'cy' } })).status, 200);
  const csv = new TextDecoder().decode(new Uint8Array(await (await raw('/api/me/learning-record.csv', learner.token)).arrayBuffer()));
  assert(csv.includes(',Gweithdrefn Llais Radio Airwave,') && !csv.includes('Airwave Radio Voice Procedure'), csv);
  const text = await pdfText(new Uint8Array(await (await raw('/api/me/learning-record.pdf', learner.token)).arrayBuffer()));
  assert(text.includes('Gweithdrefn Llais Radio Airwave') && !text.includes('Airwave Radio Voice Procedure'), text);

  const admin = await login('admin');
  const adminCsv = new TextDecoder().decode(new Uint8Array(await (await raw(`/api/admin/users/${learner.id}/learning-record.csv`, admin)).arrayBuffer()));
  assert(adminCsv.includes(',Airwave Radio Voice Procedure,') && !adminCsv.includes('Gweithdrefn'), adminCsv);
});

closePoolAfterTests();
