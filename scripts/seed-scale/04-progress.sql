-- Phase 4: what the learners did, consistent with their enrolments: a user_module_progress row for
-- every completed module (read, completed, quiz passed when the module has a quiz), one passed quiz
-- attempt for each completed module with a quiz (and a failed one before it for every third), and a
-- certificate for every completed enrolment, as private.issue_certificate would have written it.

insert into public.quiz_attempts (id, user_id, quiz_id, score, max_score, passed, answers, started_at, completed_at)
select (lpad(to_hex(e.en), 8, '0') || '-5ca1-4' || lpad(to_hex(m.order_index * 2 + f.failed), 3, '0') || '-8000-000000000007')::uuid,
       e.user_id, q.id,
       case when f.failed = 1 then qs.n / 2 else qs.n end, qs.n, f.failed = 0, '{}'::jsonb,
       e.started_at + (m.order_index - 0.5 * f.failed) * (now() - e.started_at) / (e.modules + 2),
       e.started_at + (m.order_index - 0.5 * f.failed) * (now() - e.started_at) / (e.modules + 2) + interval '6 minutes'
from scale_gen.enrollments e
join public.course_modules m on m.course_id = e.course_id and m.order_index <= e.done and m.has_quiz
join public.quizzes q on q.module_id = m.id
cross join lateral (select count(*)::int as n from public.quiz_questions x where x.quiz_id = q.id) qs
cross join lateral (select 0 as failed union all select 1 where e.en % 3 = 0) f
where e.done > 0 and e.modules > 0;

insert into public.user_module_progress (user_id, module_id, read_at, completed, completed_at, quiz_passed, last_attempt_id,
  created_at, updated_at)
select e.user_id, m.id, t.at, true, t.at, m.has_quiz,
       case when m.has_quiz
            then (lpad(to_hex(e.en), 8, '0') || '-5ca1-4' || lpad(to_hex(m.order_index * 2), 3, '0') || '-8000-000000000007')::uuid end,
       t.at, t.at
from scale_gen.enrollments e
join public.course_modules m on m.course_id = e.course_id and m.order_index <= e.done
cross join lateral (select e.started_at + m.order_index * (now() - e.started_at) / (e.modules + 2) as at) t
where e.done > 0 and e.modules > 0;

insert into public.certificates (id, verification_code, user_id, course_id, cycle, learner_name, course_title, service, template,
  issued_at, expires_at)
select (lpad(to_hex(e.en), 8, '0') || '-5ca1-4000-8000-000000000008')::uuid,
       upper(substr(md5('certificate ' || e.id::text), 1, 16)),
       e.user_id, e.course_id, en.cycle, p.name, c.title, c.service, 'standard',
       en.completed_at,
       case when c.certificate_valid_months is not null
            then en.completed_at + make_interval(months => c.certificate_valid_months) end
from scale_gen.enrollments e
join public.enrollments en on en.id = e.id
join public.profiles p on p.id = e.user_id
join public.courses c on c.id = e.course_id
where en.completed
order by e.en;

-- The instructors' enrolment figures, which the triggers on public.enrollments (off here) would
-- have kept (supabase/schemas/06_instructor_dashboard.sql).
select private.recount_enrolment_figures();
