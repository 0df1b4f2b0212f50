// The instructor dashboard: Overview, My Courses, Students, Analytics, Assessments and Required training. The
// open tab lives in the URL (?tab=), so Quick Actions, reloads and the back button agree.
import { lazy, type ReactNode, Suspense } from 'react';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { OverviewTab } from './OverviewTab';
import { MyCoursesTab } from './MyCoursesTab';
import { StudentsTab } from './StudentsTab';
import { AnalyticsTab } from './AnalyticsTab';
import { PageMeta } from '@/lib/page/page-meta';

// The classroom sessions' calendar, loaded when its tab opens.
const SessionsTab = lazy(() => import('@/features/sessions/components/SessionsTab'));

const TABS = ['overview', 'courses', 'students', 'analytics', 'assessments', 'required', 'sessions'] as const;
type Tab = (typeof TABS)[number];

/** requiredTrainingTab, assessmentsTab: the required-training and practical-assessment features' tabs, handed in by the route. */
export function InstructorDashboard({ name, isAdmin, requiredTrainingTab, assessmentsTab = null }: {
  name: string;
  isAdmin: boolean;
  requiredTrainingTab: ReactNode;
  assessmentsTab?: ReactNode;
}) {
  const { t } = useTranslation('instructor');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(requested ?? '') ? (requested as Tab) : 'overview';
  const show = (next: Tab) => setParams(next === 'overview' ? {} : { tab: next });

  return (
    <Stack gap="md">
      <PageMeta title={t('dashboard.title')} description={t('dashboard.description')} />
      <div>
        <Title order={1}>{t('dashboard.title')}</Title>
        <Text c="dimmed">{t('dashboard.welcome', { name })}</Text>
      </div>
      <Tabs value={tab} onChange={(value) => value && show(value as Tab)} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="overview">{t('dashboard.tab.overview')}</Tabs.Tab>
          <Tabs.Tab value="courses">{t('dashboard.tab.courses')}</Tabs.Tab>
          <Tabs.Tab value="students">{t('dashboard.tab.students')}</Tabs.Tab>
          <Tabs.Tab value="analytics">{t('dashboard.tab.analytics')}</Tabs.Tab>
          <Tabs.Tab value="assessments">{t('dashboard.tab.assessments')}</Tabs.Tab>
          <Tabs.Tab value="required">{t('dashboard.tab.required')}</Tabs.Tab>
          <Tabs.Tab value="sessions">{t('dashboard.tab.sessions')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <OverviewTab onShowTab={show} />
        </Tabs.Panel>
        <Tabs.Panel value="courses" pt="md">
          <MyCoursesTab />
        </Tabs.Panel>
        <Tabs.Panel value="students" pt="md">
          <StudentsTab
            allCourses={isAdmin}
            // ?status=pending (the Overview's "Review and approve" link) opens the pending requests.
            initialStatus={params.get('status') === 'pending' ? 'pending' : null}
          />
        </Tabs.Panel>
        <Tabs.Panel value="analytics" pt="md">
          <AnalyticsTab />
        </Tabs.Panel>
        <Tabs.Panel value="assessments" pt="md">
          {assessmentsTab}
        </Tabs.Panel>
        <Tabs.Panel value="required" pt="md">
          {requiredTrainingTab}
        </Tabs.Panel>
        <Tabs.Panel value="sessions" pt="md">
          <Suspense fallback={null}>
            <SessionsTab />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
