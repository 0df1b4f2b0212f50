import { describe, expect, it } from 'vitest';
import { keptAlways, personCacheName, personOfAuthorization } from './kept-answers';

const encode = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const token = (claims: object) => `Bearer ${encode({ alg: 'ES256' })}.${encode(claims)}.signature`;
const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

describe("a person's kept answers", () => {
  it('names the cache after the signed-in person of the bearer token', () => {
    expect(personOfAuthorization(token({ sub: id, role: 'authenticated' }))).toBe(id);
    expect(personCacheName(id)).toBe(`esl-person-${id}`);
  });

  it('keeps nothing for a visitor (the anon key), a malformed token or none', () => {
    expect(personOfAuthorization(token({ role: 'anon' }))).toBeNull();
    expect(personOfAuthorization(token({ sub: 'not-a-uuid', role: 'authenticated' }))).toBeNull();
    expect(personOfAuthorization('Bearer nonsense')).toBeNull();
    expect(personOfAuthorization(null)).toBeNull();
  });

  it('keeps who the person is and their courses, never a quiz (starting one starts its clock)', () => {
    expect(keptAlways('/user')).toBe(true);
    expect(keptAlways(`/users/${id}/enrollments`)).toBe(true);
    expect(keptAlways('/certificates')).toBe(true);
    expect(keptAlways(`/modules/${id}/quiz`)).toBe(false);
    expect(keptAlways(`/modules/${id}`)).toBe(false);
    expect(keptAlways('/admin/users')).toBe(false);
  });
});
