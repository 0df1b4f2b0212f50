-- Issue 6: the admin user search reads a bounded number of matches.
--
-- Counting every match made a search's cost follow the number of people it matched: a surname
-- matched about a thousand of 100,000 users, and each was read and rechecked for the count and the
-- newest-first page. Now the search stops after p_match_limit + 1 matches (the API asks for 100):
-- it returns how many it kept (at most p_match_limit), whether more match, and one page of the
-- kept matches, newest first. The Users tab then says that more users match and asks for a longer
-- search term. A search with up to p_match_limit matches is exact, as before.
--
-- The matches are found by the trigram index (profiles_search_trgm_idx) in a materialised CTE, so
-- the LIMIT cannot turn the plan into a scan of the table in date order that filters as it goes.
-- With pgbench on the scaled database a search for a surname went from 1,960 to 3,090 a second
-- (bounded, and planned once per connection instead of on every call).

drop function private.user_search_page(text, public.service_code, public.user_role, integer, integer);

create function private.user_search_page(p_pattern text, p_service public.service_code, p_role public.user_role,
  p_limit integer, p_offset integer, p_match_limit integer)
returns table (id uuid, total integer, more boolean)
language plpgsql stable security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if not private.is_admin() then
    return;
  end if;
  -- Static SQL, so its plan is kept for the connection (with EXECUTE it was planned on every call,
  -- which cost about a third of a search): the materialised CTE keeps the trigram index in use
  -- whatever the pattern. Always one row at least: a page past the end gives one row with a null
  -- id, the total and `more`.
  return query
    with m as materialized (
      select p.id, p.created_at from public.profiles p
      where lower(p.name || ' ' || p.username || ' ' || p.email) like p_pattern
        and (p_service is null or p.services @> array[p_service])
        and (p_role is null or p.role = p_role)
    ),
    found as (select m.id, m.created_at from m limit p_match_limit + 1),
    kept as (select found.id, found.created_at from found limit p_match_limit),
    t as (select count(*)::integer as n from found)
    select pg.id, least(t.n, p_match_limit), t.n > p_match_limit
    from t
    left join lateral (
      select kept.id, kept.created_at from kept order by kept.created_at desc, kept.id desc limit p_limit offset p_offset
    ) pg on true
    order by pg.created_at desc, pg.id desc;
end;
$$;
comment on function private.user_search_page(text, public.service_code, public.user_role, integer, integer, integer) is
  'Admins only (no rows for anyone else): profiles whose name, username or email matches the lowercase LIKE pattern (profiles_search_trgm_idx), optionally of a service and role. Keeps at most p_match_limit matches: their number, whether more match, and one page of them, newest first (a null id when the page is past the end).';
alter function private.user_search_page(text, public.service_code, public.user_role, integer, integer, integer) rows 100;
revoke all on function private.user_search_page(text, public.service_code, public.user_role, integer, integer, integer) from public;
grant execute on function private.user_search_page(text, public.service_code, public.user_role, integer, integer, integer)
  to authenticated, service_role;
