// /api/me/cpd-entries: the caller's own CPD entries (list, read, add, change, delete). Only their
// own: every statement names the caller, and cpd_entries' policies hold the same rule. The CPD
// record that gathers them: routes/learning-record.ts.
import { Hono } from 'hono';
import type { z } from 'zod';
import { CPD_MESSAGES, type CpdEntry, cpdEntrySchema, cpdListQuerySchema } from '../../_shared/cpd.ts';
import { isoTimestamp } from '../../_shared/dates.ts';
import type { Config } from '../lib/config.ts';
import type { Db, Tx } from '../lib/db.ts';
import { type Env, requireUser } from '../lib/auth.ts';
import { jsonBody, validate } from '../lib/body.ts';
import { ApiError } from '../lib/errors.ts';
import { pathId } from '../lib/params.ts';

const ENTRY_NOT_FOUND = 'CPD entry not found';
const entryNotFound = () => new ApiError(404, ENTRY_NOT_FOUND);
const forbidden = () => new ApiError(403, 'Only administrators may see another person\'s learning record');

/** The table's checks, should a request slip past the schema (a date that became "future" at midnight). */
export function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown })?.code;
  const constraint = String((error as { constraint_name?: unknown; constraint?: unknown })?.constraint_name ?? '');
  if (code === '23514') {
    const field = constraint.includes('hours') ? 'hours'
      : constraint.includes('activity_date') ? 'activityDate'
      : constraint.includes('activity') ? 'activity'
      : constraint.includes('learnt') ? 'learnt'
      : constraint.includes('reflection') ? 'reflection'
      : 'activityDate';
    const message = field === 'activityDate' ? CPD_MESSAGES.dateFuture : 'Invalid value';
    throw new ApiError(400, 'Validation failed', { [field]: message });
  }
  if (code === '42501') throw forbidden();
  throw error;
}

export interface EntryRow {
  id: string;
  activityDate: string;
  activity: string;
  hours: number;
  learnt: string;
  reflection: string;
  createdAt: Date;
  updatedAt: Date;
}

export const ENTRY_COLUMNS = 'id, activity_date::text as activity_date, activity, hours::float8 as hours, learnt, reflection, created_at, updated_at';

export function toEntry(row: EntryRow): CpdEntry {
  return {
    id: row.id,
    activityDate: row.activityDate,
    activity: row.activity,
    hours: Number(row.hours),
    learnt: row.learnt,
    reflection: row.reflection,
    createdAt: isoTimestamp(row.createdAt)!,
    updatedAt: isoTimestamp(row.updatedAt)!,
  };
}

type EntryInput = z.infer<typeof cpdEntrySchema>;

/** One page of the caller's entries, newest activity first, and how many there are. */
async function listEntries(tx: Tx, userId: string, page: number, pageSize: number) {
  const rows = await tx.unsafe<(EntryRow & { total: number })[]>(
    `select ${ENTRY_COLUMNS}, count(*) over ()::int as total from public.cpd_entries
     where user_id = $1::uuid order by activity_date desc, created_at desc, id limit $2 offset $3`,
    [userId, pageSize, (page - 1) * pageSize],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && page > 1) {
    // Past the last page the window count is empty: count separately so the pager still knows.
    const [count] = await tx<{ total: number }[]>`select count(*)::int as total from public.cpd_entries where user_id = ${userId}::uuid`;
    total = count.total;
  }
  return { items: rows.map(toEntry), total };
}

function readEntry(tx: Tx, id: string, userId: string) {
  return tx.unsafe<EntryRow[]>(`select ${ENTRY_COLUMNS} from public.cpd_entries where id = $1::uuid and user_id = $2::uuid`, [id, userId]);
}

function insertEntry(tx: Tx, input: EntryInput) {
  return tx.unsafe<EntryRow[]>(
    `insert into public.cpd_entries (activity_date, activity, hours, learnt, reflection)
     values ($1::date, $2, $3::numeric, $4, $5) returning ${ENTRY_COLUMNS}`,
    [input.activityDate, input.activity, input.hours, input.learnt, input.reflection],
  );
}

function updateEntry(tx: Tx, id: string, userId: string, input: EntryInput) {
  return tx.unsafe<EntryRow[]>(
    `update public.cpd_entries
     set activity_date = $2::date, activity = $3, hours = $4::numeric, learnt = $5, reflection = $6
     where id = $1::uuid and user_id = $7::uuid returning ${ENTRY_COLUMNS}`,
    [id, input.activityDate, input.activity, input.hours, input.learnt, input.reflection, userId],
  );
}

function deleteEntry(tx: Tx, id: string, userId: string) {
  return tx`delete from public.cpd_entries where id = ${id}::uuid and user_id = ${userId}::uuid returning id`;
}

export function cpdEntryRoutes(_config: Config, db: Db) {
  const routes = new Hono<Env>();

  routes.get('/', async (c) => {
    const caller = requireUser(c);
    const { page, pageSize } = validate(cpdListQuerySchema, {
      page: c.req.query('page') ?? undefined,
      pageSize: c.req.query('pageSize') ?? undefined,
    });
    const result = await db.withCaller(caller.db, (tx) => listEntries(tx, caller.userId, page, pageSize));
    return c.json({ ...result, page, pageSize });
  });

  routes.get('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', ENTRY_NOT_FOUND);
    const [row] = await db.withCaller(caller.db, (tx) => readEntry(tx, id, caller.userId));
    if (!row) throw entryNotFound();
    return c.json(toEntry(row));
  });

  routes.post('/', async (c) => {
    const caller = requireUser(c);
    const input = await jsonBody(c, cpdEntrySchema);
    try {
      const [row] = await db.withCaller(caller.db, (tx) => insertEntry(tx, input));
      return c.json(toEntry(row), 201);
    } catch (error) {
      fromDatabase(error);
    }
  });

  routes.put('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', ENTRY_NOT_FOUND);
    const input = await jsonBody(c, cpdEntrySchema);
    let row: EntryRow | undefined;
    try {
      [row] = await db.withCaller(caller.db, (tx) => updateEntry(tx, id, caller.userId, input));
    } catch (error) {
      fromDatabase(error);
    }
    if (!row) throw entryNotFound();
    return c.json(toEntry(row));
  });

  routes.delete('/:id', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', ENTRY_NOT_FOUND);
    const deleted = await db.withCaller(caller.db, (tx) => deleteEntry(tx, id, caller.userId));
    if (deleted.length === 0) throw entryNotFound();
    return c.body(null, 204);
  });

  return routes;
}
