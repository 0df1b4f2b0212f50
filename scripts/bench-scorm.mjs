// SCORM upload's budget (a 50 MB package with 2,000 files is checked and unpacked in under
// 30 seconds with memory bounded): builds such a package (incompressible files, so the zip is 50 MB),
// uploads it as the seeded instructor to a new SCORM module through the gateway, as the course
// editor does, and samples the resident memory of the function's Deno process while it works.
// The figures: seconds from the request to the answer, Deno's resident memory before and at its peak.
//
//   import { benchScorm } from './bench-scorm.mjs';
//   await benchScorm(platform);   (a handle from scripts/platform-process.mjs)
//   node scripts/bench-scorm.mjs  (starts its own platform, as the tests do; SCORM_BENCH_MB=150 for a larger zip)
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { zipSync, strToU8 } from 'fflate';

/** The budget, in seconds. */
export const SCORM_BUDGET_SECONDS = 30;
/** What "bounded" means here: the peak may exceed the idle process by the files in flight and the
 * runtime's garbage, never the zip (it is spooled to a temporary file) nor the unpacked size. */
export const SCORM_RSS_GROWTH_BUDGET = 200 * 1024 * 1024;

/** A SCORM 1.2 package of `files` files totalling about `bytes` bytes (stored: random bytes do not compress). */
export function buildBigPackage(files = 2000, bytes = 50 * 1024 * 1024) {
  const each = Math.floor(bytes / files);
  const zippable = {
    'imsmanifest.xml': strToU8(`<?xml version="1.0"?>
<manifest identifier="bench" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
<metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
<organizations default="o"><organization identifier="o"><title>Bench package</title>
<item identifier="i" identifierref="r"><title>Bench</title></item></organization></organizations>
<resources><resource identifier="r" type="webcontent" adlcp:scormtype="sco" href="index.html"><file href="index.html"/></resource></resources>
</manifest>`),
    'index.html': strToU8('<!doctype html><html lang="en-GB"><head><title>Bench</title></head><body><p>Bench</p></body></html>'),
  };
  const ext = ['js', 'css', 'png', 'mp3', 'woff', 'json', 'bin'];
  for (let i = 0; i < files - 2; i++) zippable[`media/${String(i % 40)}/file-${i}.${ext[i % ext.length]}`] = new Uint8Array(randomBytes(each));
  return zipSync(zippable, { level: 0 });
}

/**
 * @param {{ url: string, anonKey: string, rssByCommand: () => Record<string, number>, log?: (msg: string) => void,
 *   files?: number, megabytes?: number }} platform  files and megabytes: the package's shape (the 2,000 and 50)
 * @returns {Promise<{ zipBytes: number, files: number, seconds: number, status: number, denoRssBefore: number, denoRssPeak: number, budget: number }>}
 */
export async function benchScorm({ url, anonKey, rssByCommand, log = () => {}, files: fileCount = 2000, megabytes = 50 }) {
  const api = (method, apiPath, { token, body, headers = {} } = {}) =>
    fetch(`${url}/functions/v1/api${apiPath}`, {
      method,
      headers: { apikey: anonKey, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body,
    });
  const json = (value) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
  const login = await api('POST', '/login', json({ username: 'instructor', password: 'password123' }));
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const token = (await login.json()).session.access_token;
  const course = await api('POST', '/courses', { token, ...json({ title: 'SCORM bench course', description: 'A course for the SCORM upload bench.', service: 'UKPS', duration: 1 }) });
  if (course.status !== 201) throw new Error(`course: ${course.status} ${await course.text()}`);
  const courseId = (await course.json()).id;
  try {
    const module = await api('POST', `/courses/${courseId}/modules`, { token, ...json({ kind: 'scorm', title: 'Bench package' }) });
    if (module.status !== 201) throw new Error(`module: ${module.status} ${await module.text()}`);
    const moduleId = (await module.json()).id;
    log(`building a ${megabytes} MB package of ${fileCount.toLocaleString('en-GB')} files...`);
    const zip = buildBigPackage(fileCount, megabytes * 1024 * 1024);
    const deno = () => rssByCommand().deno ?? 0;
    const before = deno();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, deno());
    }, 50);
    const started = performance.now();
    const answer = await api('POST', `/modules/${moduleId}/scorm`, { token, body: zip, headers: { 'content-type': 'application/zip' } });
    const text = await answer.text();
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, deno());
    if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${text.slice(0, 300)}`);
    const files = JSON.parse(text).fileCount;
    log(`checked and unpacked ${files} files (${(zip.length / 1024 / 1024).toFixed(1)} MB) in ${seconds.toFixed(1)} s; Deno RSS ${Math.round(before / 1048576)} MB -> peak ${Math.round(peak / 1048576)} MB`);
    return { zipBytes: zip.length, files, seconds, status: answer.status, denoRssBefore: before, denoRssPeak: peak, budget: SCORM_BUDGET_SECONDS };
  } finally {
    await api('DELETE', `/courses/${courseId}`, { token });
  }
}

// Run alone: its own platform on free ports, without the web app.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { startPlatformProcess } = await import('./platform-process.mjs');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-scorm-'));
  const platform = await startPlatformProcess({ dataDir });
  try {
    // SCORM_BENCH_MB: a larger package, to see that the memory does not grow with the zip (bounded).
    const megabytes = Number(process.env.SCORM_BENCH_MB ?? 50);
    const result = await benchScorm({ ...platform, megabytes, log: (msg) => console.log(msg) });
    console.log(JSON.stringify(result));
    const withinTime = result.seconds < SCORM_BUDGET_SECONDS;
    const withinMemory = result.denoRssPeak - result.denoRssBefore < SCORM_RSS_GROWTH_BUDGET;
    console.log(`${withinTime ? 'PASS' : 'FAIL'} under ${SCORM_BUDGET_SECONDS} s; ${withinMemory ? 'PASS' : 'FAIL'} Deno memory grew by under ${SCORM_RSS_GROWTH_BUDGET / 1048576} MB`);
    if (!withinTime || !withinMemory) process.exitCode = 1;
  } finally {
    await platform.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
