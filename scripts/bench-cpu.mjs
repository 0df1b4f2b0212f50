// Where a request's cost goes in `npm run bench` and its parts: CPU time by process group, sampled
// from /proc before and after a measurement (machine-wide, so other work on the machine shows too).
import fs from 'node:fs';

const round = (x) => (x == null ? null : Math.round(x * 100) / 100);

/**
 * CPU time used so far on the machine, in clock ticks (1/100 s), by process group: this process
 * (the autocannon client), the other node processes (the platform's gateway and Auth), deno (the
 * function) and postgres (the backends). The difference over a run, divided by its answers, says
 * where a request's cost goes (`cpuMsPerAnswer`).
 */
export function cpuTicks() {
  const byPid = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const group = Number(entry) === process.pid ? 'client' : ['node', 'deno', 'postgres'].includes(name) ? name : 'other';
      byPid.set(entry, { group, used: Number(fields[11]) + Number(fields[12]) }); // utime + stime
    } catch {
      // exited while we looked
    }
  }
  return byPid;
}

/** CPU ms per answer by group between two cpuTicks() (a process that ended in between is not counted). */
export function cpuMsPerAnswer(before, after, answers) {
  const ticks = { client: 0, node: 0, deno: 0, postgres: 0, other: 0 };
  for (const [pid, { group, used }] of after) ticks[group] += used - (before.get(pid)?.used ?? 0);
  const perAnswer = {};
  for (const [group, n] of Object.entries(ticks)) perAnswer[group] = answers ? round((n * 10) / answers) : null;
  return perAnswer;
}

/** "client / node / deno / postgres" ms per answer, as the bench prints it. */
export const cpuSummary = (cpu) => ['client', 'node', 'deno', 'postgres'].map((k) => cpu[k]?.toFixed(2) ?? '-').join(' / ');
