// Stands in for the `postgres` module when supabase/tests/plans/capture.ts runs the api function:
// the same postgres.js (the api's own import map names the version), with every connection started
// with auto_explain loaded and set to explain every statement, nested ones included (the statements
// inside our SQL functions), with actual row counts, and with those plans delivered to the client
// as LOG notices. The api code is unchanged: it calls postgres(url, options) as always.
import real from 'postgres-real';

export interface ExplainedStatement {
  query: string;
  plan: Record<string, unknown>;
}

/** Every plan explained since the last take(), in the order the database ran the statements. */
export const explained: ExplainedStatement[] = [];

export function take(): ExplainedStatement[] {
  return explained.splice(0);
}

/** Startup parameters: a superuser connection may preload a library and set its parameters. */
export const EXPLAIN_SETTINGS: Record<string, string> = {
  session_preload_libraries: 'auto_explain',
  'auto_explain.log_min_duration': '0',
  'auto_explain.log_nested_statements': 'on',
  'auto_explain.log_analyze': 'on',
  'auto_explain.log_timing': 'off',
  'auto_explain.log_verbose': 'on',
  'auto_explain.log_format': 'json',
  client_min_messages: 'log',
};

type Notice = Record<string, unknown>;
type Options = { connection?: Record<string, unknown>; onnotice?: (notice: Notice) => void; [name: string]: unknown };

function explaining(url: string, options: Options = {}) {
  const extra = (globalThis as { __explainSettings?: Record<string, string> }).__explainSettings ?? {};
  return (real as unknown as (url: string, options: Options) => unknown)(url, {
    ...options,
    connection: { ...(options.connection ?? {}), ...EXPLAIN_SETTINGS, ...extra },
    onnotice: (notice: Notice) => {
      const message = String(notice.message ?? '');
      const at = message.indexOf('plan:\n');
      if (notice.severity === 'LOG' && at >= 0) {
        const parsed = JSON.parse(message.slice(at + 'plan:\n'.length));
        explained.push({ query: String(parsed['Query Text'] ?? ''), plan: parsed.Plan });
        return;
      }
      options.onnotice?.(notice);
    },
  });
}

// postgres.camel, postgres.PostgresError and the other static members.
Object.assign(explaining, real);

export default explaining as unknown as typeof real;
