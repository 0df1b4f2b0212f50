// The account menu: Profile, My Dashboard, My team for managers, My Courses, Training passport, Admin Dashboard for
// admins, Logout. Loaded with its first use (LazyMenu.tsx).
import { useEffect, useRef } from 'react';
import { Menu } from '@mantine/core';
import { IconBooks, IconId, IconLayoutDashboard, IconLogout, IconShieldLock, IconUser, IconUsersGroup } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@shared/domain.ts';
import { useLogout } from '@/lib/auth/logout';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { AccountButton } from './AccountButton';
import type { OpenOnMount } from './LazyMenu';

export default function AccountMenu({ user, openOnMount }: { user: CurrentUser } & OpenOnMount) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const target = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!openOnMount) return;
    target.current?.focus();
    target.current?.click();
  }, [openOnMount]);
  const logout = useLogout({
    onSuccess: () => {
      notifySuccess(t('userMenu.loggedOut'), t('userMenu.loggedOutDetail'));
      navigate('/');
    },
    onError: (error) => {
      notifyFailure(t('userMenu.logoutFailed'), errorDescription(error, t('userMenu.tryAgain')));
      navigate('/');
    },
  });

  return (
    <Menu position="bottom-end" width={220} withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <AccountButton ref={target} name={user.name} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} aria-hidden="true" />}>
          {t('userMenu.profile')}
        </Menu.Item>
        <Menu.Item component={Link} to="/dashboard" leftSection={<IconLayoutDashboard size={16} aria-hidden="true" />}>
          {t('nav.dashboard')}
        </Menu.Item>
        {user.hasReports && (
          <Menu.Item component={Link} to="/team" leftSection={<IconUsersGroup size={16} aria-hidden="true" />}>
            {t('nav.team')}
          </Menu.Item>
        )}
        <Menu.Item component={Link} to="/my-courses" leftSection={<IconBooks size={16} aria-hidden="true" />}>
          {t('nav.myCourses')}
        </Menu.Item>
        <Menu.Item component={Link} to="/passport" leftSection={<IconId size={16} aria-hidden="true" />}>
          {t('nav.passport')}
        </Menu.Item>
        {user.role === 'ADMIN' && (
          <Menu.Item component={Link} to="/admin" leftSection={<IconShieldLock size={16} aria-hidden="true" />}>
            {t('nav.admin')}
          </Menu.Item>
        )}
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden="true" />}
          disabled={logout.isPending}
          onClick={() => logout.mutate()}
        >
          {t('userMenu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
