// Header account area: a placeholder while the user loads, a Login button for visitors, else the
// user menu (initials avatar and name; Profile, My Dashboard, My team for managers, My Courses, Admin Dashboard
// for admins, Logout).
import { Avatar, Button, Group, Menu, Skeleton, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconBooks, IconChevronDown, IconLayoutDashboard, IconLogout, IconShieldLock, IconUser, IconUsersGroup } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useUser } from '@/lib/auth/user';
import { useLogout } from '@/lib/auth/logout';
import { errorDescription } from '@/lib/api-client';
import { initials } from '@/lib/initials';
import { notifyFailure, notifySuccess } from '@/lib/notify';

export function UserMenu() {
  const { t } = useTranslation();
  const { data: user, isPending } = useUser();
  const navigate = useNavigate();
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

  return (
    <Menu position="bottom-end" width={220} withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton
          aria-label={t('userMenu.accountMenu', { name: user.name })}
          style={{ borderRadius: 'var(--mantine-radius-md)', padding: '4px 8px' }}
        >
          <Group gap="xs" wrap="nowrap">
            <Avatar color="blue" variant="filled" radius="xl" size="md" aria-hidden="true">
              {initials(user.name)}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="xs" lineClamp={1}>
              {user.name}
            </Text>
            <IconChevronDown size={14} aria-hidden="true" />
          </Group>
        </UnstyledButton>
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
