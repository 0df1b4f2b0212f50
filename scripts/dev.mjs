// `npm run dev`: the local platform without its static web build, plus Vite's dev server with hot
// reload, which proxies /auth/v1, /storage/v1 and /functions/v1 to the platform.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure-deps.mjs';

ensureDependencies();
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
// Links in emails point at Vite's dev server (its default port), which serves the app here.
process.env.SITE_URL ||= 'http://localhost:5173';
const { main } = await import('../platform/start.mjs');
const platform = await main(['--no-web']);
const vite = spawn(path.join(repoRoot, 'node_modules', '.bin', 'vite'), ['--config', 'web/vite.config.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, VITE_SUPABASE_URL: '', VITE_SUPABASE_ANON_KEY: platform.anonKey },
});
const stopVite = () => vite.kill('SIGTERM');
process.on('SIGINT', stopVite);
process.on('SIGTERM', stopVite);
process.on('exit', stopVite);
