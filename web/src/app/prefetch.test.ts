// The first page's requests start under the keys the components read (else they would fetch again).
import { hashKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { courseKeys, settingsKeys, userKeys } from '@/lib/query-keys';
import { CATALOGUE_PAGE_SIZE } from '@/features/catalogue/api/get-courses';
import { prefetchFirstPage } from './prefetch';

function started(path: string, search = '') {
  const queryClient = createQueryClient();
  prefetchFirstPage(queryClient, { pathname: path, search });
  const keys = queryClient.getQueryCache().getAll().map((query) => query.queryHash);
  queryClient.clear();
  return keys;
}

const hash = (key: readonly unknown[]) => hashKey(key);

describe('prefetchFirstPage', () => {
  it('starts the user, the visitor settings and the catalogue of / with the URL filters at once', () => {
    const keys = started('/', '?service=UKFRS&search=%20fire');
    expect(keys).toContain(hash(userKeys.current));
    expect(keys).toContain(hash(settingsKeys.forCaller(null)));
    expect(keys).toContain(hash(courseKeys.pages({ service: 'UKFRS', search: ' fire', status: 'ACTIVE', pageSize: CATALOGUE_PAGE_SIZE })));
  });

  it('ignores an unknown service as the catalogue does', () => {
    expect(started('/', '?service=NOPE')).toContain(hash(courseKeys.pages({ status: 'ACTIVE', pageSize: CATALOGUE_PAGE_SIZE })));
  });

  it('starts a course page and its outline, but not for /course/create', () => {
    const id = '3f1c2a4e-0000-4000-8000-000000000001';
    const keys = started(`/course/${id}`);
    expect(keys).toContain(hash(courseKeys.detail(id)));
    expect(keys).toContain(hash(courseKeys.modules(id)));
    expect(started('/course/create').some((key) => key.includes('detail'))).toBe(false);
  });
});
