// The browser files run in several Vitest workers, each against a platform of its own (started by
// scripts/test.mjs, listed in E2E_PLATFORMS): a file sees only the settings, mail and data of the
// files that ran before it in its worker, as when they all ran on one platform one at a time. This
// runs first in each file, before anything reads PLATFORM_URL and the rest.
const platforms = process.env.E2E_PLATFORMS ? (JSON.parse(process.env.E2E_PLATFORMS) as Record<string, string>[]) : [];
if (platforms.length > 0) {
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  Object.assign(process.env, platforms[(worker - 1) % platforms.length]);
}
