// The course editor: create mode (/course-creator, /course/create) and edit mode
// (/course/edit/:id). Left: cover image and status; right: Basic Information, Modules & Quizzes and the
// credential's achievement.
// Who may edit is decided by the server (RLS); the screen only says so early and clearly.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ActionIcon, Alert, Badge, Button, Card, Grid, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { User } from '@shared/domain.ts';
import type { CourseStatus } from '@shared/domain.ts';
import type { Course } from '@shared/catalogue.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { labelOf } from '@/lib/i18n/labels';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCourse, useUploadCover } from '../api/course';
import { BasicInfoForm } from './BasicInfoForm';
import { CoverImageCard } from './CoverImageCard';
import { ModulesPanel, type AssessmentDialogSlot } from './ModulesPanel';
import { AchievementPanel } from './AchievementPanel';
import { CourseWelshBadge } from './WelshBadges';
import { PageMeta } from '@/lib/page/page-meta';

/** Dark enough for white text at 4.5:1 or more (WCAG 2.2 AA). */
const STATUS_BACKGROUND: Record<CourseStatus, string> = { DRAFT: '#495057', ACTIVE: '#1b5e20', ARCHIVED: '#a51d1d' };

export function canEditCourse(user: User, course: Course): boolean {
  return user.role === 'ADMIN' || (user.role === 'INSTRUCTOR' && course.authorId === user.id);
}

function Refusal({ title, message }: { title: string; message: string }) {
  const { t } = useTranslation('course-editor');
  return (
    <Stack maw={640} mx="auto" py="xl">
      <Alert color="red" variant="light" icon={<IconLock aria-hidden />} title={title}>
        <Text size="sm">{message}</Text>
      </Alert>
      <Group>
        <Button component={Link} to="/instructor" variant="default">
          {t('editor.backToDashboard')}
        </Button>
        <Button component={Link} to="/">
          {t('editor.returnHome')}
        </Button>
      </Group>
    </Stack>
  );
}

/** assessmentDialog: a practical assessment module's panel, handed in by the route. */
export function CourseEditor({ user, courseId, assessmentDialog }: { user: User; courseId?: string; assessmentDialog?: AssessmentDialogSlot }) {
  const { t } = useTranslation('course-editor');
  const navigate = useNavigate();
  const isEdit = Boolean(courseId);
  const course = useCourse(courseId);
  const uploadCover = useUploadCover();
  const [tab, setTab] = useState<string | null>('basic');
  // Create mode: the chosen cover waits for the course to exist, then is sent.
  const [pendingCover, setPendingCover] = useState<File | null>(null);
  const [draftStatus, setDraftStatus] = useState<CourseStatus>('DRAFT');

  if (user.role === 'STUDENT') {
    return (
      <Refusal title={t('editor.accessDenied')} message={t('editor.studentsRefused')} />
    );
  }
  if (isEdit && course.isPending) {
    return (
      <Group justify="center" py="xl" role="status">
        <Loader size="sm" aria-hidden />
        <Text>{t('editor.loading')}</Text>
      </Group>
    );
  }
  if (isEdit && course.isError) {
    const missing = course.error instanceof ApiError && course.error.status === 404;
    return missing ? (
      <Refusal title={t('editor.notFound')} message={t('editor.notFoundMessage')} />
    ) : (
      <Refusal title={t('editor.loadError')} message={errorDescription(course.error, t('editor.loadErrorMessage'))} />
    );
  }
  const current = course.data;
  if (current && !canEditCourse(user, current)) {
    return <Refusal title={t('editor.accessDenied')} message={t('editor.notAuthor')} />;
  }

  const status = (current?.status as CourseStatus | undefined) ?? draftStatus;

  function sendCover(id: string, file: File) {
    uploadCover.mutate(
      { id, file },
      {
        onSuccess: () => notifySuccess(t('editor.coverUploaded'), t('editor.coverUploadedMessage')),
        onError: (error) => notifyFailure(t('editor.coverFailed'), errorDescription(error, t('editor.coverFailedMessage'))),
      },
    );
  }

  return (
    <Stack gap="lg">
      <PageMeta
        title={isEdit ? t('editor.editTitle') : t('editor.createTitle')}
        description={isEdit ? t('editor.editDescription') : t('editor.createDescription')}
      />
      <Group gap="sm">
        <ActionIcon component={Link} to="/instructor" variant="subtle" size="lg" aria-label={t('editor.backToDashboard')}>
          <IconArrowLeft aria-hidden />
        </ActionIcon>
        <Title order={1}>{isEdit ? t('editor.editTitle') : t('editor.createTitle')}</Title>
        {current ? <CourseWelshBadge availableInWelsh={current.availableInWelsh} /> : null}
      </Group>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack>
            <CoverImageCard
              url={current?.coverImage ?? null}
              pending={pendingCover}
              uploading={uploadCover.isPending}
              onChoose={(file) => (current ? sendCover(current.id, file) : setPendingCover(file))}
            />
            <Card withBorder padding="lg" radius="md">
              <Stack gap="xs">
                <Title order={2} size="h4">
                  {t('editor.status')}
                </Title>
                <Group gap="xs">
                  <Badge variant="filled" style={{ backgroundColor: STATUS_BACKGROUND[status], color: '#fff' }}>
                    {labelOf('courseStatus', status)}
                  </Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {status === 'ACTIVE'
                    ? t('editor.statusActive')
                    : status === 'ARCHIVED'
                      ? t('editor.statusArchived')
                      : t('editor.statusDraft')}
                </Text>
                {current ? (
                  <Text size="sm">
                    {t('editor.moduleCount', { count: current.modules })}
                  </Text>
                ) : null}
              </Stack>
            </Card>
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 8 }}>
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="basic">{t('editor.basicTab')}</Tabs.Tab>
              <Tabs.Tab value="modules" disabled={!current} rightSection={!current ? <Text size="xs" c="dimmed">{t('editor.saveFirst')}</Text> : null}>
                {t('editor.modulesTab')}
              </Tabs.Tab>
              <Tabs.Tab value="achievement" disabled={!current}>
                {t('editor.achievementTab')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="basic" pt="md">
              <BasicInfoForm
                user={user}
                course={current}
                onStatusChange={setDraftStatus}
                onCreated={(created) => {
                  notifySuccess(t('editor.created'), t('editor.createdMessage'));
                  if (pendingCover) {
                    sendCover(created.id, pendingCover);
                    setPendingCover(null);
                  }
                  navigate(`/course/edit/${created.id}`);
                }}
              />
            </Tabs.Panel>
            <Tabs.Panel value="modules" pt="md">
              <ModulesPanel courseId={current?.id} onNeedCourse={() => setTab('basic')} assessmentDialog={assessmentDialog} />
            </Tabs.Panel>
            <Tabs.Panel value="achievement" pt="md">
              {current ? <AchievementPanel courseId={current.id} /> : null}
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
