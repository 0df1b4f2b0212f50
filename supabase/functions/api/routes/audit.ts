// /api/audit, admins only: the audit trail (public.audit_events, written by the database's audit
// triggers) as the Activity tab's pages and as a CSV with the same filters. A national administrator
// reads every event; an organisation's administrator the events by or about their
// organisation's people, as row-level security on audit_events decides.
import { Hono } from 'hono';
import { type AuditEvent, pageQuerySchema } from '../../_shared/admin.ts';
import { AUDIT_KINDS, auditFilterSchema, type AuditFilters, auditSentence } from '../../_shared/audit.ts';
import { attachmentDisposition, CSV_CONTENT_TYPE, csvDate, csvFileName, csvJson, csvTime, toCsv } from '../../_shared/csv.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import type { Config } from '../lib/config.ts';
import { containsPattern, type Db, type Statements } from '../lib/db.ts';
import type { Env } from '../lib/auth.ts';
import { validate } from '../lib/body.ts';
import { asPeopleAdmin } from '../lib/admin.ts';
import { firstQueryValues } from '../lib/params.ts';

/** The most events one CSV holds (newest first); narrow the filters for older ones. */
export const AUDIT_EXPORT_LIMIT = 10000;
export const AUDIT_CSV_HEADER = ['date', 'time', 'who', 'username', 'kind', 'what', 'target', 'summary', 'before', 'after'] as const;

function toAuditEvent(row: Record<string, unknown>): AuditEvent {
  const occurredAt = row.occurredAt;
  return {
    id: String(row.id),
    occurredAt: isoTimestamp(occurredAt)!,
    actor: row.actorId || row.actorName
      ? { id: (row.actorId as string) ?? null, name: (row.actorName as string) ?? null, username: (row.actorUsername as string) ?? null }
      : null,
    action: String(row.action),
    targetType: String(row.targetType),
    targetId: (row.targetId as string) ?? null,
    targetLabel: (row.targetLabel as string) ?? null,
    oldData: (row.oldData as Record<string, unknown>) ?? null,
    newData: (row.newData as Record<string, unknown>) ?? null,
  };
}

/** The Activity tab's filters as SQL (every one served by an index of audit_events). */
function auditWhere(tx: Statements, f: AuditFilters) {
  return tx`
    where true
    ${f.actor ? tx`and actor_id = ${f.actor}::uuid` : tx``}
    ${f.action ? tx`and action = ${f.action}` : tx``}
    ${f.from ? tx`and occurred_at >= (${f.from}::date::timestamp at time zone 'Europe/London')` : tx``}
    ${f.to ? tx`and occurred_at < ((${f.to}::date + 1)::timestamp at time zone 'Europe/London')` : tx``}
    ${f.search
      ? tx`and lower(coalesce(target_label, '') || ' ' || coalesce(actor_name, '') || ' ' || coalesce(actor_username, ''))
             like ${containsPattern(f.search.toLowerCase())}`
      : tx``}`;
}

/** The events that match, newest first, one page (not yet run). */
function selectAuditEvents(tx: Statements, f: AuditFilters, limit: number, offset: number) {
  return tx<Record<string, unknown>[]>`
    select id, occurred_at, actor_id, actor_name, actor_username, action, target_type, target_id,
           target_label, old_data, new_data
    from public.audit_events ${auditWhere(tx, f)}
    order by occurred_at desc, id desc
    limit ${limit} offset ${offset}`;
}

/** How many events match. */
async function countAuditEvents(tx: Statements, f: AuditFilters): Promise<number> {
  const [{ total }] = await tx<{ total: number }[]>`select count(*)::int as total from public.audit_events ${auditWhere(tx, f)}`;
  return total;
}

/** One CSV row of an event: date, time, who, what, the sentence and the data before and after. */
function auditCsvRow(e: AuditEvent) {
  return [
    csvDate(e.occurredAt), csvTime(e.occurredAt), e.actor?.name ?? 'System', e.actor?.username ?? '', e.action,
    AUDIT_KINDS[e.action] ?? e.action, e.targetLabel ?? '', auditSentence(e), csvJson(e.oldData), csvJson(e.newData),
  ];
}

export function auditRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const raw = firstQueryValues(c);
    const query = validate(pageQuerySchema, raw);
    const filters = validate(auditFilterSchema, raw);
    const page = await asPeopleAdmin(db, c, async (tx) => {
      const total = await countAuditEvents(tx, filters);
      const rows = await selectAuditEvents(tx, filters, query.pageSize, (query.page - 1) * query.pageSize);
      return { items: rows.map(toAuditEvent), total, page: query.page, pageSize: query.pageSize };
    });
    return c.json(page);
  });

  /** The same filters as a CSV (admins only), at most AUDIT_EXPORT_LIMIT events, newest first. */
  routes.get('/export.csv', async (c) => {
    const filters = validate(auditFilterSchema, firstQueryValues(c));
    const rows = await asPeopleAdmin(db, c, (tx) => selectAuditEvents(tx, filters, AUDIT_EXPORT_LIMIT, 0));
    const csv = toCsv(AUDIT_CSV_HEADER, rows.map(toAuditEvent).map(auditCsvRow));
    return c.body(csv, 200, {
      'content-type': CSV_CONTENT_TYPE,
      'content-disposition': attachmentDisposition(csvFileName('activity')),
      'cache-control': 'no-store',
    });
  });

  return routes;
}
