-- The Activity tab's search box (issue 15.2): words of the target, the actor's name or username,
-- matched anywhere (LIKE '%...%') through a trigram index on the same expression the api queries.
create index audit_events_search_idx on public.audit_events using gin
  (lower(coalesce(target_label, '') || ' ' || coalesce(actor_name, '') || ' ' || coalesce(actor_username, '')) extensions.gin_trgm_ops);
