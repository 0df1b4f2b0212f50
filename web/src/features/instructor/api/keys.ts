// Query keys of the instructor dashboard, general to specific; mutations invalidate through these.
export const instructorKeys = {
  all: ['instructor'] as const,
  stats: () => [...instructorKeys.all, 'stats'] as const,
  students: (filters: { courseId?: string; status?: string; page: number }) => [...instructorKeys.all, 'students', filters] as const,
  analytics: (filters: { page: number }) => [...instructorKeys.all, 'analytics', filters] as const,
};
