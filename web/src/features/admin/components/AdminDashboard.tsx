// Admin Dashboard (/admin): tabs users, courses, permissions, settings, and the
// activity (audit) list. The tab is kept in the URL (?tab=) so it survives a reload.
import type { ReactNode } from 'react';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import type { User } from '@shared/domain.ts';
import { ActivityTab } from './ActivityTab';
import { CertificatesTab } from './CertificatesTab';
import { CoursesTab } from './CoursesTab';
import { PermissionsTab } from './PermissionsTab';
import { SettingsTab } from './SettingsTab';
import { UsersTab } from './UsersTab';
import { PageMeta } from '@/lib/page/page-meta';

const TABS = ['users', 'courses', 'permissions', 'settings', 'activity', 'required', 'certificates'] as const;
type Tab = (typeof TABS)[number];

/** requiredTrainingTab: the required-training feature's tab, handed in by the route. */
export function AdminDashboard({ user, requiredTrainingTab }: { user: User; requiredTrainingTab: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(requested ?? '') ? (requested as Tab) : 'users';
  return (
    <Stack>
      <PageMeta title="Admin Dashboard" description="Manage users, courses, role and service permissions, and system settings." />
      <div>
        <Title order={1}>Admin Dashboard</Title>
        <Text c="dimmed">Manage users, courses, role and service permissions, and system settings.</Text>
      </div>
      <Tabs value={tab} onChange={(value) => setParams({ tab: value ?? 'users' }, { replace: true })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="users">Users</Tabs.Tab>
          <Tabs.Tab value="courses">Courses</Tabs.Tab>
          <Tabs.Tab value="permissions">Permissions</Tabs.Tab>
          <Tabs.Tab value="settings">Settings</Tabs.Tab>
          <Tabs.Tab value="activity">Activity</Tabs.Tab>
          <Tabs.Tab value="required">Required training</Tabs.Tab>
          <Tabs.Tab value="certificates">Certificates</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users" pt="md"><UsersTab currentUserId={user.id} /></Tabs.Panel>
        <Tabs.Panel value="courses" pt="md"><CoursesTab /></Tabs.Panel>
        <Tabs.Panel value="permissions" pt="md"><PermissionsTab /></Tabs.Panel>
        <Tabs.Panel value="settings" pt="md"><SettingsTab currentUserId={user.id} /></Tabs.Panel>
        <Tabs.Panel value="activity" pt="md"><ActivityTab /></Tabs.Panel>
        <Tabs.Panel value="required" pt="md">{requiredTrainingTab}</Tabs.Panel>
        <Tabs.Panel value="certificates" pt="md"><CertificatesTab /></Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
