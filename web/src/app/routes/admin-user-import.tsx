// /admin/users/import: bulk user import (admins; the route table's RequireAdmin guard). When an
// import finishes, the admin lists (users, permissions, activity) are refetched.
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { adminKeys } from '@/lib/query-keys';
import { ImportUsersPage } from '@/features/user-import/components/ImportUsersPage';
import { PageMeta } from '@/lib/page/page-meta';

export function AdminUserImportRoute() {
  const queryClient = useQueryClient();
  const onImported = useCallback(() => void adminKeys.invalidate(queryClient), [queryClient]);
  return (
    <>
      <PageMeta title="Import users" description="Import user accounts from a CSV file." />
      <ImportUsersPage onImported={onImported} />
    </>
  );
}
