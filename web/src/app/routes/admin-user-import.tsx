// /admin/users/import: bulk user import (admins; the route table's RequireAdmin guard). When an
// import finishes, the admin lists (users, permissions, activity) are refetched.
import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { adminKeys } from '@/lib/query-keys';
import { ImportUsersPage } from '@/features/user-import/components/ImportUsersPage';
import { PageMeta } from '@/lib/page/page-meta';
import { useTranslation } from 'react-i18next';

export function AdminUserImportRoute() {
  const { t } = useTranslation('pages');
  const queryClient = useQueryClient();
  const onImported = useCallback(() => void adminKeys.invalidate(queryClient), [queryClient]);
  return (
    <>
      <PageMeta title={t('adminUserImport.title')} description={t('adminUserImport.description')} />
      <ImportUsersPage onImported={onImported} />
    </>
  );
}
