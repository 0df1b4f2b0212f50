// Learner dashboard: Overview (figures from the enrolments and certificates),
// Progress (each course's modules and last activity), My Courses (All / In Progress / Completed)
// and Certificates (supplied by the route, which composes the certificates and required-training
// features). Course titles in the reader's language: a Welsh reader shown the English gets it in
// lang="en-GB", marked "Ddim ar gael yn Gymraeg" once per course (its line, row or card).
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { type Localised, NotInWelsh } from '@/components/Localised';
import { ServiceBadge } from '@/components/ServiceBadge';
import { PageSpinner } from '@/components/PageSpinner';
import { errorDescription } from '@/lib/api-client';
import { type Enrollment, useEnrollments } from '../api/get-enrollments';
import { formatDate } from '@/lib/format';
import { usePhoneLayout } from '@/lib/use-phone-layout';
import { Field, FieldList } from '@/components/FieldList';
import { type LearningSummary, summarise } from '../lib/summary';
import { CompletedCard, InProgressCard, useEnrolmentTitle } from './EnrollmentCards';
import { EmptyState } from './EmptyState';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

export interface LearnerDashboardProps {
  userId: string;
  name: string;
  /** Number of the learner's certificates (undefined while loading). */
  certificateCount: number | undefined;
  certificatesPanel: ReactNode;
  /** The learner's required training, shown above their courses (from the required-training feature). */
  requiredTraining: ReactNode;
}

const OVERVIEW_IN_PROGRESS = 3;

export function LearnerDashboard({ userId, name, certificateCount, certificatesPanel, requiredTraining }: LearnerDashboardProps) {
  const { t } = useTranslation('my-learning');
  const query = useEnrollments(userId);
  const [tab, setTab] = useState('overview');
  const [courseTab, setCourseTab] = useState('all');

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('learnerDashboard.welcome', { name })}</Title>
        <Group gap="xs">
          <Button component={Link} to="/learning-record" variant="default">
            {t('learnerDashboard.learningRecord')}
          </Button>
          <Button component={Link} to="/" variant="default">
            {t('shared.browseCourses')}
          </Button>
        </Group>
      </Group>
      {requiredTraining}
      {query.isPending ? (
        <PageSpinner label={t('learnerDashboard.loading')} />
      ) : query.isError ? (
        <Alert color="red" title={t('learnerDashboard.loadFailed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorDescription(query.error, t('shared.retryFallback'))}</Text>
            <Button size="xs" variant="default" onClick={() => query.refetch()}>
              {t('shared.tryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Tabs value={tab} onChange={(v) => v && setTab(v)}>
          <Tabs.List mb="md">
            <Tabs.Tab value="overview">{t('learnerDashboard.overviewTab')}</Tabs.Tab>
            <Tabs.Tab value="progress">{t('learnerDashboard.progressTab')}</Tabs.Tab>
            <Tabs.Tab value="courses">{t('learnerDashboard.myCoursesTab')}</Tabs.Tab>
            <Tabs.Tab value="certificates">{t('learnerDashboard.certificatesTab')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="overview">
            <Overview
              summary={summarise(query.data)}
              certificateCount={certificateCount}
              onViewAll={() => {
                setCourseTab('in-progress');
                setTab('courses');
              }}
            />
          </Tabs.Panel>
          <Tabs.Panel value="progress">
            <ProgressTable enrollments={query.data} />
          </Tabs.Panel>
          <Tabs.Panel value="courses">
            <CoursesTab summary={summarise(query.data)} tab={courseTab} onTab={setCourseTab} />
          </Tabs.Panel>
          <Tabs.Panel value="certificates">{certificatesPanel}</Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}

/** `name` is the figure's English name, for its id and test id (the same in both languages). */
function Stat({ name, label, value }: { name: string; label: string; value: number | undefined }) {
  const id = `stat-${name.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed" id={id}>
        {label}
      </Text>
      <Text fz={32} fw={700} aria-labelledby={id} data-testid={`stat-${name}`}>
        {value ?? '…'}
      </Text>
    </Paper>
  );
}

function Overview({ summary, certificateCount, onViewAll }: { summary: LearningSummary; certificateCount: number | undefined; onViewAll: () => void }) {
  const { t } = useTranslation('my-learning');
  const shown = summary.inProgress.slice(0, OVERVIEW_IN_PROGRESS);
  const titleOf = useEnrolmentTitle();
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Stat name="Total Courses" label={t('learnerDashboard.totalCourses')} value={summary.total} />
        <Stat name="In Progress" label={t('learnerDashboard.inProgress')} value={summary.inProgress.length} />
        <Stat name="Completed" label={t('learnerDashboard.completed')} value={summary.completed.length} />
        <Stat name="Certificates" label={t('learnerDashboard.certificates')} value={certificateCount} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('learnerDashboard.overallProgress')}
            </Title>
            <Group justify="space-between">
              <Text size="sm">{t('learnerDashboard.averageProgress')}</Text>
              <Text fw={700} data-testid="overall-progress">
                {summary.overallProgress}%
              </Text>
            </Group>
            <Progress value={summary.overallProgress} aria-label={t('learnerDashboard.overallProgressLabel', { progress: summary.overallProgress })} />
            {shown.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('learnerDashboard.noneInProgress')}
              </Text>
            ) : (
              <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {shown.map((e) => (
                  <li key={e.id}>
                    <Group justify="space-between" wrap="nowrap">
                      {e.course ? (
                        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                          <Anchor component={Link} to={`/course/${e.courseId}`} size="sm" lineClamp={1} lang={titleOf(e).lang}>
                            {titleOf(e).text}
                          </Anchor>
                          {titleOf(e).fallback ? <NotInWelsh /> : null}
                        </Group>
                      ) : (
                        <Text size="sm">{t('shared.courseGone')}</Text>
                      )}
                      <Text size="sm">{e.status === 'PENDING' ? t('shared.awaitingApproval') : `${e.progress}%`}</Text>
                    </Group>
                  </li>
                ))}
              </Stack>
            )}
            {summary.inProgress.length > 0 ? (
              <Anchor component="button" type="button" size="sm" onClick={onViewAll} style={{ alignSelf: 'flex-start' }}>
                {t('learnerDashboard.viewAllInProgress', { number: summary.inProgress.length })}
              </Anchor>
            ) : null}
          </Stack>
        </Card>
        <Card withBorder padding="lg" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('learnerDashboard.services')}
            </Title>
            {summary.services.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('learnerDashboard.noServices')}
              </Text>
            ) : (
              <Group gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {summary.services.map((code) => (
                  <li key={code}>
                    <ServiceBadge code={code} full />
                  </li>
                ))}
              </Group>
            )}
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

/** A course's title in a row or card of the progress, linked while the course exists, marked where English to a Welsh reader. */
function CourseTitleCell({ e, title }: { e: Enrollment; title: Localised }) {
  return (
    <>
      {e.course ? (
        <Anchor component={Link} to={`/course/${e.courseId}`} inherit lang={title.lang}>
          {title.text}
        </Anchor>
      ) : (
        title.text
      )}
      {title.fallback ? (
        <>
          {' '}
          <NotInWelsh />
        </>
      ) : null}
    </>
  );
}

function progressCell(e: Enrollment, title: string, t: TFunction<'my-learning'>) {
  return e.status === 'PENDING' ? (
    t('shared.awaitingApproval')
  ) : (
    <Group gap="xs" wrap="nowrap">
      <Progress value={e.progress} w={100} aria-label={`${title}: ${e.progress}%`} />
      <Text size="sm" span>{e.progress}%</Text>
    </Group>
  );
}

const modulesCell = (e: Enrollment, t: TFunction<'my-learning'>) =>
  e.course && e.course.modules > 0 ? t('learnerDashboard.modulesOf', { completed: e.completedModules, total: e.course.modules }) : '—';

/** The progress on a phone (a table would be cut off at 390 px): one card per course. */
function ProgressCards({ enrollments }: { enrollments: Enrollment[] }) {
  const { t } = useTranslation('my-learning');
  const titleOf = useEnrolmentTitle();
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('learnerDashboard.progressListLabel')}>
      {enrollments.map((e) => {
        const localised = titleOf(e);
        const title = localised.text;
        return (
          <Paper component="li" withBorder p="md" radius="md" key={e.id} data-progress-card={e.id}>
            <Stack gap="sm">
              <Text fw={600} size="sm">
                <CourseTitleCell e={e} title={localised} />
              </Text>
              <FieldList>
                <Field label={t('learnerDashboard.progress')} span>{progressCell(e, title, t)}</Field>
                <Field label={t('learnerDashboard.modules')}>{modulesCell(e, t)}</Field>
                <Field label={t('learnerDashboard.lastActivity')}>{formatDate(e.lastActivityAt)}</Field>
              </FieldList>
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

function ProgressTable({ enrollments }: { enrollments: Enrollment[] }) {
  const { t } = useTranslation('my-learning');
  const titleOf = useEnrolmentTitle();
  const phone = usePhoneLayout();
  if (enrollments.length === 0) {
    return <EmptyState title={t('learnerDashboard.noCoursesTitle')} text={t('learnerDashboard.noCoursesProgressText')} />;
  }
  if (phone) return <ProgressCards enrollments={enrollments} />;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped>
        <Table.Caption>{t('learnerDashboard.progressListLabel')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('learnerDashboard.course')}</Table.Th>
            <Table.Th scope="col">{t('learnerDashboard.progress')}</Table.Th>
            <Table.Th scope="col">{t('learnerDashboard.modules')}</Table.Th>
            <Table.Th scope="col">{t('learnerDashboard.lastActivity')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {enrollments.map((e) => {
            const localised = titleOf(e);
            const title = localised.text;
            return (
              <Table.Tr key={e.id}>
                <Table.Td>
                  <CourseTitleCell e={e} title={localised} />
                </Table.Td>
                <Table.Td miw={160}>{progressCell(e, title, t)}</Table.Td>
                <Table.Td>{modulesCell(e, t)}</Table.Td>
                <Table.Td>{formatDate(e.lastActivityAt)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function CoursesTab({ summary, tab, onTab }: { summary: LearningSummary; tab: string; onTab: (t: string) => void }) {
  const { t } = useTranslation('my-learning');
  const grid = (items: Enrollment[]) => (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {items.map((e) =>
        e.completed ? (
          <CompletedCard key={e.id} enrollment={e} reviewButton />
        ) : (
          <InProgressCard key={e.id} enrollment={e} continueLabel={t('learnerDashboard.continueLearning')} />
        ),
      )}
    </SimpleGrid>
  );
  const all = [...summary.inProgress, ...summary.completed];
  return (
    <Tabs value={tab} onChange={(v) => v && onTab(v)} variant="pills">
      <Tabs.List mb="md" aria-label={t('learnerDashboard.filterLabel')}>
        <Tabs.Tab value="all">{t('learnerDashboard.allCourses')}</Tabs.Tab>
        <Tabs.Tab value="in-progress">{t('learnerDashboard.inProgressFilter')}</Tabs.Tab>
        <Tabs.Tab value="completed">{t('learnerDashboard.completedFilter')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="all">
        {all.length === 0 ? <EmptyState title={t('learnerDashboard.noCoursesTitle')} text={t('learnerDashboard.noCoursesText')} headingOrder={3} /> : grid(all)}
      </Tabs.Panel>
      <Tabs.Panel value="in-progress">
        {summary.inProgress.length === 0 ? (
          <EmptyState title={t('shared.noInProgressTitle')} text={t('shared.noInProgressText')} headingOrder={3} />
        ) : (
          grid(summary.inProgress)
        )}
      </Tabs.Panel>
      <Tabs.Panel value="completed">
        {summary.completed.length === 0 ? (
          <EmptyState title={t('shared.noCompletedTitle')} text={t('shared.noCompletedText')} headingOrder={3} />
        ) : (
          grid(summary.completed)
        )}
      </Tabs.Panel>
    </Tabs>
  );
}
