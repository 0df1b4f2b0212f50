-- Image buckets for course covers and module images (DESIGN.md §4 Uploads). Both are public for
-- reading; nobody writes through the API roles: the api function checks the content and size and
-- uploads with the service role.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('course-covers', 'course-covers', true, 5242880, array['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  ('module-images', 'module-images', true, 5242880, array['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
on conflict (id) do nothing;

create policy "anyone reads course covers and module images"
  on storage.objects for select to anon
  using (bucket_id in ('course-covers', 'module-images'));

create policy "signed-in users read course covers and module images"
  on storage.objects for select to authenticated
  using (bucket_id in ('course-covers', 'module-images'));
