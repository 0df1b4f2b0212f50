// The ceilings of `npm run bench`, run by Deno exactly as the api function is run:
//   GET /bytes   the catalogue's first page, the same bytes the function answers, without a database
//   GET /sql     the catalogue page's SQL (one statement) straight through postgres.js
//   GET /sql-tx  the same statement inside a transaction with SET LOCAL ROLE anon and the JWT claims
//                set with set_config, as the function did before it folded them into one statement
//                (BEGIN, SET LOCAL ROLE, set_config, query, COMMIT)
// Environment: CEILING_DB_URL, CEILING_BYTES_FILE, CEILING_PORT (0 for any). Prints CEILING_READY <port>.
/* global Deno -- this server runs on Deno, as the api function does */
import postgres from 'postgres';

const url = Deno.env.get('CEILING_DB_URL');
const bytesFile = Deno.env.get('CEILING_BYTES_FILE');
if (!url || !bytesFile) throw new Error('CEILING_DB_URL and CEILING_BYTES_FILE are required');
const bytes = await Deno.readFile(bytesFile);
const port = Number(Deno.env.get('CEILING_PORT') ?? 0);
const PAGE = 12;

// The function's pool settings (lib/db.ts), so the comparison is like for like.
const sql = postgres(url, {
  prepare: false,
  max: Number(Deno.env.get('CEILING_POOL') ?? 8),
  idle_timeout: 20,
  connect_timeout: 10,
  transform: postgres.camel,
  onnotice: () => {},
  connection: { application_name: 'bench-ceiling' },
});

/** The visitor catalogue's page query (routes/courses/queries.ts selectCourses), one statement. */
function pageQuery(q, bare) {
  return q`
    with page as (
      select c.* from public.courses c
      where ${bare ? q`c.status = 'ACTIVE'` : q`true`}
      order by c.featured desc, c.created_at desc, c.id
      limit ${PAGE} offset 0
    )
    select p.id, p.title, p.description, p.service::text as service, p.cover_image, p.author_id, p.duration,
           p.level::text as level, p.featured, p.requires_enrollment, p.status::text as status,
           p.created_at, p.updated_at, coalesce(a.modules, 0) as modules,
           a.username as author_username, a.name as author_name
    from page p
    -- Module counts and authors of the visible courses of the page, in one call.
    left join private.course_summaries(array(select id from page)) a on a.course_id = p.id
    order by p.featured desc, p.created_at desc, p.id`;
}

const json = (body) => new Response(body, { headers: { 'content-type': 'application/json' } });
const claims = JSON.stringify({ role: 'anon' });

const server = Deno.serve({ port, hostname: '127.0.0.1', onListen: () => {} }, async (request) => {
  const path = new URL(request.url).pathname;
  if (path === '/bytes') return json(bytes);
  if (path === '/sql') return json(JSON.stringify(await pageQuery(sql, true)));
  if (path === '/sql-tx') {
    const rows = await sql.begin(async (tx) => {
      await tx.unsafe('set local role anon');
      await tx`select set_config('request.jwt.claims', ${claims}, true)`;
      return await pageQuery(tx, false);
    });
    return json(JSON.stringify(rows));
  }
  return new Response('not found', { status: 404 });
});
console.log(`CEILING_READY ${server.addr.port}`);
