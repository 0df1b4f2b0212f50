-- last_activity_indexes: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

CREATE INDEX enrollments_user_activity_idx ON public.enrollments USING btree (user_id) INCLUDE (created_at, started_at, completed_at);

CREATE INDEX quiz_attempts_user_activity_idx ON public.quiz_attempts USING btree (user_id) INCLUDE (started_at, completed_at);
