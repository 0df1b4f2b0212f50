// The instructors' enrolment counters (supabase/schemas/06_instructor_dashboard.sql) against the
// same figures counted afresh from public.enrollments and public.courses: one row per difference,
// none when they agree. A course's counters are per slot of learners; a kept row of zeros is the
// same as no row (a course whose enrolments have all gone keeps its rows).
export const ENROLMENT_FIGURES_DRIFT = `
  with counted as (
    select e.course_id, private.enrolment_figures_slot(e.user_id) as slot,
           count(*) filter (where e.status = 'ACTIVE')::int as enrolled,
           count(*) filter (where e.status = 'PENDING')::int as pending,
           count(*) filter (where e.status = 'ACTIVE' and e.completed)::int as completed,
           coalesce(sum(e.progress) filter (where e.status = 'ACTIVE'), 0)::bigint as progress_sum
    from public.enrollments e group by 1, 2
  ),
  kept as (
    select f.course_id, f.slot, f.enrolled, f.pending, f.completed, f.progress_sum
    from private.course_enrolment_figures f
    where (f.enrolled, f.pending, f.completed, f.progress_sum) <> (0, 0, 0, 0)
  ),
  counted_learners as (
    select c.author_id, e.user_id, count(*)::int as enrolments
    from public.enrollments e join public.courses c on c.id = e.course_id
    where e.status = 'ACTIVE' and c.author_id is not null
    group by c.author_id, e.user_id
  ),
  counted_authors as (
    select l.author_id, private.enrolment_figures_slot(l.user_id) as slot, count(*)::int as learners
    from counted_learners l group by 1, 2
  ),
  kept_authors as (select i.author_id, i.slot, i.learners from private.instructor_figures i where i.learners <> 0)
  select 'course figures kept, not counted' as drift, to_jsonb(x) as row from (select * from kept except select * from counted) x
  union all
  select 'course figures counted, not kept', to_jsonb(x) from (select * from counted except select * from kept) x

  union all
  select 'learner kept, not counted', to_jsonb(x) from (
    select l.author_id, l.user_id, l.enrolments from private.instructor_learners l except select * from counted_learners) x
  union all
  select 'learner counted, not kept', to_jsonb(x) from (
    select * from counted_learners except select l.author_id, l.user_id, l.enrolments from private.instructor_learners l) x
  union all
  select 'learners kept, not counted', to_jsonb(x) from (select * from kept_authors except select * from counted_authors) x
  union all
  select 'learners counted, not kept', to_jsonb(x) from (select * from counted_authors except select * from kept_authors) x`;
