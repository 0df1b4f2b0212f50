-- The catalogue's text search (`title ilike '%term%' or description ilike '%term%'`) must stay an
-- index scan with thousands of courses: one trigram index per column lets Postgres combine them.
create extension if not exists pg_trgm with schema extensions;

create index if not exists courses_title_trgm_idx on public.courses using gin (title extensions.gin_trgm_ops);
create index if not exists courses_description_trgm_idx on public.courses using gin (description extensions.gin_trgm_ops);
