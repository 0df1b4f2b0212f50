// Admin Dashboard (/admin): tabs users, organisations, courses, permissions, settings, the activity
// (audit) list, required training, recognised training (other issuers' credentials it accepts), certificates and the notification emails' delivery. The tab is kept in the URL (?tab=) so it
// survives a reload. A national administrator (no organisation) sees every tab; an organisation's
// administrator only those they can use: users, their organisation, courses and required
// training, recognised training and delivery (permissions, settings, the activity trail and the certificate register are national).
import type { ReactNode } from 'react';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '@shared/domain.ts';
import { ActivityTab } from './ActivityTab';
import { CertificatesTab } from './CertificatesTab';
import { CoursesTab, type AssessorsDialogSlot } from './CoursesTab';
import { DeliveryTab } from './DeliveryTab';
import { PermissionsTab } from './PermissionsTab';
import { RecognitionTab } from './RecognitionTab';
import { SettingsTab } from './SettingsTab';
import { UsersTab } from './UsersTab';
import { PageMeta } from '@/lib/page/page-meta';

const TABS = ['users', 'organisation', 'courses', 'permissions', 'settings', 'activity', 'required', 'recognition', 'certificates', 'delivery'] as const;
type Tab = (typeof TABS)[number];
/** What an organisation's administrator may use. */
const ORGANISATION_TABS: readonly Tab[] = ['users', 'organisation', 'courses', 'required', 'recognition', 'delivery'];

/** The tabs this administrator sees: all for a national one, their organisation's for the others. */
export function visibleTabs(user: Pick<CurrentUser, 'organisation'>): readonly Tab[] {
  return user.organisation ? ORGANISATION_TABS : TABS;
}

/** organisationTab, requiredTrainingTab: the organisations' and the required-training features' tabs;
 * assessorsDialog: a course's named assessors (practical assessments); all handed in by the route. */
export function AdminDashboard({ user, organisationTab, requiredTrainingTab, assessorsDialog }: {
  user: CurrentUser;
  organisationTab: ReactNode;
  requiredTrainingTab: ReactNode;
  assessorsDialog?: AssessorsDialogSlot;
}) {
  const { t } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const tabs = visibleTabs(user);
  const requested = params.get('tab');
  const tab: Tab = tabs.includes(requested as Tab) ? (requested as Tab) : 'users';
  const shown = Object.fromEntries(TABS.map((which) => [which, tabs.includes(which)])) as Record<Tab, boolean>;
  const description = user.organisation
    ? t('dashboard.descriptionOrganisation', { organisation: user.organisation.name })
    : t('dashboard.descriptionNational');
  return (
    <Stack>
      <PageMeta title={t('dashboard.title')} description={description} />
      <div>
        <Title order={1}>{t('dashboard.title')}</Title>
        <Text c="dimmed">{description}</Text>
      </div>
      <Tabs value={tab} onChange={(value) => setParams({ tab: value ?? 'users' }, { replace: true })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="users">{t('dashboard.tabs.users')}</Tabs.Tab>
          <Tabs.Tab value="organisation">{user.organisation ? t('dashboard.tabs.organisation') : t('dashboard.tabs.organisations')}</Tabs.Tab>
          <Tabs.Tab value="courses">{t('dashboard.tabs.courses')}</Tabs.Tab>
          {shown.permissions ? <Tabs.Tab value="permissions">{t('dashboard.tabs.permissions')}</Tabs.Tab> : null}
          {shown.settings ? <Tabs.Tab value="settings">{t('dashboard.tabs.settings')}</Tabs.Tab> : null}
          {shown.activity ? <Tabs.Tab value="activity">{t('dashboard.tabs.activity')}</Tabs.Tab> : null}
          <Tabs.Tab value="required">{t('dashboard.tabs.required')}</Tabs.Tab>
          <Tabs.Tab value="recognition">{t('dashboard.tabs.recognition')}</Tabs.Tab>
          {shown.certificates ? <Tabs.Tab value="certificates">{t('dashboard.tabs.certificates')}</Tabs.Tab> : null}
          <Tabs.Tab value="delivery">{t('dashboard.tabs.delivery')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users" pt="md"><UsersTab currentUserId={user.id} /></Tabs.Panel>
        <Tabs.Panel value="organisation" pt="md">{organisationTab}</Tabs.Panel>
        <Tabs.Panel value="courses" pt="md"><CoursesTab assessorsDialog={assessorsDialog} /></Tabs.Panel>
        {shown.permissions ? <Tabs.Panel value="permissions" pt="md"><PermissionsTab /></Tabs.Panel> : null}
        {shown.settings ? <Tabs.Panel value="settings" pt="md"><SettingsTab currentUserId={user.id} /></Tabs.Panel> : null}
        {shown.activity ? <Tabs.Panel value="activity" pt="md"><ActivityTab /></Tabs.Panel> : null}
        <Tabs.Panel value="required" pt="md">{requiredTrainingTab}</Tabs.Panel>
        <Tabs.Panel value="recognition" pt="md"><RecognitionTab user={user} /></Tabs.Panel>
        {shown.certificates ? <Tabs.Panel value="certificates" pt="md"><CertificatesTab /></Tabs.Panel> : null}
        <Tabs.Panel value="delivery" pt="md"><DeliveryTab /></Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
