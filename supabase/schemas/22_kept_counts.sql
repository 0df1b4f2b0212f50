-- The kept counts' one check: every kept table against its live rule (a private.*_live function of
-- the same columns, beside the table), one row per difference. Kept by triggers in the writes' own
-- transactions: the catalogue's counts (02), the instructors' enrolment figures (06) and each
-- classroom session's places taken (25); kept by a
-- refresh after noted changes: each organisation's compliance summary and per-person counts (20),
-- which "My team" reads (14), compared only where they claim to hold. Why one shape:
-- docs/decisions/kept-counts.md.

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- One kept thing: the rows of p_kept that p_live lacks and the other way round (as many times as
-- they differ), each as jsonb.
create function private.kept_vs_live(p_name text, p_kept text, p_live text)
returns table(kept text, difference text, item jsonb)
language plpgsql volatile
set search_path = ''
as $$
begin
  return query execute format($q$
    with k as (%s), l as (%s)
    select %L, 'kept, not live', to_jsonb(x) from (select * from k except all select * from l) x
    union all
    select %L, 'live, not kept', to_jsonb(x) from (select * from l except all select * from k) x $q$,
    p_kept, p_live, p_name, p_name);
end;
$$;
comment on function private.kept_vs_live(text,text,text) is
  'Internal: the differences between a kept table''s rows (query p_kept) and those its live rule computes (query p_live, the same columns).';
revoke all on function private.kept_vs_live(text,text,text) from public;

-- Every kept count against its live rule. A row of zeros kept is the same as none. The compliance
-- counts are compared for the organisations whose kept counts are current (kept, not out of date
-- by time, no change noted): those are served as they are. The status rule counts no one for a
-- visitor, so a caller is needed (any: it sees everyone here, as in a refresh).
create function private.kept_counts_drift()
returns table(kept text, difference text, item jsonb)
language plpgsql volatile security definer
set search_path = ''
set work_mem = '64MB'
set jit = off
as $$
declare
  v_thing record;
  v_organisation uuid;
begin
  if (select auth.uid()) is null then
    raise exception 'The kept counts are checked as a signed-in caller (the status rule counts no one for a visitor)'
      using errcode = '42501';
  end if;
  for v_thing in
    select t.name, t.kept_rows, t.live_rows from (values
      ('private.course_counts',
       'select c.status, c.service, c.courses from private.course_counts c where c.courses <> 0',
       'select * from private.course_counts_live()'),
      ('private.course_enrolment_figures',
       'select f.course_id, f.slot, f.enrolled, f.pending, f.completed, f.progress_sum
        from private.course_enrolment_figures f where (f.enrolled, f.pending, f.completed, f.progress_sum) <> (0, 0, 0, 0)',
       'select * from private.course_enrolment_figures_live()'),
      ('private.instructor_learners',
       'select l.author_id, l.user_id, l.enrolments from private.instructor_learners l',
       'select * from private.instructor_learners_live()'),
      ('private.instructor_figures',
       'select i.author_id, i.slot, i.learners from private.instructor_figures i where i.learners <> 0',
       'select * from private.instructor_figures_live()'),
      -- 25_classroom_sessions.sql comes later: these run by name when the check does.
      ('public.classroom_sessions.places_taken',
       'select s.id, s.places_taken from public.classroom_sessions s where s.places_taken <> 0',
       'select * from private.session_places_live()')
    ) t(name, kept_rows, live_rows)
  loop
    return query select * from private.kept_vs_live(v_thing.name, v_thing.kept_rows, v_thing.live_rows);
  end loop;
  insert into private.compliance_refreshes (transaction_id) values (pg_current_xact_id());
  for v_organisation in
    select s.organisation_id from private.compliance_summary_scopes s order by 1
  loop
    continue when not private.compliance_summary_is_current(v_organisation);
    return query select * from private.kept_vs_live('private.compliance_summary_counts', format(
      'select k.organisation_id, k.service, k.course_id, k.people, k.compliant, k.due_soon, k.overdue, k.in_progress
       from private.compliance_summary_counts k where k.organisation_id = %L', v_organisation), format(
      'select %1$L::uuid, l.service, l.course_id, l.people, l.compliant, l.due_soon, l.overdue, l.in_progress
       from private.compliance_summary_counts_live(%1$L) l', v_organisation));
    return query select * from private.kept_vs_live('private.compliance_person_counts', format(
      'select k.organisation_id, k.user_id, k.overdue, k.due_soon, k.in_progress, k.done
       from private.compliance_person_counts k where k.organisation_id = %L', v_organisation), format(
      'select %1$L::uuid, l.user_id, l.overdue, l.due_soon, l.in_progress, l.done
       from private.compliance_person_counts_live(%1$L) l', v_organisation));
  end loop;
  delete from private.compliance_refreshes r where r.transaction_id = pg_current_xact_id();
end;
$$;
comment on function private.kept_counts_drift() is
  'Every kept count (the catalogue''s, the instructors'' figures, the classroom sessions'' places taken, each current organisation''s compliance counts) against its live rule: one row per difference, none when all hold. For tests and for checking a deployment; not granted.';
revoke all on function private.kept_counts_drift() from public;
