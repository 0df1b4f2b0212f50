// Builds the web app for the local platform, handing it the platform's anon key, as a static host
// would be given the project's URL and key. Skipped when nothing it depends on has changed.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const inputs = ['web', 'supabase/functions/_shared', 'package-lock.json'];

/** @returns {Promise<{ dir: string, built: boolean }>} */
export async function buildWeb({ dataDir, anonKey, log = () => {} }) {
  const outDir = path.join(dataDir, 'web');
  const stampFile = path.join(dataDir, 'web.stamp');
  const stamp = fingerprint(anonKey);
  // The build and, beside it, the renderer of pages rendered on request (web/prerender.mjs).
  if (fs.existsSync(path.join(outDir, 'index.html')) && fs.existsSync(`${outDir}-render`) && readOr(stampFile) === stamp) {
    return { dir: outDir, built: false };
  }
  log('Building the web app...');
  await new Promise((resolve, reject) => {
    const child = spawn(
      path.join(repoRoot, 'node_modules', '.bin', 'vite'),
      ['build', '--config', path.join(repoRoot, 'web', 'vite.config.ts'), '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, VITE_SUPABASE_URL: '', VITE_SUPABASE_ANON_KEY: anonKey },
      },
    );
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`web build failed (exit ${code})`))));
  });
  fs.writeFileSync(stampFile, stamp);
  return { dir: outDir, built: true };
}

function fingerprint(anonKey) {
  const hash = crypto.createHash('sha256').update(anonKey);
  for (const input of inputs) hashTree(hash, path.join(repoRoot, input));
  return hash.digest('hex');
}

function hashTree(hash, target) {
  if (!fs.existsSync(target)) return;
  const stat = fs.statSync(target);
  if (stat.isFile()) {
    hash.update(path.relative(repoRoot, target)).update(fs.readFileSync(target));
    return;
  }
  for (const entry of fs.readdirSync(target).sort()) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    hashTree(hash, path.join(target, entry));
  }
}

function readOr(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
