-- Course covers and module images are written only by the upload path (security finding 16.1),
-- and the public buckets cannot be listed (16.7).
--
-- Authors could write courses.cover_image and course_modules.image straight through the database
-- API. Pointing their own course's column at another course's file, then replacing the cover or
-- deleting the course or module, made the api function delete that other file with the service
-- role. Now no API role writes either column; private.set_course_cover and private.set_module_image
-- do, for a caller who may change that course, and only with the URL of an object that exists in
-- that course's own folder of the bucket (`<course id>/<file>`). The function also deletes only
-- objects inside the course's own folder (supabase/functions/api/lib/images.ts).
--
-- Listing: public files are served by their URL, which needs no policy; the select policies that
-- let visitors and learners list every file name are gone. Administrators keep a listing policy.

revoke insert (cover_image), update (cover_image) on public.courses from authenticated;
revoke insert (image), update (image) on public.course_modules from authenticated;

-- The object name a URL of ours names in `bucket`, when it lies in `course_id`'s folder and exists.
create function private.course_object_name(p_bucket text, p_course_id uuid, p_url text) returns text
language sql stable security definer
set search_path = ''
as $$
  select o.name from storage.objects o
  where o.bucket_id = p_bucket
    and o.name = p_course_id::text || '/' || substring(p_url from '/storage/v1/object/public/' || p_bucket || '/' || p_course_id::text || '/([A-Za-z0-9-]+\.(?:png|jpg|webp|gif))$')
$$;
comment on function private.course_object_name(text, uuid, text) is
  'The storage object a public URL names in the bucket, if it lies in the course''s own folder and exists; null otherwise.';

-- Sets a course's cover; returns the URL it replaced. 42501 when the caller may not change the
-- course, 22023 when the URL is not an existing file of this course's folder.
create function private.set_course_cover(p_course_id uuid, p_url text) returns text
language plpgsql volatile security definer
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
comment on function private.set_course_cover(uuid, text) is
  'The only writer of courses.cover_image: for an author or admin who may change the course, an uploaded file of its own folder (or null); returns the old URL.';

create function private.set_module_image(p_module_id uuid, p_url text) returns text
language plpgsql volatile security definer
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
comment on function private.set_module_image(uuid, text) is
  'The only writer of course_modules.image: for an author or admin who may change the module, an uploaded file of its course''s folder (or null); returns the old URL.';

revoke all on function private.course_object_name(text, uuid, text), private.set_course_cover(uuid, text),
  private.set_module_image(uuid, text) from public, anon;
grant execute on function private.set_course_cover(uuid, text), private.set_module_image(uuid, text) to authenticated;

-- ---------------------------------------------------------------- listing the public buckets

drop policy "anyone reads course covers and module images" on storage.objects;
drop policy "signed-in users read course covers and module images" on storage.objects;
create policy "administrators list course covers and module images"
  on storage.objects for select to authenticated
  using (bucket_id in ('course-covers', 'module-images') and (select private.is_admin()));
