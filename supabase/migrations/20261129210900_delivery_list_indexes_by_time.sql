-- delivery_list_indexes_by_time: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

DROP INDEX "public"."notifications_created_idx";

DROP INDEX "public"."notifications_email_status_created_idx";

CREATE INDEX notifications_created_idx ON public.notifications USING btree (created_at DESC);

CREATE INDEX notifications_email_status_created_idx ON public.notifications USING btree (email_status, created_at DESC);
