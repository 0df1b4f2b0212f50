// The catalogue's filters: read from the home page's URL and written back, symmetrically, and the
// API path they make (`welsh=true` for Available in Welsh).
import { describe, expect, it } from 'vitest';
import { catalogueFiltersOf, catalogueParamsOf, catalogueQueryOptions, coursesPath } from './get-courses';

describe('catalogue filters', () => {
  it('reads the service, the search and Available in Welsh from the URL', () => {
    expect(catalogueFiltersOf('?service=UKPS&search=first+aid&welsh=true')).toEqual({
      service: 'UKPS',
      search: 'first aid',
      status: 'ACTIVE',
      welsh: true,
    });
    expect(catalogueFiltersOf('')).toEqual({ service: undefined, search: undefined, status: 'ACTIVE', welsh: undefined });
  });

  it('ignores a welsh value other than true, and an unknown service', () => {
    expect(catalogueFiltersOf('?welsh=1').welsh).toBeUndefined();
    expect(catalogueFiltersOf('?welsh=false').welsh).toBeUndefined();
    expect(catalogueFiltersOf('?service=NOPE').service).toBeUndefined();
  });

  it('writes back what it reads', () => {
    for (const search of ['', '?welsh=true', '?service=UKFRS&welsh=true', '?service=UKAS&search=tân&welsh=true', '?search=x']) {
      const filters = catalogueFiltersOf(search);
      expect(catalogueFiltersOf(catalogueParamsOf(filters).toString())).toEqual(filters);
    }
    expect(catalogueParamsOf({ welsh: true, service: 'UKPS' }).toString()).toBe('service=UKPS&welsh=true');
    expect(catalogueParamsOf({ welsh: false }).toString()).toBe('');
  });

  it('sends welsh=true to the API, and gives the filter its own cache entry', () => {
    expect(coursesPath(catalogueFiltersOf('?welsh=true'), 2)).toBe('/courses?page=2&pageSize=12&status=ACTIVE&welsh=true');
    expect(coursesPath(catalogueFiltersOf(''), 1)).toBe('/courses?page=1&pageSize=12&status=ACTIVE');
    expect(catalogueQueryOptions(catalogueFiltersOf('?welsh=true')).queryKey).not.toEqual(catalogueQueryOptions(catalogueFiltersOf('')).queryKey);
  });
});
