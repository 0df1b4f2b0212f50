import postgres from 'postgres';
import fs from 'node:fs';
const [,, query, sub = '00000064-5ca1-4000-8000-000000000001', runs = '3'] = process.argv;
const sql = postgres('postgresql://postgres@127.0.0.1:5432/esl_scale_rules', { max: 1, onnotice: () => {} });
const cpu = (pid) => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
for (let i = 0; i < Number(runs); i++) {
  await sql.begin(async (tx) => {
    await tx.unsafe('set local role authenticated');
    await tx.unsafe(`select set_config('request.jwt.claims', '${JSON.stringify({ sub, role: 'authenticated', aud: 'authenticated' })}', true)`);
    const [{ pid }] = await tx.unsafe('select pg_backend_pid() as pid');
    const c0 = cpu(pid); const t0 = performance.now();
    const rows = await tx.unsafe(query);
    const t1 = performance.now(); const c1 = cpu(pid);
    console.log(`rows=${rows.length} wall=${Math.round(t1 - t0)}ms backendCPU=${c1 - c0}ms`);
  });
}
await sql.end();
