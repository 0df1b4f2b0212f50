// Each browser test starts with no sign-up or credential verification counted against this
// machine's address. Every browser and API call of the suite comes from 127.0.0.1, sign-ups are
// limited to 20 an hour and credential verifications to 30 in 10 minutes per address
// (supabase/schemas/11_rate_limits.sql), so without this the tests late in a full run were refused
// with 429 depending on how many ran before them. The limit itself is tested in
// supabase/tests/rate-limits.test.ts and supabase/functions/tests/rate_limit_test.ts.
import postgres from 'postgres';
import { afterAll, beforeEach } from 'vitest';

const databaseUrl = process.env.SUPABASE_DB_URL;
const sql = databaseUrl ? postgres(databaseUrl, { max: 1, onnotice: () => {} }) : null;

beforeEach(async () => {
  if (sql) await sql`delete from private.rate_limit_attempts where action in ('register', 'verify_credential')`;
});

afterAll(async () => {
  if (sql) await sql.end();
});
