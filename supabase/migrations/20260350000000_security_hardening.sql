-- Security hardening (audit of what a client talking straight to the database API can do as anon or
-- authenticated, bypassing the api function). Proven in supabase/tests/security.test.ts.
--
-- 1. Authoring tables: the API roles held table-wide insert/update on courses, course_modules,
--    quizzes and quiz_questions, so an author could forge id, created_at and updated_at (e.g. a
--    created_at in the future pins their course to the top of the catalogue's "newest first").
--    Now only the content columns are writable; the row policies still decide which rows.
-- 2. profiles.email: a user may update their own profile's email (the profile page's contract), but
--    could set it to another account's address, impersonating that user in instructor and admin
--    views and making the admin clash check and private.email_taken answer for the wrong account.
--    A non-admin API caller may now set only a well-formed address nobody else uses (23505 else).
-- 3. storage.buckets and storage.objects: the API roles held TRUNCATE, TRIGGER and REFERENCES, which
--    row-level security does not govern (anon could truncate storage.objects). Revoked.

-- ---------------------------------------------------------------- 1. authoring column privileges

revoke insert, update on public.courses, public.course_modules, public.quizzes, public.quiz_questions
  from anon, authenticated;

grant insert (title, description, service, cover_image, author_id, duration, level, featured,
              requires_enrollment, status),
      update (title, description, service, cover_image, author_id, duration, level, featured,
              requires_enrollment, status)
  on public.courses to authenticated;

grant insert (course_id, title, content, order_index, duration, has_quiz, image),
      update (course_id, title, content, order_index, duration, has_quiz, image)
  on public.course_modules to authenticated;

grant insert (module_id, title, description, passing_score, time_limit, randomize_questions),
      update (module_id, title, description, passing_score, time_limit, randomize_questions)
  on public.quizzes to authenticated;

grant insert (quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation),
      update (quiz_id, question_text, question_type, order_index, points, options, correct_answers, explanation)
  on public.quiz_questions to authenticated;

-- ---------------------------------------------------------------- 2. profile email

create function private.guard_profile_email() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  -- Only the API roles are checked. Inside a security definer function current_user is the owner,
  -- so the caller's role is read from the role setting (`set local role`, as the api and PostgREST do).
  if coalesce(current_setting('role', true), 'none') in ('anon', 'authenticated')
     and new.email is distinct from old.email
     and not private.is_admin() then
    if new.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
      raise exception 'Enter a valid email address' using errcode = '23514';
    end if;
    if exists (select 1 from auth.users u where lower(u.email) = lower(new.email) and u.id <> new.id)
       or exists (select 1 from public.profiles p where lower(p.email) = lower(new.email) and p.id <> new.id) then
      raise exception 'Email is already registered' using errcode = '23505';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.guard_profile_email() is
  'Before-update trigger on profiles: a non-admin API caller may set their profile email only to a well-formed address no other account uses (23514 / 23505).';
revoke all on function private.guard_profile_email() from public;

create trigger profiles_guard_email
  before update of email on public.profiles
  for each row execute function private.guard_profile_email();

-- ---------------------------------------------------------------- 3. storage privileges outside RLS

do $$
begin
  revoke truncate, trigger, references on storage.objects, storage.buckets from anon, authenticated;
exception when insufficient_privilege then
  -- Hosted Supabase: the storage schema belongs to supabase_storage_admin, which manages these.
  raise notice 'storage privileges left to the storage owner: %', sqlerrm;
end;
$$;
