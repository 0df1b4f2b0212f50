// Installs dependencies when node_modules is missing or older than package-lock.json, so that
// `npm start` and `npm test` work on a fresh clone. Uses Node built-ins only.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export function ensureDependencies() {
  const lock = path.join(repoRoot, 'package-lock.json');
  // npm writes this hidden lockfile on every install; it is older than package-lock.json only
  // when the dependencies changed since.
  const installed = path.join(repoRoot, 'node_modules', '.package-lock.json');
  if (fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs) return false;
  // A node_modules that links to another checkout's (a git worktree sharing one install) is that
  // checkout's to update: `npm ci` here would empty it under every checkout that shares it.
  const modules = path.join(repoRoot, 'node_modules');
  if (fs.existsSync(modules) && fs.lstatSync(modules).isSymbolicLink()) {
    console.log(`node_modules links to ${fs.realpathSync(modules)}, which is older than package-lock.json: not reinstalling it here`);
    return false;
  }
  console.log('Installing dependencies (npm ci)...');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm ci failed');
  return true;
}
