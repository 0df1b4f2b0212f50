// The course page: back link, badge, title, description, module
// count, progress with 'Course completed!', the outline, and one main button whose label follows
// the learner's state. Start/Continue open the next unfinished module; a course without modules
// steps its progress on the server. Under public-enroll, ?enroll=1 (the intent a visitor carried
// through /auth) enrols on arrival. The author's cover image heads the page (alt="": the title beside
// it names the course); a completed course offers its certificate. After 'Enroll Now' (here or on a
// catalogue card) the keyboard focus is on the main button, not lost to the page.
import { Alert, Box, Button, Group, Image, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useEffectEvent, useRef } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { Course, CourseModule } from '@shared/catalogue.ts';
import type { User } from '@shared/domain.ts';
import { COURSE_LEVEL_LABELS, type CourseLevel } from '@shared/domain.ts';
import { courseButtonLabel } from '@shared/progress.ts';
import { PageSpinner } from '@/components/PageSpinner';
import { ServiceBadge } from '@/components/ServiceBadge';
import { ServiceIcon } from '@/components/ServiceIcon';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCourse, useCourseModules } from '@/lib/courses';
import { useEnroll } from '@/lib/enrol';
import { useStepProgress } from '../api/progress';
import { CertificateLinks } from '@/components/CertificateLinks';
import { CourseOutline } from './CourseOutline';
import { PageMeta } from '@/lib/page/page-meta';
import { useHydrated } from '@/lib/hydrated';

/** The module Start/Continue opens: the first unfinished one, else the first. */
export function nextModule(modules: CourseModule[]): CourseModule | undefined {
  return modules.find((module) => !module.completed) ?? modules[0];
}

export function signInPath(courseId: string, keepEnrolIntent: boolean): string {
  const back = `/course/${courseId}${keepEnrolIntent ? '?enroll=1' : ''}`;
  return `/auth?redirect=${encodeURIComponent(back)}`;
}

function CourseNotFound() {
  return (
    <Stack align="center" gap="sm" py="xl">
      <PageMeta title="Course not found" description="The requested course could not be found." />
      <Title order={1}>Course not found</Title>
      <Text>The requested course could not be found.</Text>
      <Button component={Link} to="/">
        Return to home
      </Button>
    </Stack>
  );
}

export function CourseDetail({ courseId, user, publicEnroll }: { courseId: string; user: User | null; publicEnroll: boolean }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const course = useCourse(courseId);
  const modules = useCourseModules(courseId, course.isSuccess);
  const enroll = useEnroll();
  const step = useStepProgress();
  const autoEnrolled = useRef(false);
  const location = useLocation();
  const mainButton = useRef<HTMLButtonElement>(null);
  const live = useHydrated();
  // The main button is disabled while enrolling (the focus falls to the page): it takes it back after.
  const refocusMain = useRef(Boolean((location.state as { focusMain?: boolean } | null)?.focusMain));

  const enrollment = course.data?.enrollment ?? null;
  const wantsEnrol = params.get('enroll') === '1';

  const busy = enroll.isPending || step.isPending;
  const ready = course.isSuccess && !busy;
  const pendingNotice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!refocusMain.current || !ready) return;
    // An enrolment awaiting approval disables the button: the notice saying so takes the focus.
    const target = mainButton.current && !mainButton.current.disabled ? mainButton.current : pendingNotice.current;
    if (!target) return;
    target.focus();
    refocusMain.current = false;
  });

  function doEnrol(target: Course) {
    enroll.mutate(target.id, {
      onSettled: () => {
        refocusMain.current = true;
      },
      onSuccess: (created) =>
        notifySuccess(
          created.status === 'PENDING' ? 'Enrolment requested' : 'Enrolled',
          created.status === 'PENDING'
            ? 'An instructor will approve your enrolment.'
            : `You are enrolled in ${target.title}.`,
        ),
      onError: (error) => notifyFailure('Enrolment failed', errorDescription(error, 'Please try again.')),
    });
  }

  // The enrolment intent that survived sign-in: enrol once, then drop it from the URL.
  const enrolFromLink = useEffectEvent((target: Course) => {
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete('enroll');
      return next;
    }, { replace: true });
    if (!target.enrollment) doEnrol(target);
  });
  useEffect(() => {
    if (!wantsEnrol || !user || !course.data || autoEnrolled.current) return;
    autoEnrolled.current = true;
    enrolFromLink(course.data);
  }, [wantsEnrol, user, course.data]);

  // A screen's height while the course loads, so the footer starts below the fold and does not move
  // when the course arrives.
  if (course.isPending) {
    return (
      <Box mih="100vh">
        <PageSpinner label="Loading course" />
      </Box>
    );
  }
  if (course.isError) {
    if (course.error instanceof ApiError && course.error.status === 404) return <CourseNotFound />;
    return (
      <Alert color="red" title="The course could not be loaded">
        {errorDescription(course.error, 'Please try again.')}
      </Alert>
    );
  }

  const data = course.data;
  const list = modules.data ?? [];
  const progress = enrollment?.progress ?? 0;
  const pending = enrollment?.status === 'PENDING';
  const mayRead = list.length > 0 && list.every((module) => module.content !== null);

  function main() {
    if (!user) {
      navigate(signInPath(data.id, publicEnroll));
      return;
    }
    if (!enrollment) {
      doEnrol(data);
      return;
    }
    if (data.modules === 0) {
      if (enrollment.completed) {
        document.getElementById('course-details')?.focus();
        return;
      }
      step.mutate(enrollment, {
        onSettled: () => {
          refocusMain.current = true;
        },
        onError: (error) => notifyFailure('Progress was not saved', errorDescription(error, 'Please try again.')),
      });
      return;
    }
    const target = enrollment.completed ? list[0] : nextModule(list);
    if (target) navigate(`/course/${data.id}/module/${target.id}`);
  }

  const label = !user ? 'Login to Enroll' : !enrollment ? 'Enroll Now' : courseButtonLabel(progress);

  return (
    <Stack gap="lg">
      <PageMeta title={data.title} description={data.description || `${data.title}: a training course.`} />
      <Group>
        <Button component={Link} to="/" variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
          Back to courses
        </Button>
      </Group>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg">
        {data.coverImage ? (
          <Image
            src={data.coverImage}
            alt=""
            width={1200}
            height={400}
            w="100%"
            h="auto"
            fit="cover"
            radius="md"
            mb="md"
            style={{ aspectRatio: '3 / 1', display: 'block' }}
            data-course-cover
          />
        ) : null}
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <Group gap="xs">
              <ServiceBadge code={data.service} />
              <Text size="sm" c="dimmed">
                {COURSE_LEVEL_LABELS[data.level as CourseLevel] ?? data.level}
              </Text>
            </Group>
            <ServiceIcon code={data.service} size={36} />
          </Group>
          <Title order={1}>{data.title}</Title>
          <Text>{data.description}</Text>
          <Text size="sm" c="dimmed">
            {data.modules === 1 ? '1 module' : `${data.modules} modules`} ·{' '}
            {data.duration === 1 ? '1 hour' : `${data.duration} hours`}
            {data.author ? ` · by ${data.author.name}` : ''}
          </Text>
          {enrollment ? (
            <div>
              <Group justify="space-between" mb={4}>
                <Text size="sm" id="course-progress-label">
                  Your progress
                </Text>
                <Text size="sm" fw={700} data-testid="course-progress">
                  {progress}%
                </Text>
              </Group>
              <Progress.Root size="md">
                <Progress.Section value={progress} aria-labelledby="course-progress-label" color={progress >= 100 ? 'green.9' : undefined} />
              </Progress.Root>
              {enrollment.completed ? (
                <Group gap={6} mt="sm">
                  <IconCircleCheck size={20} aria-hidden="true" color="var(--mantine-color-green-9)" />
                  <Text fw={700}>Course completed!</Text>
                </Group>
              ) : null}
              {enrollment.completed && enrollment.certificateId ? (
                <Group gap="sm" mt="sm">
                  <Text size="sm">Your certificate is ready:</Text>
                  <CertificateLinks certificateId={enrollment.certificateId} />
                </Group>
              ) : null}
            </div>
          ) : null}
          {pending ? (
            <Alert color="yellow" title="Enrolment pending" variant="light" ref={pendingNotice} tabIndex={-1} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
              <Text size="sm" c="var(--mantine-color-text)">
                Your enrolment is waiting for approval by an instructor of this course. You can start once it is approved.
              </Text>
            </Alert>
          ) : null}
          {data.approvalRequired && !enrollment ? (
            <div data-testid="course-approval">
              <Text size="sm" fw={700}>
                Login and Approval Required
              </Text>
              <Text size="sm">
                {user
                  ? 'An instructor of this course approves each enrolment. Enrol to send your request; you can start once it is approved.'
                  : 'Sign in to ask to enrol. An instructor of this course approves each enrolment.'}
              </Text>
            </div>
          ) : null}
          {user && !enrollment && data.requiresEnrollment && !mayRead && data.modules > 0 ? (
            <Text size="sm">Enrol in this course to read its modules.</Text>
          ) : null}
          <Group>
            {/* Start/Continue opens a module from the list: not before the list has loaded (a press then did nothing). */}
            {/* Rendered on request for a visitor (platform/page-render.mjs), it does nothing until the app owns it
                (lib/hydrated.ts), and the visitor's one is not shown where a session is stored (AppLayout.module.css). */}
            <Button
              ref={mainButton}
              size="md"
              onClick={main}
              loading={busy}
              disabled={pending || (data.modules > 0 && modules.isPending)}
              aria-disabled={live ? undefined : true}
              data-guest-login={user ? undefined : ''}
            >
              {label}
            </Button>
          </Group>
        </Stack>
      </Paper>
      {modules.isPending ? (
        <PageSpinner label="Loading modules" />
      ) : (
        <CourseOutline courseId={data.id} service={data.service} modules={list} />
      )}
    </Stack>
  );
}
