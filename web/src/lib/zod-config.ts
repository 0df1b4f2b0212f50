// zod's global configuration without importing zod (zod is for the forms' chunks, not the
// first load). zod keeps it on globalThis.__zod_globalConfig, created if missing and shared by
// z.config(); zod-config.test.ts proves zod reads what is set here.
type ZodGlobal = typeof globalThis & { __zod_globalConfig?: Record<string, unknown> };

export function configureZod(): void {
  const scope = globalThis as ZodGlobal;
  scope.__zod_globalConfig = Object.assign(scope.__zod_globalConfig ?? {}, { jitless: true });
}
