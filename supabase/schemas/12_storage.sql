-- Storage: the image buckets for course covers and module images. Both are public for reading by
-- URL; nobody writes through the API roles: the api function checks the content and size and
-- uploads with the service role, then records the object's name through the functions below.

-- ---------------------------------------------------------------------------
-- Buckets
-- ---------------------------------------------------------------------------

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('course-covers', 'course-covers', true, 5242880, array['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  ('module-images', 'module-images', true, 5242880, array['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
on conflict (id) do nothing;

-- ---------------------------------------------------------------------------
-- Policies
-- ---------------------------------------------------------------------------

create policy "course covers and module images: national admins list"
  on storage.objects for select to authenticated
  using (bucket_id in ('course-covers', 'module-images') and (select private.is_admin()));

-- ---------------------------------------------------------------------------
-- Grants
-- ---------------------------------------------------------------------------

-- Row-level security does not govern TRUNCATE, TRIGGER or REFERENCES: the API roles get none of
-- them on the storage tables either.
do $$
begin
  revoke truncate, trigger, references on storage.objects, storage.buckets from anon, authenticated;
exception when insufficient_privilege then
  -- Hosted Supabase: the storage schema belongs to supabase_storage_admin, which manages these.
  raise notice 'storage privileges left to the storage owner: %', sqlerrm;
end;
$$;

-- ---------------------------------------------------------------------------
-- Functions
-- ---------------------------------------------------------------------------

-- The object name a URL of ours names in `bucket`, when it lies in `course_id`'s folder and exists.
create function private.course_object_name(p_bucket text, p_course_id uuid, p_url text)
returns text
language sql stable security definer
set search_path = ''
as $$
  select o.name from storage.objects o
  where o.bucket_id = p_bucket
    and o.name = p_course_id::text || '/' || substring(p_url from '/storage/v1/object/public/' || p_bucket || '/' || p_course_id::text || '/([A-Za-z0-9-]+\.(?:png|jpg|webp|gif))$')
$$;
comment on function private.course_object_name(text,uuid,text) is
  'The storage object a public URL names in the bucket, if it lies in the course''s own folder and exists; null otherwise.';
revoke all on function private.course_object_name(text,uuid,text) from public;

-- Sets a course's cover; returns the URL it replaced. 42501 when the caller may not change the
-- course, 22023 when the URL is not an existing file of this course's folder.
create function private.set_course_cover(p_course_id uuid, p_url text)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_old text;
begin
  -- The same rule as the policy "authors update their own courses and admins any".
  select c.cover_image into v_old from public.courses c
  where c.id = p_course_id
    and ((select private.is_admin())
         or (c.author_id = (select auth.uid()) and (select private.current_role()) = 'INSTRUCTOR'))
  for update;
  if not found then
    raise exception 'You may not change this course' using errcode = '42501';
  end if;
  if p_url is not null and private.course_object_name('course-covers', p_course_id, p_url) is null then
    raise exception 'The cover must be an uploaded image of this course' using errcode = '22023';
  end if;
  update public.courses set cover_image = p_url where id = p_course_id;
  return v_old;
end;
$$;
comment on function private.set_course_cover(uuid,text) is
  'The only writer of courses.cover_image: for an author or admin who may change the course, an uploaded file of its own folder (or null); returns the old URL.';
revoke all on function private.set_course_cover(uuid,text) from public;
grant execute on function private.set_course_cover(uuid,text) to authenticated;

create function private.set_module_image(p_module_id uuid, p_url text)
returns text
language plpgsql security definer
set search_path = ''
as $$
declare
  v_course_id uuid;
  v_old text;
begin
  -- The same rule as the policy "authors update modules of their courses and admins any".
  select m.course_id, m.image into v_course_id, v_old from public.course_modules m
  where m.id = p_module_id
    and ((select private.is_admin()) or m.course_id in (select private.authored_course_ids()))
  for update;
  if not found then
    raise exception 'You may not change this module' using errcode = '42501';
  end if;
  if p_url is not null and private.course_object_name('module-images', v_course_id, p_url) is null then
    raise exception 'The image must be an uploaded image of this course' using errcode = '22023';
  end if;
  update public.course_modules set image = p_url where id = p_module_id;
  return v_old;
end;
$$;
comment on function private.set_module_image(uuid,text) is
  'The only writer of course_modules.image: for an author or admin who may change the module, an uploaded file of its course''s folder (or null); returns the old URL.';
revoke all on function private.set_module_image(uuid,text) from public;
grant execute on function private.set_module_image(uuid,text) to authenticated;
