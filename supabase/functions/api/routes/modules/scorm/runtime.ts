// /api/modules/:id/scorm/player, /scos/:scoId/sessions and /learners: what the player needs to start
// a package, opening a session of an attempt at a SCO, and the instructor's view of learners. The
// saves a session receives: ../../scorm-sessions.ts. Ownership, order, the statuses and completion are
// decided in SQL (19_scorm_runtime.sql).
import type { Hono } from 'hono';
import { z } from 'zod';
import {
  initialCmi,
  type ScormVersion,
  scoManifestData,
  scorePercent,
  scoStatus,
} from '../../../../_shared/scorm-data-model.ts';
import type { Config } from '../../../lib/config.ts';
import type { Db } from '../../../lib/db.ts';
import { type Env, requireUser } from '../../../lib/auth.ts';
import { ApiError, fromSqlFunction, pgError } from '../../../lib/errors.ts';
import { firstQueryValues, pageFields, pagingQuery, pathId } from '../../../lib/params.ts';
import { access, MSG, refusal, type Row } from '../../../lib/learning.ts';
import { isoTimestamp } from '../../../../_shared/dates.ts';
import { scormContentUrl } from '../../../lib/scorm/storage.ts';

const NO_PACKAGE = 'This module has no SCORM package';

const learnersQuery = z.object(pageFields);

export function scormRuntimeRoutes(routes: Hono<Env>, config: Config, db: Db) {
  // What the player starts with: the package, its SCOs in order with the learner's status on each.
  routes.get('/player', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const result = await db.withCaller(caller.db, async (tx) => {
      const rights = await access(tx, { ofModule: id });
      if (!rights.visible) return new ApiError(404, MSG.moduleNotFound);
      if (!rights.studiable) return refusal(caller, rights.enrollmentStatus, 'read');
      const [pkg] = await tx<Row[]>`
        select p.version, p.title, p.scos, p.storage_prefix,
               coalesce((select u.completed from public.user_module_progress u
                         where u.module_id = p.module_id and u.user_id = (select auth.uid())), false) as module_completed,
               coalesce((
                 select jsonb_object_agg(a.sco_id, jsonb_build_object(
                          'completion', a.completion_status, 'success', a.success_status, 'score', a.score, 'met', a.met))
                 from (
                   -- The latest attempt's status, unless an earlier one met the rule (kept as the SCO's).
                   select distinct on (a.sco_id) a.sco_id, a.completion_status, a.success_status, a.score,
                          a.met_at is not null as met
                   from public.scorm_attempts a
                   where a.module_id = p.module_id and a.user_id = (select auth.uid())
                   order by a.sco_id, (a.met_at is not null) desc, a.attempt desc
                 ) a), '{}'::jsonb)::text as attempts
        from public.scorm_packages p where p.module_id = ${id}::uuid`;
      if (!pkg) return new ApiError(404, NO_PACKAGE);
      // As text: the driver camel-cases JSON keys, and these keys are the package's SCO ids.
      const attempts = JSON.parse(String(pkg.attempts)) as Record<string, { completion: string; success: string; score: number | null }>;
      const scos = (pkg.scos as { id: string; title: string; href: string }[]).map((s) => {
        const a = attempts[s.id];
        return {
          id: s.id,
          title: s.title,
          href: s.href,
          status: scoStatus(a?.completion, a?.success),
          score: scorePercent(a?.score),
        };
      });
      return {
        moduleId: id,
        version: String(pkg.version) as ScormVersion,
        title: String(pkg.title),
        contentBase: scormContentUrl(config, String(pkg.storagePrefix)),
        scos,
        moduleCompleted: Boolean(pkg.moduleCompleted),
      };
    });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });

  // Opens a session (a sitting of the latest unfinished attempt, or a new attempt) on a SCO.
  routes.post('/scos/:scoId/sessions', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const scoId = c.req.param('scoId') ?? '';
    if (scoId.length < 1 || scoId.length > 255) throw new ApiError(404, 'No such SCO in this package');
    const result = await db.withCaller(caller.db, async (tx) => {
      const rights = await access(tx, { ofModule: id });
      if (!rights.visible) return new ApiError(404, MSG.moduleNotFound);
      if (!rights.studiable) return refusal(caller, rights.enrollmentStatus, 'read');
      const [exists] = await tx<Row[]>`select 1 as one from public.scorm_packages p where p.module_id = ${id}::uuid`;
      if (!exists) return new ApiError(404, NO_PACKAGE);
      try {
        const [row] = await tx<Row[]>`select o.session_id, o.version, o.entry, o.cmi::text as cmi, o.total_seconds, o.learner_id, o.learner_name
          from private.scorm_open_session(${id}::uuid, ${scoId}) o`;
        const version = String(row.version) as ScormVersion;
        // The SCO's manifest data (objectives, passing score, threshold, mastery score), as text: its
        // keys are the manifest's, and objective ids must not be camel-cased by the driver.
        const [manifest] = await tx<Row[]>`
          select s.sco::text as sco from public.scorm_packages p, jsonb_array_elements(p.scos) s(sco)
          where p.module_id = ${id}::uuid and s.sco ->> 'id' = ${scoId}`;
        return {
          sessionId: String(row.sessionId),
          seq: 0,
          cmi: initialCmi(version, {
            learnerId: String(row.learnerId),
            learnerName: String(row.learnerName ?? ''),
            entry: String(row.entry),
            // As text: the driver camel-cases JSON keys, and these are element names.
            saved: JSON.parse(String(row.cmi ?? '{}')) as Record<string, string>,
            totalSeconds: Number(row.totalSeconds ?? 0),
            sco: manifest ? scoManifestData(JSON.parse(String(manifest.sco))) : undefined,
          }),
        };
      } catch (error) {
        if (pgError(error)?.hint === 'scorm_not_enrolled') throw new ApiError(403, MSG.notEnrolledProgress);
        fromSqlFunction(error);
      }
    });
    if (result instanceof ApiError) throw result;
    return c.json(result, 201);
  });

  // The instructor's view: each learner's status, score, time and attempts per SCO.
  routes.get('/learners', async (c) => {
    const caller = requireUser(c);
    const id = pathId(c, 'id', MSG.moduleNotFound);
    const { page, pageSize } = pagingQuery(learnersQuery, firstQueryValues(c));
    const result = await db.withCaller(caller.db, async (tx) => {
      const [module] = await tx<Row[]>`
        select m.id, exists (select 1 from public.scorm_packages p where p.module_id = m.id) as has_package
        from public.course_modules m where m.id = ${id}::uuid`;
      if (!module) return new ApiError(404, MSG.moduleNotFound);
      if (!module.hasPackage) return new ApiError(404, NO_PACKAGE);
      try {
        const rows = await tx<Row[]>`
          select * from private.scorm_module_learners(${id}::uuid, ${pageSize}::integer, ${(page - 1) * pageSize}::integer)`;
        // A page past the end has no row to carry the total: it is read from the first page.
        const [first] = rows.length === 0 && page > 1
          ? await tx<Row[]>`select total from private.scorm_module_learners(${id}::uuid, 1, 0)`
          : rows;
        return {
          items: rows.map((r) => ({
            userId: String(r.userId),
            name: String(r.name ?? ''),
            username: String(r.username ?? ''),
            moduleCompleted: Boolean(r.moduleCompleted),
            scos: (r.scos as Row[]).map((s) => ({
              scoId: String(s.scoId),
              status: scoStatus(String(s.completionStatus), String(s.successStatus)),
              score: scorePercent(s.score),
              totalSeconds: Math.round(Number(s.totalSeconds ?? 0)),
              serverSeconds: Math.round(Number(s.serverSeconds ?? 0)),
              typicalSeconds: s.typicalSeconds == null ? null : Math.round(Number(s.typicalSeconds)),
              quick: s.quick === true,
              attempts: Number(s.attempts),
              lastActivity: isoTimestamp(s.lastActivity),
            })),
          })),
          total: first ? Number(first.total) : 0,
          page,
          pageSize,
        };
      } catch (error) {
        fromSqlFunction(error);
      }
    });
    if (result instanceof ApiError) throw result;
    return c.json(result);
  });
}
