-- Issue 6: the admin user search finds a common word from a b-tree, in as few steps at national size
-- as in the demo.
--
-- A search for a word like a surname matched about a thousand of 100,000 people. The trigram index
-- (profiles_search_trgm_idx) found all of them before the search kept 100, and each kept match was
-- read from the table to be checked: the search cost three times what it cost on the demo seed.
--
-- private.profile_search_words holds each person's words: the runs of letters and digits of the
-- lowercase name, username and email (the text the search matches), kept by statement-level
-- triggers on public.profiles. A one-word search (letters and digits only, as the API passes it in
-- p_word) first reads the first p_match_limit + 1 words that begin with it from the primary key, in
-- key order (an index-only scan). Every such person matches the search (the word is part of their
-- text). When those entries are as many different people, the search keeps the first p_match_limit
-- of them and says that more match, without touching the trigram index or the profiles. Otherwise
-- (fewer people, a person twice, a filter by service or role, a term with spaces or punctuation) it
-- searches as before, and its answer is exact. Either way the cost is bounded.

create table private.profile_search_words (
  word text collate "C" not null,
  profile_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null,
  primary key (word, profile_id) include (created_at)
);
comment on table private.profile_search_words is
  'Each profile''s words (runs of letters and digits of lower(name || '' '' || username || '' '' || email)) with its created_at, kept by the triggers on public.profiles; read by private.user_search_page.';
-- A profile's words are found by its id when it changes or goes.
create index profile_search_words_profile_id_idx on private.profile_search_words (profile_id);

-- No API role reads or writes it; only the security definer functions below (owned by its owner).
alter table private.profile_search_words enable row level security;
create policy "no direct access" on private.profile_search_words as restrictive for all to public
  using (false) with check (false);
revoke all on private.profile_search_words from public, anon, authenticated, service_role;

-- A profile's words: the distinct runs of letters and digits of the text the search matches.
create function private.profile_words(p_name text, p_username text, p_email text)
returns setof text
language sql immutable strict parallel safe
set search_path = ''
as $$
  select distinct w
  from regexp_split_to_table(lower(p_name || ' ' || p_username || ' ' || p_email), '[^[:alnum:]]+') w
  where w <> ''
$$;
comment on function private.profile_words(text, text, text) is
  'The words private.profile_search_words holds for a profile: distinct runs of letters and digits of lower(name || '' '' || username || '' '' || email).';
revoke all on function private.profile_words(text, text, text) from public;

create function private.index_profile_words() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- On an update, only the profiles whose searched text (or creation time) changed. old_rows /
  -- new_rows exist only for their events.
  if tg_op = 'UPDATE' then
    delete from private.profile_search_words w
    using old_rows o join new_rows n on n.id = o.id
    where w.profile_id = o.id
      and (o.name, o.username, o.email, o.created_at) is distinct from (n.name, n.username, n.email, n.created_at);
    insert into private.profile_search_words (word, profile_id, created_at)
    select t.word, n.id, n.created_at
    from old_rows o
    join new_rows n on n.id = o.id
    cross join lateral private.profile_words(n.name, n.username, n.email) t(word)
    where (o.name, o.username, o.email, o.created_at) is distinct from (n.name, n.username, n.email, n.created_at);
  elsif tg_op = 'INSERT' then
    insert into private.profile_search_words (word, profile_id, created_at)
    select t.word, n.id, n.created_at
    from new_rows n
    cross join lateral private.profile_words(n.name, n.username, n.email) t(word);
  end if;
  return null;
end;
$$;
comment on function private.index_profile_words() is
  'Keeps private.profile_search_words in step with public.profiles (statement-level triggers; a deleted profile''s words go by the foreign key).';
revoke all on function private.index_profile_words() from public;

-- The triggers and the words of the profiles already there in one transaction, with the table locked
-- against writes meanwhile, so that no profile is missed or indexed twice.
do $$
begin
  lock table public.profiles in share row exclusive mode;
  create trigger profiles_search_words_insert after insert on public.profiles
    referencing new table as new_rows for each statement execute function private.index_profile_words();
  create trigger profiles_search_words_update after update on public.profiles
    referencing old table as old_rows new table as new_rows for each statement execute function private.index_profile_words();
  insert into private.profile_search_words (word, profile_id, created_at)
  select t.word, p.id, p.created_at
  from public.profiles p
  cross join lateral private.profile_words(p.name, p.username, p.email) t(word);
end;
$$;
-- Statistics for the planner now rather than at autovacuum's next visit.
analyze private.profile_search_words;

drop function private.user_search_page(text, public.service_code, public.user_role, integer, integer, integer);

create function private.user_search_page(p_pattern text, p_word text, p_service public.service_code, p_role public.user_role,
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
  -- A one-word search without filters: the people of the first words that begin with it. Answered
  -- here only when they are more than the limit; a page past the end gives one row with a null id,
  -- the total and `more`.
  if p_word is not null and p_word <> '' and p_service is null and p_role is null then
    return query
      with hits as materialized (
        select w.profile_id, w.created_at from private.profile_search_words w
        where w.word >= p_word and w.word < p_word || chr(1114111)
        order by w.word, w.profile_id
        limit p_match_limit + 1
      ),
      t as (select count(distinct h.profile_id)::integer as people from hits h)
      select pg.id, p_match_limit, true
      from t
      left join lateral (
        select kept.id, kept.created_at
        from (select h.profile_id as id, h.created_at from hits h limit p_match_limit) kept
        order by kept.created_at desc, kept.id desc limit p_limit offset p_offset
      ) pg on true
      where t.people > p_match_limit
      order by pg.created_at desc, pg.id desc;
    if found then
      return;
    end if;
  end if;
  -- Static SQL, so its plan is kept for the connection: the materialised CTE keeps the trigram
  -- index in use whatever the pattern. Always one row at least: a page past the end gives one row
  -- with a null id, the total and `more`.
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
comment on function private.user_search_page(text, text, public.service_code, public.user_role, integer, integer, integer) is
  'Admins only (no rows for anyone else): profiles whose name, username or email matches the lowercase LIKE pattern, optionally of a service and role. Keeps at most p_match_limit matches: their number, whether more match, and one page of them, newest first (a null id when the page is past the end). p_word, the search when it is one word of letters and digits, lets a common word be answered from private.profile_search_words.';
alter function private.user_search_page(text, text, public.service_code, public.user_role, integer, integer, integer) rows 100;
revoke all on function private.user_search_page(text, text, public.service_code, public.user_role, integer, integer, integer) from public;
grant execute on function private.user_search_page(text, text, public.service_code, public.user_role, integer, integer, integer)
  to authenticated, service_role;
