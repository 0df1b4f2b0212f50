// Sidebar: 'Menu' links by role, then one link per service.
import { Box, NavLink, Stack, Text } from '@mantine/core';
import {
  IconCertificate,
  IconNotebook,
  IconChalkboard,
  IconHome,
  IconBooks,
  IconShieldLock,
  IconClipboardCheck,
  IconLayoutDashboard,
  IconUsersGroup,
  IconId,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { labelOf } from '@/lib/i18n/labels';
import type { CurrentUser } from '@shared/domain.ts';
import { SERVICE_CODES } from '@shared/services.ts';
import { ServiceDot } from '@/components/ServiceDot';
import classes from './AppLayout.module.css';

interface Item {
  to: string;
  /** Its name's key in the common catalogue (nav.*). */
  label: 'home' | 'dashboard' | 'team' | 'myCourses' | 'certificates' | 'passport' | 'learningRecord' | 'instructor' | 'compliance' | 'admin';
  Icon: typeof IconHome;
  show: (user: CurrentUser | null | undefined) => boolean;
}

const MENU: Item[] = [
  { to: '/', label: 'home', Icon: IconHome, show: () => true },
  // The learner's own overview, in the menu rather than reachable only by typing /dashboard.
  { to: '/dashboard', label: 'dashboard', Icon: IconLayoutDashboard, show: (user) => Boolean(user) },
  // A line manager's reports: only for people with reports.
  { to: '/team', label: 'team', Icon: IconUsersGroup, show: (user) => Boolean(user?.hasReports) },
  { to: '/my-courses', label: 'myCourses', Icon: IconBooks, show: () => true },
  { to: '/certificates', label: 'certificates', Icon: IconCertificate, show: () => true },
  // Every certificate as a signed credential the learner carries (signed-in only: it is theirs).
  { to: '/passport', label: 'passport', Icon: IconId, show: (user) => Boolean(user) },
  { to: '/learning-record', label: 'learningRecord', Icon: IconNotebook, show: (user) => Boolean(user) },
  {
    to: '/instructor',
    label: 'instructor',
    Icon: IconChalkboard,
    show: (user) => user?.role === 'INSTRUCTOR' || user?.role === 'ADMIN',
  },
  {
    to: '/compliance',
    label: 'compliance',
    Icon: IconClipboardCheck,
    show: (user) => user?.role === 'INSTRUCTOR' || user?.role === 'ADMIN',
  },
  { to: '/admin', label: 'admin', Icon: IconShieldLock, show: (user) => user?.role === 'ADMIN' },
];

export function Sidebar({ user, onNavigate }: { user: CurrentUser | null | undefined; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const activeService = location.pathname === '/' ? new URLSearchParams(location.search).get('service') : null;

  return (
    // The browser's own scrolling: Mantine's ScrollArea measured and re-rendered itself several
    // times as the page started, in the long tasks a slow phone feels.
    <Box p="md" className={classes.sidebar}>
      <Stack gap="lg">
        <div>
          <Text component="h2" size="xs" fw={700} tt="uppercase" c="dimmed" mb={6} id="sidebar-menu">
            {t('nav.menu')}
          </Text>
          <Stack gap={2} component="ul" aria-labelledby="sidebar-menu" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {MENU.filter((item) => item.show(user)).map(({ to, label, Icon }) => {
              const active = to === '/' ? location.pathname === '/' && !activeService : location.pathname.startsWith(to);
              return (
                <li key={to}>
                  <NavLink
                    component={Link}
                    to={to}
                    label={t(`nav.${label}`)}
                    active={active}
                    // Filled: the light variant's hovered active link was 4.0:1; white on blue.8 is 4.9:1.
                    variant="filled"
                    aria-current={active ? 'page' : undefined}
                    leftSection={<Icon size={18} aria-hidden="true" />}
                    onClick={onNavigate}
                  />
                </li>
              );
            })}
          </Stack>
        </div>
        <div>
          <Text component="h2" size="xs" fw={700} tt="uppercase" c="dimmed" mb={6} id="sidebar-services">
            {t('nav.services')}
          </Text>
          <Stack gap={2} component="ul" aria-labelledby="sidebar-services" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {SERVICE_CODES.map((code) => {
              const active = activeService === code;
              return (
                <li key={code}>
                  <NavLink
                    component={Link}
                    to={`/?service=${code}`}
                    label={labelOf('service', code)}
                    title={code}
                    active={active}
                    // Filled: the light variant's hovered active link was 4.0:1; white on blue.8 is 4.9:1.
                    variant="filled"
                    aria-current={active ? 'page' : undefined}
                    leftSection={<ServiceDot code={code} />}
                    onClick={onNavigate}
                  />
                </li>
              );
            })}
          </Stack>
        </div>
      </Stack>
    </Box>
  );
}
