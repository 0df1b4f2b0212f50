// Admin query keys, general to specific (TkDodo): a write invalidates through these factories.
export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  userList: (filters: { search: string; service: string | null; role: string | null; status: string | null; page: number; pageSize: number }) =>
    [...adminKeys.users(), filters] as const,
  roles: () => [...adminKeys.all, 'roles'] as const,
  audit: (page: number) => [...adminKeys.all, 'audit', page] as const,
  courses: () => ['courses'] as const,
  courseList: (filters: { search: string; service: string | null; page: number; pageSize: number }) =>
    [...adminKeys.courses(), 'admin', filters] as const,
};
