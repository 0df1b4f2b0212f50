// Lists are paged: every list endpoint answers at most 100 rows a request and refuses a
// larger page with 400, and a learner's enrolments page without gaps or repeats.
import assert from 'node:assert/strict';
import { call, closePoolAfterTests, ids, login, register, test } from './helpers.ts';

const course = ids.course;

test('paging: every list endpoint refuses more than 100 rows a page and accepts 100', async () => {
  const admin = await login('admin');
  const instructor = await login('instructor');
  const { session, user } = await register();
  const lists: [string, string][] = [
    ['/api/courses', admin],
    ['/api/users', admin],
    ['/api/audit', admin],
    ['/api/certificates', session.access_token],
    ['/api/instructor/students', instructor],
    ['/api/instructor/analytics', instructor],
    [`/api/users/${user.id}/enrollments`, session.access_token],
  ];
  for (const [path, token] of lists) {
    const tooMany = await call('GET', `${path}?pageSize=101`, { token });
    assert.equal(tooMany.status, 400, `${path}: ${tooMany.text}`);
    assert.ok(tooMany.json.fields?.pageSize, `${path} names the field`);
    const zero = await call('GET', `${path}?pageSize=0`, { token });
    assert.equal(zero.status, 400, `${path}: ${zero.text}`);
    const hundred = await call('GET', `${path}?pageSize=100`, { token });
    assert.equal(hundred.status, 200, `${path}: ${hundred.text}`);
    const items = Array.isArray(hundred.json) ? hundred.json : hundred.json.items;
    assert.ok(Array.isArray(items) && items.length <= 100, path);
  }
});

test("paging: a learner's enrolments come a page at a time, all of them, none twice", async () => {
  const { session, user } = await register();
  const token = session.access_token;
  for (const n of [1, 4, 12]) {
    const enrolled = await call('POST', `/api/courses/${course(n)}/enroll`, { token });
    assert.equal(enrolled.status, 201, enrolled.text);
  }
  const path = `/api/users/${user.id}/enrollments`;
  const all = await call('GET', path, { token });
  assert.equal(all.status, 200, all.text);
  assert.equal(all.json.length, 3);
  const first = await call('GET', `${path}?page=1&pageSize=2`, { token });
  const second = await call('GET', `${path}?page=2&pageSize=2`, { token });
  const third = await call('GET', `${path}?page=3&pageSize=2`, { token });
  assert.equal(first.json.length, 2);
  assert.equal(second.json.length, 1);
  assert.deepEqual(third.json, []);
  const paged = [...first.json, ...second.json].map((e: { id: string }) => e.id);
  assert.deepEqual(paged, all.json.map((e: { id: string }) => e.id));
  assert.equal((await call('GET', `${path}?page=0`, { token })).status, 400);
  assert.equal((await call('GET', `${path}?page=abc`, { token })).status, 400);
});

closePoolAfterTests();
