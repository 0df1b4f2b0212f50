// The user CSV export's SQL (routes/imports.ts): the Users tab's list a page at a time, each person's
// organisation, unit and manager as the import reads them back.
import type { z } from 'zod';
import type { userExportQuerySchema } from '../../_shared/user-import.ts';
import { administeredProfiles } from './admin.ts';
import type { Tx } from './db.ts';

/** Rows of the export read per query (and per transaction). */
export const EXPORT_PAGE = 1000;

export type ExportRow = {
  username: string;
  email: string;
  name: string;
  role: string;
  services: string[];
  organisation: string | null;
  unitPath: string | null;
  manager: string | null;
  createdAt: Date;
  cursor: string;
  id: string;
};

/** One page after (cursor, id), newest first: the Users tab's order, served by profiles_created_at_idx.
 * The cursor is created_at as Postgres's text (microseconds): a JS Date (milliseconds) would skip rows
 * created in the same millisecond, as an import's rows are. It is sent as text, since postgres.js
 * would serialise a timestamptz parameter through Date. */
export function exportPage(
  tx: Tx,
  query: z.infer<typeof userExportQuerySchema>,
  pattern: string | null,
  after: { cursor: string; id: string } | null,
) {
  // The organisation by its code, the unit by its path from the top (the page's units, walked up
  // by primary key), the manager by username: the import reads each back.
  return tx<ExportRow[]>`
    with recursive page as (
      select p.id, p.username, p.email, p.name, p.role, p.services, p.created_at, p.organisation_id, p.unit_id, p.manager_id
      from ${administeredProfiles(tx, () => tx`
        ${after ? tx`and (p.created_at, p.id) < (${after.cursor}::text::timestamptz, ${after.id}::uuid)` : tx``}
        ${pattern ? tx`and lower(p.name || ' ' || p.username || ' ' || p.email) like ${pattern}` : tx``}
        ${query.service ? tx`and p.services @> ${`{${query.service}}`}::public.service_code[]` : tx``}
        ${query.role ? tx`and p.role = ${query.role}::public.user_role` : tx``}
        ${query.organisationId ? tx`and p.organisation_id = ${query.organisationId}::uuid` : tx``}
        ${query.unitId ? tx`and p.unit_id = any (array(select private.unit_subtree(${query.unitId}::uuid)))` : tx``}
        ${query.managerId ? tx`and p.manager_id = ${query.managerId}::uuid` : tx``}`, { first: EXPORT_PAGE })}
      order by p.created_at desc, p.id desc
      limit ${EXPORT_PAGE}
    ),
    up (start_id, parent_id, path, depth) as (
      select u.id, u.parent_id, u.name, 1 from public.units u where u.id in (select page.unit_id from page)
      union all
      select up.start_id, u.parent_id, u.name || '/' || up.path, up.depth + 1
      from up join public.units u on u.id = up.parent_id
      where up.depth < 64
    )
    select page.id, page.username, page.email, page.name, page.role::text as role, page.services::text[] as services,
           page.created_at, page.created_at::text as cursor,
           (select o.code from public.organisations o where o.id = page.organisation_id) as organisation,
           up.path as unit_path,
           (select m.username from public.profiles m where m.id = page.manager_id) as manager
    from page
    left join up on up.start_id = page.unit_id and up.parent_id is null
    order by page.created_at desc, page.id desc`;
}
