// The course editor: create mode (/course-creator, /course/create) and edit mode
// (/course/edit/:id). Left: cover image and status; right: Basic Information and Modules & Quizzes.
// Who may edit is decided by the server (RLS); the screen only says so early and clearly.
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ActionIcon, Alert, Badge, Button, Card, Grid, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconLock } from '@tabler/icons-react';
import type { User } from '@shared/domain.ts';
import { COURSE_STATUS_LABELS, type CourseStatus } from '@shared/domain.ts';
import type { Course } from '@shared/catalogue.ts';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCourse, useUploadCover } from '../api/course';
import { BasicInfoForm } from './BasicInfoForm';
import { CoverImageCard } from './CoverImageCard';
import { ModulesPanel } from './ModulesPanel';
import { PageMeta } from '@/lib/page/page-meta';

/** Dark enough for white text at 4.5:1 or more (WCAG 2.2 AA). */
const STATUS_BACKGROUND: Record<CourseStatus, string> = { DRAFT: '#495057', ACTIVE: '#1b5e20', ARCHIVED: '#a51d1d' };

export function canEditCourse(user: User, course: Course): boolean {
  return user.role === 'ADMIN' || (user.role === 'INSTRUCTOR' && course.authorId === user.id);
}

function Refusal({ title, message }: { title: string; message: string }) {
  return (
    <Stack maw={640} mx="auto" py="xl">
      <Alert color="red" variant="light" icon={<IconLock aria-hidden />} title={title}>
        <Text size="sm">{message}</Text>
      </Alert>
      <Group>
        <Button component={Link} to="/instructor" variant="default">
          Back to Instructor Dashboard
        </Button>
        <Button component={Link} to="/">
          Return to Home
        </Button>
      </Group>
    </Stack>
  );
}

export function CourseEditor({ user, courseId }: { user: User; courseId?: string }) {
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
      <Refusal
        title="Access denied"
        message="Only instructors and administrators can create or edit courses."
      />
    );
  }
  if (isEdit && course.isPending) {
    return (
      <Group justify="center" py="xl" role="status">
        <Loader size="sm" aria-hidden />
        <Text>Loading course data</Text>
      </Group>
    );
  }
  if (isEdit && course.isError) {
    const missing = course.error instanceof ApiError && course.error.status === 404;
    return missing ? (
      <Refusal title="Course not found" message="The requested course could not be found." />
    ) : (
      <Refusal title="Error loading course" message={errorDescription(course.error, 'The course could not be loaded.')} />
    );
  }
  const current = course.data;
  if (current && !canEditCourse(user, current)) {
    return <Refusal title="Access denied" message="You can only edit courses that you author." />;
  }

  const status = (current?.status as CourseStatus | undefined) ?? draftStatus;

  function sendCover(id: string, file: File) {
    uploadCover.mutate(
      { id, file },
      {
        onSuccess: () => notifySuccess('Cover image uploaded', 'The course cover has been updated.'),
        onError: (error) => notifyFailure('Failed to upload cover image', errorDescription(error, 'Failed to upload image')),
      },
    );
  }

  return (
    <Stack gap="lg">
      <PageMeta
        title={isEdit ? 'Edit Course' : 'Create New Course'}
        description={isEdit ? 'Edit a course: its details, modules and content.' : 'Create a new course: its details, modules and content.'}
      />
      <Group gap="sm">
        <ActionIcon component={Link} to="/instructor" variant="subtle" size="lg" aria-label="Back to Instructor Dashboard">
          <IconArrowLeft aria-hidden />
        </ActionIcon>
        <Title order={1}>{isEdit ? 'Edit Course' : 'Create New Course'}</Title>
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
                  Course Status
                </Title>
                <Group gap="xs">
                  <Badge variant="filled" style={{ backgroundColor: STATUS_BACKGROUND[status], color: '#fff' }}>
                    {COURSE_STATUS_LABELS[status]}
                  </Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {status === 'ACTIVE'
                    ? 'Published: learners can find and enrol in this course.'
                    : status === 'ARCHIVED'
                      ? 'Archived: hidden from learners.'
                      : 'Draft: only you and administrators can see this course.'}
                </Text>
                {current ? (
                  <Text size="sm">
                    {current.modules} {current.modules === 1 ? 'module' : 'modules'}
                  </Text>
                ) : null}
              </Stack>
            </Card>
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 8 }}>
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="basic">Basic Information</Tabs.Tab>
              <Tabs.Tab value="modules" disabled={!current} rightSection={!current ? <Text size="xs" c="dimmed">Save course first</Text> : null}>
                Modules &amp; Quizzes
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="basic" pt="md">
              <BasicInfoForm
                user={user}
                course={current}
                onStatusChange={setDraftStatus}
                onCreated={(created) => {
                  notifySuccess('Course created', 'You can now add modules and quizzes.');
                  if (pendingCover) {
                    sendCover(created.id, pendingCover);
                    setPendingCover(null);
                  }
                  navigate(`/course/edit/${created.id}`);
                }}
              />
            </Tabs.Panel>
            <Tabs.Panel value="modules" pt="md">
              <ModulesPanel courseId={current?.id} onNeedCourse={() => setTab('basic')} />
            </Tabs.Panel>
          </Tabs>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
