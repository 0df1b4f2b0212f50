-- compliance_counts_key: written by `npm run db:diff` from the change to supabase/schemas/ (reviewed by hand).

ALTER TABLE "private"."compliance_summary_counts"
  ADD COLUMN "id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL;

ALTER TABLE "private"."compliance_summary_counts"
  ADD CONSTRAINT "compliance_summary_counts_pkey" PRIMARY KEY (id);
