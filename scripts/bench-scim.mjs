// SCIM provisioning at an organisation's size, as Microsoft Entra ID's provisioning service sends it:
// 5,000 people created (POST /Users, each with a department that places them in a unit), then
// 5,000 changes (PATCH /Users/:id: a new family name and a move to another unit), each phase under
// 60 s with every answer 2xx. Entra asks an endpoint to handle at least 25 requests a second; it
// sends them over a handful of connections, so `connections` (default 8) is the concurrency.
//
//   import { benchScim } from './bench-scim.mjs';
//   await benchScim({ url, anonKey, adminToken, organisationId, dbUrl });
// The people it creates and its token are deleted afterwards.
import postgres from 'postgres';
import { cpuMsPerAnswer, cpuSummary, cpuTicks } from './bench-cpu.mjs';

/** Each phase of 5,000 requests: under this many seconds. */
export const SCIM_BUDGET_SECONDS = 60;

/**
 * Sends `count` requests made by `make(i)` over `connections` at once. `cpu`: CPU ms per request by
 * process group (client, node: the gateway and Auth, deno: the function, postgres), which a shared
 * machine's noise moves less than the wall time.
 * @returns {Promise<{ seconds: number, ok: number, requests: number, statuses: Record<string, number>, p95: number, failures: string[], cpu: Record<string, number | null> }>}
 */
async function pool(count, connections, make) {
  const latencies = [];
  const statuses = {};
  const failures = [];
  let ok = 0;
  let next = 0;
  const started = performance.now();
  const cpuBefore = cpuTicks();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      const response = await make(i);
      latencies.push(performance.now() - t0);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.ok) ok += 1;
      else if (failures.length < 3) failures.push(`${response.status} ${(await response.text()).slice(0, 200)}`);
      else await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuMsPerAnswer(cpuBefore, cpuTicks(), count);
  latencies.sort((a, b) => a - b);
  const p95 = latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.95))] : 0;
  return { seconds: Number(seconds.toFixed(2)), ok, requests: count, statuses, p95: Number(p95.toFixed(1)), failures, cpu };
}

/**
 * @param {{ url: string, anonKey: string, adminToken: string, organisationId: string, dbUrl: string,
 *   people?: number, connections?: number, log?: (msg: string) => void }} options url: the gateway's;
 *   adminToken: a session of the organisation's administrator (who creates the SCIM token)
 */
export async function benchScim({ url, anonKey, adminToken, organisationId, dbUrl, people = 5000, connections = 8, log = () => {} }) {
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
  try {
    const created = await fetch(`${url}/functions/v1/api/organisations/${organisationId}/scim/tokens`, {
      method: 'POST',
      headers: { apikey: anonKey, authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'Bench provisioning' }),
    });
    if (created.status !== 201) throw new Error(`creating the SCIM token answered ${created.status}: ${await created.text()}`);
    const { token } = await created.json();
    const settings = await fetch(`${url}/functions/v1/api/organisations/${organisationId}/scim`, {
      headers: { apikey: anonKey, authorization: `Bearer ${adminToken}` },
    });
    const { baseUrl } = await settings.json();
    const units = (await sql`select name from public.units where organisation_id = ${organisationId}::uuid order by name`).map((u) => u.name);
    if (units.length < 2) throw new Error('the organisation needs two units to move people between');
    const scim = (method, path, body) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify(body),
      });
    const stamp = Date.now().toString(36);
    const ids = new Array(people);

    const create = await pool(people, connections, async (i) => {
      const userName = `scim.${stamp}.${i}@bench.police.example`;
      const response = await scim('POST', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        externalId: `bench-${stamp}-${i}`,
        userName,
        active: true,
        name: { formatted: `Officer ${i} Bench`, givenName: `Officer ${i}`, familyName: 'Bench' },
        emails: [{ primary: true, type: 'work', value: userName }],
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: units[i % units.length], employeeNumber: `${i}` },
        meta: { resourceType: 'User' },
      });
      if (response.status === 201) {
        const body = await response.json();
        ids[i] = body.id;
        return new Response(null, { status: 201 });
      }
      return response;
    });
    log(`SCIM: ${create.ok} of ${people} people created in ${create.seconds} s (p95 ${create.p95} ms; CPU ms a request client / node / deno / postgres ${cpuSummary(create.cpu)})`);

    const made = ids.filter(Boolean);
    const patch = await pool(made.length, connections, (i) =>
      scim('PATCH', `/Users/${made[i]}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          { op: 'Replace', path: 'name.familyName', value: 'Moved' },
          { op: 'Replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: units[(i + 1) % units.length] },
        ],
      }));
    log(`SCIM: ${patch.ok} of ${made.length} people changed in ${patch.seconds} s (p95 ${patch.p95} ms; CPU ms a request client / node / deno / postgres ${cpuSummary(patch.cpu)})`);
    return { people, connections, create, patch };
  } finally {
    // The people it made go (their SCIM links and enrolments with them), and its token.
    await sql`delete from auth.users where id in (select s.profile_id from private.scim_users s where s.organisation_id = ${organisationId}::uuid)`;
    await sql`delete from public.scim_tokens where organisation_id = ${organisationId}::uuid and label = 'Bench provisioning'`;
    await sql.end();
  }
}
