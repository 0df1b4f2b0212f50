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
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import type { CurrentUser } from '@shared/domain.ts';
import { SERVICE_CODES, SERVICES } from '@shared/services.ts';
import { ServiceDot } from '@/components/ServiceDot';
import classes from './AppLayout.module.css';

interface Item {
  to: string;
  label: string;
  Icon: typeof IconHome;
  show: (user: CurrentUser | null | undefined) => boolean;
}

const MENU: Item[] = [
  { to: '/', label: 'Home', Icon: IconHome, show: () => true },
  // The learner's own overview, in the menu rather than reachable only by typing /dashboard.
  { to: '/dashboard', label: 'My Dashboard', Icon: IconLayoutDashboard, show: (user) => Boolean(user) },
  // A line manager's reports: only for people with reports.
  { to: '/team', label: 'My team', Icon: IconUsersGroup, show: (user) => Boolean(user?.hasReports) },
  { to: '/my-courses', label: 'My Courses', Icon: IconBooks, show: () => true },
  { to: '/certificates', label: 'Certificates', Icon: IconCertificate, show: () => true },
  { to: '/learning-record', label: 'Learning Record', Icon: IconNotebook, show: (user) => Boolean(user) },
  {
    to: '/instructor',
    label: 'Instructor Dashboard',
    Icon: IconChalkboard,
    show: (user) => user?.role === 'INSTRUCTOR' || user?.role === 'ADMIN',
  },
  {
    to: '/compliance',
    label: 'Compliance',
    Icon: IconClipboardCheck,
    show: (user) => user?.role === 'INSTRUCTOR' || user?.role === 'ADMIN',
  },
  { to: '/admin', label: 'Admin Dashboard', Icon: IconShieldLock, show: (user) => user?.role === 'ADMIN' },
];

export function Sidebar({ user, onNavigate }: { user: CurrentUser | null | undefined; onNavigate?: () => void }) {
  const location = useLocation();
  const activeService = location.pathname === '/' ? new URLSearchParams(location.search).get('service') : null;

  return (
    // The browser's own scrolling: Mantine's ScrollArea measured and re-rendered itself several
    // times as the page started, in the long tasks a slow phone feels.
    <Box p="md" className={classes.sidebar}>
      <Stack gap="lg">
        <div>
          <Text component="h2" size="xs" fw={700} tt="uppercase" c="dimmed" mb={6} id="sidebar-menu">
            Menu
          </Text>
          <Stack gap={2} component="ul" aria-labelledby="sidebar-menu" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {MENU.filter((item) => item.show(user)).map(({ to, label, Icon }) => {
              const active = to === '/' ? location.pathname === '/' && !activeService : location.pathname.startsWith(to);
              return (
                <li key={to}>
                  <NavLink
                    component={Link}
                    to={to}
                    label={label}
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
            Services
          </Text>
          <Stack gap={2} component="ul" aria-labelledby="sidebar-services" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {SERVICE_CODES.map((code) => {
              const active = activeService === code;
              return (
                <li key={code}>
                  <NavLink
                    component={Link}
                    to={`/?service=${code}`}
                    label={SERVICES[code].label}
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
