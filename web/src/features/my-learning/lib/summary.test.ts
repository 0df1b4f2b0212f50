import { describe, expect, it } from 'vitest';
import type { Enrollment } from '../api/get-enrollments';
import { summarise } from './summary';

function enrolment(overrides: Partial<Enrollment>): Enrollment {
  return {
    id: 'e', userId: 'u', courseId: 'c', progress: 0, completed: false, status: 'ACTIVE',
    startedAt: '2026-11-01T10:00:00.000Z', completedAt: null, lastAccessedModuleId: null, lastActivityAt: null,
    completedModules: 0, cycle: 1, certificateId: null, certificate: null,
    course: { id: 'c', title: 'T', titleCy: null, description: 'D', service: 'UKPS', duration: 1, modules: 3 },
    ...overrides,
  };
}

describe('summarise', () => {
  it('splits, averages (rounded) and lists distinct services', () => {
    const s = summarise([
      enrolment({ id: 'a', progress: 0 }),
      enrolment({ id: 'b', progress: 50, course: { id: 'x', title: 'X', titleCy: null, description: '', service: 'UKAS', duration: 1, modules: 2 } }),
      enrolment({ id: 'c', progress: 100, completed: true, completedAt: '2026-11-07T12:00:00Z' }),
      enrolment({ id: 'd', status: 'PENDING', course: null }),
    ]);
    expect(s.total).toBe(4);
    expect(s.inProgress.map((e) => e.id)).toEqual(['a', 'b', 'd']);
    expect(s.completed.map((e) => e.id)).toEqual(['c']);
    expect(s.overallProgress).toBe(38); // 150 / 4 = 37.5
    expect(s.services).toEqual(['UKPS', 'UKAS']);
  });

  it('is all zero without enrolments', () => {
    expect(summarise([])).toEqual({ total: 0, inProgress: [], completed: [], overallProgress: 0, services: [] });
  });
});

