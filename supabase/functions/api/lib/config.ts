// The function's configuration: the four variables Supabase gives every edge function, and the
// project's own secrets (the SCORM content origin, the offline manifests' signing key).

export interface Config {
  /** Base URL of the project (Auth at `${supabaseUrl}/auth/v1`). */
  supabaseUrl: string;
  /** The anon (publishable) key: a request carrying it is a visitor's. */
  anonKey: string;
  /** The service-role key: only for Auth admin calls and Storage writes. */
  serviceRoleKey: string;
  /** Postgres connection string (a role that may `set role anon|authenticated|service_role`). */
  dbUrl: string;
  /**
   * Where the scorm-content bucket's files are served to browsers: its own origin, never the app's
   * (SCORM_CONTENT_URL). Absent: Storage's public URL of the bucket.
   */
  scormContentUrl?: string;
  /**
   * The private key (a P-256 JWK as JSON) that signs the manifests of SCORM packages kept offline
   * (SCORM_OFFLINE_SIGNING_KEY; the content origin holds the public one). Absent: no manifest, so
   * SCORM modules need a connection.
   */
  scormOfflineSigningKey?: string;
}

function required(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

export function configFromEnv(): Config {
  return {
    supabaseUrl: required('SUPABASE_URL').replace(/\/+$/, ''),
    anonKey: required('SUPABASE_ANON_KEY'),
    serviceRoleKey: required('SUPABASE_SERVICE_ROLE_KEY'),
    dbUrl: required('SUPABASE_DB_URL'),
    scormContentUrl: Deno.env.get('SCORM_CONTENT_URL')?.replace(/\/+$/, '') || undefined,
    scormOfflineSigningKey: Deno.env.get('SCORM_OFFLINE_SIGNING_KEY')?.trim() || undefined,
  };
}
