// Course list keys under ['courses'] (general to specific): a course write refreshes every list.
export const courseKeys = {
  all: ['courses'] as const,
  managed: (filters: { status?: string; mine: boolean; page: number; pageSize: number }) => [...courseKeys.all, filters] as const,
};
