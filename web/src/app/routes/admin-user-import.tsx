// /admin/users/import: bulk user import (admins; the route table's RequireAdmin guard). When an
// import finishes, the admin lists (users, permissions, activity) are refetched.
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PRODUCT_NAME } from '@shared/domain.ts';
import { adminKeys } from '@/features/admin/api/keys';
import { ImportUsersPage } from '@/features/user-import/components/ImportUsersPage';

export function AdminUserImportRoute() {
  const queryClient = useQueryClient();
  const onImported = useCallback(() => void queryClient.invalidateQueries({ queryKey: adminKeys.all }), [queryClient]);
  return (
    <>
      <title>{`Import users | ${PRODUCT_NAME}`}</title>
      <ImportUsersPage onImported={onImported} />
    </>
  );
}
