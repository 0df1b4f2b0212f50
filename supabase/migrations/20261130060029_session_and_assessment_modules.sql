-- session_and_assessment_modules: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

SET local check_function_bodies = off;

ALTER TABLE "public"."course_modules"
  DROP CONSTRAINT "course_modules_kind";

ALTER TABLE "public"."notification_preferences"
  DROP CONSTRAINT "notification_preferences_kinds_known";

ALTER TABLE "public"."notifications"
  DROP CONSTRAINT "notifications_kind_known";

ALTER TABLE "public"."courses"
  ADD COLUMN "sessions_need_manager_approval" boolean NOT NULL DEFAULT false;

ALTER TABLE "public"."settings"
  ADD COLUMN "session_offer_hours" integer NOT NULL DEFAULT 48;

CREATE OR REPLACE FUNCTION private.settle_module (
  p_user_id   uuid,
  p_module_id uuid
)
  RETURNS void
  LANGUAGE plpgsql
  SECURITY DEFINER
  SET search_path TO ''
  AS $function$
declare
  v_kind text := (select m.kind from public.course_modules m where m.id = p_module_id);
begin
  -- Each kind's own rule, checked (and planned) only for a module of that kind.
  case v_kind
    when 'scorm' then
      if not private.scorm_module_met(p_user_id, p_module_id) then return; end if;
    when 'session' then
      if not private.session_attended(p_user_id, p_module_id) then return; end if;
    when 'assessment' then
      if not private.assessment_signed_off(p_user_id, p_module_id) then return; end if;
    else null;
  end case;
  update public.user_module_progress ump
  set completed = true, completed_at = now()
  where ump.user_id = p_user_id and ump.module_id = p_module_id and not ump.completed
    and ump.read_at is not null
    and (ump.quiz_passed or not exists (select 1 from public.quizzes q where q.module_id = p_module_id));
end;
$function$;

ALTER TABLE "public"."course_modules"
  ADD CONSTRAINT "course_modules_kind" CHECK ((kind = ANY (ARRAY['content'::text, 'scorm'::text, 'session'::text, 'assessment'::text])));

ALTER TABLE "public"."notification_preferences"
  ADD CONSTRAINT "notification_preferences_kinds_known"
    CHECK
    ((email_off <@ ARRAY['training-assigned'::text, 'training-due-soon'::text, 'training-overdue'::text, 'manager-escalation'::text, 'certificate-expiring'::text,
    'certificate-expired'::text,
    'certificate-issued'::text,
    'enrolment-approved'::text,
    'enrolment-declined'::text,
    'manager-digest'::text,
    'session-booked'::text,
    'session-waiting'::text,
    'session-place-offered'::text,
    'session-changed'::text,
    'session-cancelled'::text,
    'session-reminder'::text, 'session-approval-requested'::text, 'session-booking-declined'::text, 'assessment-recorded'::text, 'reassessment-requested'::text]));

ALTER TABLE "public"."notifications"
  ADD CONSTRAINT "notifications_kind_known"
    CHECK
    ((kind = ANY (ARRAY['training-assigned'::text, 'training-due-soon'::text, 'training-overdue'::text, 'manager-escalation'::text, 'certificate-expiring'::text,
    'certificate-expired'::text,
    'certificate-issued'::text,
    'enrolment-approved'::text,
    'enrolment-declined'::text,
    'manager-digest'::text,
    'account-welcome'::text,
    'session-booked'::text,
    'session-waiting'::text,
    'session-place-offered'::text,
    'session-changed'::text,
    'session-cancelled'::text,
    'session-reminder'::text, 'session-approval-requested'::text, 'session-booking-declined'::text, 'assessment-recorded'::text, 'reassessment-requested'::text])));

ALTER TABLE "public"."settings"
  ADD CONSTRAINT "settings_session_offer_hours_range" CHECK (((session_offer_hours >= 1) AND (session_offer_hours <= 336)));

COMMENT ON COLUMN "public"."course_modules"."kind" IS 'content: a Markdown body (and perhaps a quiz); scorm: a SCORM package (public.scorm_packages), content stays empty; session: a classroom session booked on one of its dates (25_classroom_sessions.sql), completed when the register marks the learner attended; assessment: a practical assessment signed off by an assessor (26_practical_assessments.sql). The content of session and assessment modules is the learner''s introduction to them.';

COMMENT ON COLUMN "public"."courses"."sessions_need_manager_approval" IS 'True: a learner''s booking of a classroom session waits for their line manager''s approval (a learner without a manager books at once).';

COMMENT ON FUNCTION "private"."settle_module"(uuid, uuid) IS 'Internal: marks the module complete when read and its quiz (if any) passed; a SCORM module also when its package''s rule is met for every SCO, a session when the learner attended, an assessment when it is signed off.';

REVOKE ALL ("sessions_need_manager_approval") ON TABLE "public"."courses" FROM "authenticated";

GRANT INSERT ("sessions_need_manager_approval"), UPDATE ("sessions_need_manager_approval") ON TABLE "public"."courses" TO "authenticated";

REVOKE ALL ("session_offer_hours") ON TABLE "public"."settings" FROM "anon";

GRANT SELECT ("session_offer_hours") ON TABLE "public"."settings" TO "anon";

REVOKE ALL ("session_offer_hours") ON TABLE "public"."settings" FROM "authenticated";

GRANT SELECT ("session_offer_hours"), UPDATE ("session_offer_hours") ON TABLE "public"."settings" TO "authenticated";
