// Header account area: a placeholder while the user loads, a Login button for visitors, else the
// user menu (initials avatar and name; Profile, My Dashboard, My team for managers, My Courses, Admin Dashboard
// for admins, Logout).
import { Button, Group, Skeleton, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useUser } from '@/lib/auth/user';
import { AccountButton } from './AccountButton';
import { lazyMenu } from './LazyMenu';

// The menu's code loads with its first use (LazyMenu.tsx).
const AccountMenu = lazyMenu(() => import('./AccountMenu'));

export function UserMenu() {
  const { t } = useTranslation();
  const { data: user, isPending } = useUser();

  if (isPending) {
    return (
      <Group gap="xs" data-testid="user-loading">
        <Skeleton height={32} circle />
        <Skeleton height={12} width={80} />
        <VisuallyHidden>{t('userMenu.loading')}</VisuallyHidden>
      </Group>
    );
  }

  if (!user) {
    return (
      <Button component={Link} to="/auth" data-guest-login>
        {t('userMenu.login')}
      </Button>
    );
  }

  return <AccountMenu user={user} button={(handlers) => <AccountButton name={user.name} {...handlers} />} />;
}
