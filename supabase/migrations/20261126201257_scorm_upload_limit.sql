-- scorm_upload_limit: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

ALTER TABLE "public"."settings"
  DROP CONSTRAINT "settings_scorm_max_upload_mb_range";

-- Data step (by hand): a limit set above the new maximum becomes the maximum, so the check holds.
UPDATE "public"."settings" SET scorm_max_upload_mb = 1024 WHERE scorm_max_upload_mb > 1024;

ALTER TABLE "public"."settings"
  ADD CONSTRAINT "settings_scorm_max_upload_mb_range" CHECK (((scorm_max_upload_mb >= 1) AND (scorm_max_upload_mb <= 1024)));

COMMENT ON COLUMN "public"."settings"."scorm_max_upload_mb" IS 'The largest SCORM package (zip) an author may upload, in MB (1 to 1,024); the api function refuses a larger one with 413 before reading it whole.';
