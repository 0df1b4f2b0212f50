// Runs the api function's real routes (createApp from supabase/functions/api) against a database
// holding a generated data set, one endpoint at a time, and writes every plan the database executed
// for each to PLAN_OUT (JSON). Started by supabase/tests/query-plans.test.ts with `postgres` mapped to
// ./explaining-postgres.ts, so every statement (and every statement inside our SQL functions) is
// explained by auto_explain as it runs. Tokens are ES256 JWTs from a key made here and published at
// SUPABASE_URL/auth/v1/.well-known/jwks.json by this script, for sessions it inserts into auth.sessions.
import postgresReal from 'postgres-real';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createApp } from '../../functions/api/app.ts';
import { createDb } from '../../functions/api/lib/db.ts';
import { take, type ExplainedStatement } from './explaining-postgres.ts';

const env = (name: string) => {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const supabaseUrl = env('SUPABASE_URL');
const dbUrl = env('SUPABASE_DB_URL');
const out = env('PLAN_OUT');
const realPlanner = Deno.env.get('PLAN_REAL_PLANNER') === '1';
// Unless asked for the planner's own choice: a sequential scan costs more than any index path, so a
// Seq Scan left in a plan means no index can serve that statement at all.
if (!realPlanner) (globalThis as Record<string, unknown>).__explainSettings = { enable_seqscan: 'off' };
// PLAN_GENERIC=1: the plans Postgres keeps for a prepared statement (DB_PREPARED_STATEMENTS=on, as
// on a real Postgres), made without the values: every statement, and every statement with
// parameters inside our PL/pgSQL functions, is planned generically. These are the plans a pooled
// connection may settle on after a few executions, so they too must be served by indexes.
if (Deno.env.get('PLAN_GENERIC') === '1') {
  const settings = ((globalThis as Record<string, unknown>).__explainSettings ?? {}) as Record<string, string>;
  (globalThis as Record<string, unknown>).__explainSettings = { ...settings, plan_cache_mode: 'force_generic_plan' };
}

// ---- Auth's half: a signing key, its JWKS, and sessions.
const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: 'plans', alg: 'ES256', use: 'sig' };
const port = Number(new URL(supabaseUrl).port);
const server = Deno.serve({ hostname: '127.0.0.1', port, onListen: () => {} }, (request) =>
  new URL(request.url).pathname === '/auth/v1/.well-known/jwks.json'
    ? Response.json({ keys: [jwk] })
    : Response.json({ message: 'Not here' }, { status: 404 }));

const setup = postgresReal(dbUrl, { max: 1, onnotice: () => {} });

async function tokenFor(userId: string): Promise<string> {
  const sessionId = crypto.randomUUID();
  await setup`insert into auth.sessions (id, user_id, created_at, updated_at, aal)
              values (${sessionId}::uuid, ${userId}::uuid, now(), now(), 'aal1')`;
  const [user] = await setup<{ email: string }[]>`select email from auth.users where id = ${userId}::uuid`;
  return await new SignJWT({
    role: 'authenticated', session_id: sessionId, email: user.email, aal: 'aal1', is_anonymous: false,
    app_metadata: { provider: 'email', providers: ['email'] }, user_metadata: {},
  })
    .setProtectedHeader({ alg: 'ES256', kid: 'plans', typ: 'JWT' })
    .setSubject(userId).setAudience('authenticated').setIssuer(`${supabaseUrl}/auth/v1`)
    .setIssuedAt().setExpirationTime('1h')
    .sign(privateKey);
}

// ---- Who and what: typical rows of the generated set.
const [f] = await setup<Record<string, string>[]>`
  with learner as (
    select e.user_id from public.enrollments e
    join public.profiles p on p.id = e.user_id and p.role = 'STUDENT'
    join public.course_modules m on m.course_id = e.course_id and m.has_quiz
    where e.status = 'ACTIVE' and not e.completed and p.id::text like '%-5ca1-4000-8000-000000000001'
    group by e.user_id order by count(*) desc, e.user_id limit 1
  )
  select
    (select user_id from learner)::text as learner,
    (select m.id from public.enrollments e join public.course_modules m on m.course_id = e.course_id and m.has_quiz
      where e.user_id = (select user_id from learner) and e.status = 'ACTIVE' order by m.id limit 1)::text as quiz_module,
    (select c.id from public.courses c
      where c.status = 'ACTIVE' and c.requires_enrollment and c.organisation_id is null
        and exists (select 1 from public.course_modules m where m.course_id = c.id and m.order_index = 1)
        and not exists (select 1 from public.enrollments e where e.course_id = c.id and e.user_id = (select user_id from learner))
      order by c.id limit 1)::text as new_course,
    (select c.id from public.courses c
      where c.status = 'ACTIVE' and c.organisation_id is null
        and not exists (select 1 from public.course_modules m where m.course_id = c.id)
        and not exists (select 1 from public.enrollments e where e.course_id = c.id and e.user_id = (select user_id from learner))
      order by c.id limit 1)::text as stepped_course,
    -- The national administrator (no organisation): the seed's.
    (select p.id from public.profiles p where p.role = 'ADMIN' and p.organisation_id is null
      order by p.id limit 1)::text as admin,
    -- An organisation's administrator, generated, and a manager in the middle of a chain (reports
    -- who have reports of their own; a manager of their own too), with one of their reports.
    (select p.id from public.profiles p where p.role = 'ADMIN' and p.organisation_id is not null
       and p.id::text like '%-5ca1-4000-8000-000000000001' order by p.id limit 1)::text as org_admin,
    (select m.id from public.profiles m
      where m.id::text like '%-5ca1-4000-8000-000000000001'
        and exists (select 1 from public.profiles mm where mm.id = m.manager_id and mm.manager_id is not null)
        and exists (select 1 from public.profiles r where r.manager_id = m.id
                    and exists (select 1 from public.profiles x where x.manager_id = r.id))
      order by m.id limit 1)::text as manager,
    (select c.author_id from public.courses c join public.enrollments e on e.course_id = c.id
      join public.profiles p on p.id = c.author_id and p.role = 'INSTRUCTOR'
      group by c.author_id order by count(*) desc, c.author_id limit 1)::text as instructor,
    (select c.id from public.courses c where c.status = 'ACTIVE' and c.organisation_id is null
      order by c.featured desc, c.created_at desc limit 1)::text as course`;
for (const [key, value] of Object.entries(f)) if (!value) throw new Error(`No ${key} in this data set`);
// The organisation administrator's organisation: a top-level unit, a watch (a unit two levels down,
// moved below the top-level one: the names there are stations', so none clashes); the manager's report.
const [o] = await setup<Record<string, string>[]>`
  with org as (select organisation_id as id from public.profiles where id = ${f.org_admin}::uuid),
  watch as (
    select w.id, w.parent_id from public.units w join public.units s on s.id = w.parent_id
    where w.organisation_id = (select id from org) and s.parent_id is not null order by w.id limit 1
  )
  select (select id from org)::text as organisation,
         (select u.id from public.units u where u.organisation_id = (select id from org) and u.parent_id is null order by u.id limit 1)::text as area,
         (select id from watch)::text as watch,
         (select r.id from public.profiles r where r.manager_id = ${f.manager}::uuid order by r.id limit 1)::text as report`;
for (const [key, value] of Object.entries(o)) if (!value) throw new Error(`No ${key} in this data set`);

const tokens = {
  learner: await tokenFor(f.learner), admin: await tokenFor(f.admin), instructor: await tokenFor(f.instructor),
  orgAdmin: await tokenFor(f.org_admin), manager: await tokenFor(f.manager),
};

// ---- The api function, exactly as deployed, on a pool whose connections explain every statement.
Deno.env.set('SUPABASE_URL', supabaseUrl);
const config = { supabaseUrl, anonKey: 'plans-anon-key', serviceRoleKey: 'plans-service-role-key', dbUrl };
const db = createDb(dbUrl);
const app = createApp(config, db);

interface Captured {
  name: string;
  method: string;
  path: string;
  status: number;
  expected: number;
  statements: ExplainedStatement[];
}
const captured: Captured[] = [];
const results: Record<string, unknown> = {};

async function call(name: string, method: string, path: string, token: string | null, expected: number, body?: unknown) {
  take();
  const headers: Record<string, string> = { 'x-forwarded-for': '10.9.8.7' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  try {
    results[name] = text ? JSON.parse(text) : null;
  } catch {
    results[name] = text;
  }
  captured.push({ name, method, path, status: response.status, expected, statements: take() });
  if (response.status !== expected) console.error(`${name}: ${response.status} ${text.slice(0, 300)}`);
}

// What the benchmark drives, in a learner's, an instructor's and an admin's order.
await call('catalogue, visitor', 'GET', '/api/courses', null, 200);
await call('catalogue, learner', 'GET', '/api/courses', tokens.learner, 200);
await call('catalogue search', 'GET', '/api/courses?search=trauma', null, 200);
await call('catalogue search, learner', 'GET', '/api/courses?search=safeguarding&page=2', tokens.learner, 200);
await call('catalogue by service', 'GET', '/api/courses?service=UKAS', tokens.learner, 200);
await call('course page', 'GET', `/api/courses/${f.course}`, tokens.learner, 200);
await call('course page, visitor', 'GET', `/api/courses/${f.course}`, null, 200);
await call('course modules', 'GET', `/api/courses/${f.course}/modules`, tokens.learner, 200);
await call('current user', 'GET', '/api/user', tokens.learner, 200);
await call('learner enrolments (dashboard, my courses)', 'GET', `/api/users/${f.learner}/enrollments`, tokens.learner, 200);
await call('learner certificates', 'GET', '/api/certificates', tokens.learner, 200);
await call('enrol', 'POST', `/api/courses/${f.new_course}/enroll`, tokens.learner, 201);
await call('enrol (course without modules)', 'POST', `/api/courses/${f.stepped_course}/enroll`, tokens.learner, 201);
const stepped = (results['enrol (course without modules)'] as { id?: string } | null)?.id;
await call('progress', 'PUT', `/api/enrollments/${stepped}`, tokens.learner, 200, { progress: 20 });
const [firstModule] = await setup<{ id: string }[]>`
  select id::text from public.course_modules where course_id = ${f.new_course}::uuid order by order_index limit 1`;
await call('module page', 'GET', `/api/modules/${firstModule.id}`, tokens.learner, 200);
await call('module completion', 'POST', `/api/modules/${firstModule.id}/complete`, tokens.learner, 200);
await call('quiz fetch', 'GET', `/api/modules/${f.quiz_module}/quiz`, tokens.learner, 200);
const quiz = results['quiz fetch'] as { id?: string; questions?: { id: string }[] } | null;
await call('quiz attempt', 'POST', `/api/quizzes/${quiz?.id}/attempts`, tokens.learner, 201, {
  answers: Object.fromEntries((quiz?.questions ?? []).map((q) => [q.id, [0]])),
});
// Classroom sessions: the national session module with the most dates (scripts/seed-scale/05-sessions.sql,
// every organisation's dates besides), the learner on its course without a live booking of it: their
// list of dates, a booking of the first open national date and its cancellation, as the benchmark books.
const [sm] = await setup<{ module: string | null; course: string | null; session: string | null }[]>`
  with m as (
    select s.module_id, s.course_id from public.classroom_sessions s
    group by 1, 2 order by count(*) desc, s.module_id limit 1
  )
  select (select module_id from m)::text as module, (select course_id from m)::text as course,
         (select s.id from public.classroom_sessions s where s.module_id = (select module_id from m) and s.organisation_id is null
            and s.booking_closes_at > now() + interval '1 hour' order by s.starts_at, s.id limit 1)::text as session`;
if (!sm?.module || !sm.session) throw new Error('No session module with an open national date in this data set');
await setup`insert into public.enrollments (user_id, course_id, status) values (${f.learner}::uuid, ${sm.course}::uuid, 'ACTIVE')
            on conflict do nothing`;
await setup`update public.session_bookings set status = 'cancelled'
            where user_id = ${f.learner}::uuid and module_id = ${sm.module}::uuid and status in ('requested', 'booked', 'waiting', 'offered')`;
await call('session dates, learner', 'GET', `/api/modules/${sm.module}/sessions`, tokens.learner, 200);
await call('session booking', 'POST', `/api/modules/${sm.module}/booking`, tokens.learner, 201, { sessionId: sm.session });
const sessionBooking = (results['session booking'] as { id?: string } | null)?.id ?? crypto.randomUUID();
await call('session booking cancelled', 'POST', `/api/bookings/${sessionBooking}/cancel`, tokens.learner, 200);
await call('admin user list', 'GET', '/api/users', tokens.admin, 200);
await call('admin user search', 'GET', '/api/users?search=smith', tokens.admin, 200);
await call('admin user search, service filter', 'GET', '/api/users?search=ow&service=UKAS&role=STUDENT', tokens.admin, 200);
// The people of an organisation, of a unit (and its sub-units), of a manager.
const [placed] = await setup<{ organisation: string | null; unit: string | null; manager: string | null }[]>`
  select (select organisation_id::text from public.profiles where organisation_id is not null limit 1) as organisation,
         (select unit_id::text from public.profiles where unit_id is not null limit 1) as unit,
         (select manager_id::text from public.profiles where manager_id is not null limit 1) as manager`;
await call('admin user list, organisation filter', 'GET', `/api/users?organisationId=${placed.organisation ?? crypto.randomUUID()}`, tokens.admin, 200);
await call('admin user list, unit filter', 'GET', `/api/users?unitId=${placed.unit ?? crypto.randomUUID()}`, tokens.admin, 200);
await call('admin user list, manager filter', 'GET', `/api/users?managerId=${placed.manager ?? crypto.randomUUID()}&search=a`, tokens.admin, 200);
await call('instructor statistics', 'GET', '/api/instructor/stats', tokens.instructor, 200);
await call('instructor students', 'GET', '/api/instructor/students', tokens.instructor, 200);
await call('instructor students, one course', 'GET', `/api/instructor/students?status=in-progress`, tokens.instructor, 200);
await call('instructor analytics', 'GET', '/api/instructor/analytics', tokens.instructor, 200);

// Organisations: the routes on main, as the national administrator, an organisation's
// administrator and a manager.
await call('current user, manager', 'GET', '/api/user', tokens.manager, 200);
await call('organisations, national admin', 'GET', '/api/organisations', tokens.admin, 200);
await call('organisations, organisation admin', 'GET', '/api/organisations', tokens.orgAdmin, 200);
// An organisation's administrator's Users tab: their people by primary key, in one statement with
// the national administrator's branch (which their one-time filter leaves unread).
await call('organisation admin user list', 'GET', '/api/users', tokens.orgAdmin, 200);
await call('organisation admin user search', 'GET', '/api/users?search=smith', tokens.orgAdmin, 200);
await call('organisation admin user list, unit filter', 'GET', `/api/users?unitId=${o.watch}`, tokens.orgAdmin, 200);
await call('units of an organisation, organisation admin', 'GET', `/api/organisations/${o.organisation}/units`, tokens.orgAdmin, 200);
await call('move a unit (the tree check: private.unit_subtree)', 'PUT', `/api/organisations/${o.organisation}/units/${o.watch}`,
  tokens.orgAdmin, 200, { parentId: o.area });

// A line manager's team: a generated manager with reports two levels down and a team of
// at most 60 (every report is judged once per call, each of its statements explained here), filtered
// by status, a report's unit and a search; one report's record; the export.
const [t] = await setup<{ manager: string | null; report: string | null; unit: string | null }[]>`
  with m as (
    select m.id from public.profiles m
    where m.id::text like '%-5ca1-4000-8000-000000000001'
      and exists (select 1 from public.profiles r join public.profiles x on x.manager_id = r.id where r.manager_id = m.id)
      and not exists (select 1 from public.profiles r join public.profiles x on x.manager_id = r.id
                      join public.profiles y on y.manager_id = x.id where r.manager_id = m.id)
      and (select count(*) from public.profiles r left join public.profiles x on x.manager_id = r.id where r.manager_id = m.id) <= 60
    order by m.id limit 1
  )
  select (select id from m)::text as manager,
         (select x.id from public.profiles r join public.profiles x on x.manager_id = r.id
          where r.manager_id = (select id from m) order by x.id limit 1)::text as report,
         (select r.unit_id from public.profiles r where r.manager_id = (select id from m) and r.unit_id is not null
          order by r.id limit 1)::text as unit`;
const teamManager = t?.manager ? await tokenFor(t.manager) : tokens.manager;
const teamReport = t?.report ?? o.report;
// The first read after a change computes the organisation's kept counts (every person of it, as the
// compliance summary's refresh does: 20_compliance_summary_counts.sql); the pages after it read them.
await call('team page, first after a change', 'GET', '/api/team', teamManager, 200);
await call('team page', 'GET', '/api/team', teamManager, 200);
await call('team page, overdue, one unit, search', 'GET',
  `/api/team?status=overdue&search=a${t?.unit ? `&unitId=${t.unit}` : ''}`, teamManager, 200);
await call('team member record', 'GET', `/api/team/${teamReport}`, teamManager, 200);
await call('team export', 'GET', '/api/team/export.csv', teamManager, 200);

// SCIM provisioning as an organisation's identity system sends it (routes/scim, bearer: a SCIM token
// of the organisation): a person created into a unit by department, read, found by userName, and
// changed as Entra ID moves a person (a new family name and another department), with the
// statements of the triggers each fires.
const scimToken = `scim_${'5c'.repeat(32)}`;
await setup`insert into public.scim_tokens (organisation_id, label, token_hash, token_hint)
            values (${o.organisation}::uuid, 'Plans', sha256(convert_to(${scimToken}, 'UTF8')), right(${scimToken}, 4))`;
const departments = (await setup<{ name: string }[]>`
  select distinct u.name from public.units u where u.organisation_id = ${o.organisation}::uuid order by u.name limit 2`)
  .map((u) => u.name);
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
await call('SCIM: create a user', 'POST', '/api/scim/v2/Users', scimToken, 201, {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENTERPRISE],
  userName: 'plans.provisioned@police.example', externalId: 'plans-provisioned', active: true,
  name: { givenName: 'Plans', familyName: 'Provisioned' },
  emails: [{ primary: true, type: 'work', value: 'plans.provisioned@police.example' }],
  [ENTERPRISE]: { department: departments[0] },
});
const scimUser = (results['SCIM: create a user'] as { id?: string } | null)?.id ?? crypto.randomUUID();
await call('SCIM: a user', 'GET', `/api/scim/v2/Users/${scimUser}`, scimToken, 200);
await call('SCIM: a user by userName', 'GET',
  `/api/scim/v2/Users?filter=${encodeURIComponent('userName eq "plans.provisioned@police.example"')}`, scimToken, 200);
await call('SCIM: change a user (a new family name, a move of unit)', 'PATCH', `/api/scim/v2/Users/${scimUser}`, scimToken, 200, {
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: [
    { op: 'Replace', path: 'name.familyName', value: 'Moved' },
    { op: 'Replace', path: `${ENTERPRISE}:department`, value: departments[1] },
  ],
});

// And what a client may ask the database API directly, as the same personas: the helpers the
// policies call (private.people_i_administer, private.managed_person_ids, private.manages,
// private.unit_subtree) and the profiles and enrolments policies answering an organisation's
// administrator and a manager, each run as that caller (role authenticated, their claims).
async function direct(name: string, userId: string, text: string) {
  take();
  let status = 200;
  try {
    await db.withCaller({ role: 'authenticated', claims: { sub: userId, role: 'authenticated' } }, (tx) => tx.unsafe(text));
  } catch (error) {
    status = 500;
    console.error(`${name}: ${error instanceof Error ? error.message : error}`);
  }
  captured.push({ name, method: 'SQL', path: text, status, expected: 200, statements: take() });
}
await direct('organisation admin: private.people_i_administer', f.org_admin,
  'select count(*) from private.people_i_administer()');
await direct('organisation admin: their people (profiles policy)', f.org_admin,
  `select p.id, p.name from public.profiles p where p.organisation_id = '${o.organisation}' order by p.name, p.id limit 25`);
await direct('organisation admin: one unit\'s people (profiles policy)', f.org_admin,
  `select p.id, p.name from public.profiles p where p.unit_id = '${o.watch}' and p.organisation_id = '${o.organisation}'`);
await direct('organisation admin: their people\'s enrolments (enrolments policy)', f.org_admin,
  'select e.id, e.progress from public.enrollments e where e.user_id in (select private.people_i_administer())');
await direct('organisation admin: private.unit_subtree of an area', f.org_admin,
  `select count(*) from private.unit_subtree('${o.area}')`);
await direct('organisation admin: the people of an area and below (private.unit_subtree)', f.org_admin,
  `select p.id from public.profiles p where p.unit_id in (select private.unit_subtree('${o.area}')) and p.organisation_id = '${o.organisation}'`);
await direct('manager: private.managed_person_ids', f.manager, 'select count(*) from private.managed_person_ids()');
await direct('manager: private.manages', f.manager, `select private.manages('${o.report}')`);
await direct('manager: their reports (profiles policy)', f.manager,
  'select p.id, p.name from public.profiles p where p.id in (select private.managed_person_ids())');
await direct('manager: their reports\' enrolments (enrolments policy)', f.manager,
  'select e.id, e.progress from public.enrollments e where e.user_id in (select private.managed_person_ids())');
await direct('manager: one report\'s enrolments (enrolments policy)', f.manager,
  `select e.id, e.progress from public.enrollments e where e.user_id = '${o.report}'`);
await direct('manager: one report\'s certificates (certificates policy)', f.manager,
  `select c.id from public.certificates c where c.user_id = '${o.report}'`);

await Deno.writeTextFile(out, JSON.stringify({ fixtures: { ...f, ...o }, realPlanner, endpoints: captured }));
await db.end();
await setup.end({ timeout: 5 });
await server.shutdown();
Deno.exit(0);
