// The course page: back link, badge, title, description, module
// count, progress with 'Course completed!', the outline, and one main button whose label follows
// the learner's state. Start/Continue open the next unfinished module; a course without modules
// steps its progress on the server. Under public-enroll, ?enroll=1 (the intent a visitor carried
// through /auth) enrols on arrival. The author's cover image heads the page (alt="": the title beside
// it names the course); a completed course offers its certificate. After 'Enroll Now' (here or on a
// catalogue card) the keyboard focus is on the main button, not lost to the page.
// The title, description and outline in the reader's language: a Welsh reader shown the English gets
// it in lang="en-GB", with one "Ddim ar gael yn Gymraeg" mark in the header (and one per module row).
import { Alert, Box, Button, Group, Image, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useEffectEvent, useRef } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Course, CourseModule } from '@shared/catalogue.ts';
import type { User } from '@shared/domain.ts';
import type { CourseLevel } from '@shared/domain.ts';
import { PROGRESS_MAX } from '@shared/progress.ts';
import { NotInWelsh, useLocalise } from '@/components/Localised';
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
import { formatHours } from '@/lib/format';
import { labelOf } from '@/lib/i18n/labels';
import { useOfflineQueue } from '@/lib/offline/hooks';
import { withQueuedReads } from '@/lib/offline/progress';

/** The module Start/Continue opens: the first unfinished one, else the first. */
export function nextModule(modules: CourseModule[]): CourseModule | undefined {
  return modules.find((module) => !module.completed) ?? modules[0];
}

export function signInPath(courseId: string, keepEnrolIntent: boolean): string {
  const back = `/course/${courseId}${keepEnrolIntent ? '?enroll=1' : ''}`;
  return `/auth?redirect=${encodeURIComponent(back)}`;
}

/** The main button's label for an enrolled learner: Start, Continue or Review Course by the progress. */
export function courseButtonLabel(t: TFunction, progress: number): string {
  if (progress <= 0) return t('courseDetail.startCourse');
  if (progress >= PROGRESS_MAX) return t('courseDetail.reviewCourse');
  return t('courseDetail.continueCourse');
}

function CourseNotFound() {
  const { t } = useTranslation('course');
  return (
    <Stack align="center" gap="sm" py="xl">
      <PageMeta title={t('courseNotFound.title')} description={t('courseNotFound.description')} />
      <Title order={1}>{t('courseNotFound.title')}</Title>
      <Text>{t('courseNotFound.description')}</Text>
      <Button component={Link} to="/">
        {t('courseNotFound.returnHome')}
      </Button>
    </Stack>
  );
}

export function CourseDetail({ courseId, user, publicEnroll }: { courseId: string; user: User | null; publicEnroll: boolean }) {
  const { t } = useTranslation('course');
  const navigate = useNavigate();
  const localise = useLocalise();
  const [params, setParams] = useSearchParams();
  const course = useCourse(courseId);
  const modules = useCourseModules(courseId, course.isSuccess);
  const queue = useOfflineQueue(user?.id);
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
          created.status === 'PENDING' ? t('courseDetail.enrolmentRequested') : t('courseDetail.enrolled'),
          created.status === 'PENDING'
            ? t('courseDetail.approvalToCome')
            : t('courseDetail.enrolledIn', { title: localise(target.title, target.titleCy).text }),
        ),
      onError: (error) => notifyFailure(t('courseDetail.enrolFailed'), errorDescription(error, t('courseDetail.tryAgain'))),
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
        <PageSpinner label={t('courseDetail.loading')} />
      </Box>
    );
  }
  if (course.isError) {
    if (course.error instanceof ApiError && course.error.status === 404) return <CourseNotFound />;
    return (
      <Alert color="red" title={t('courseDetail.loadFailed')}>
        {errorDescription(course.error, t('courseDetail.tryAgain'))}
      </Alert>
    );
  }

  const data = course.data;
  // Modules marked read offline count as this device knows them until the queue is replayed.
  const list = withQueuedReads(modules.data ?? [], queue.data);
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
        onError: (error) => notifyFailure(t('courseDetail.progressNotSaved'), errorDescription(error, t('courseDetail.tryAgain'))),
      });
      return;
    }
    const target = enrollment.completed ? list[0] : nextModule(list);
    if (target) navigate(`/course/${data.id}/module/${target.id}`);
  }

  const title = localise(data.title, data.titleCy);
  const description = localise(data.description, data.descriptionCy);

  const label = !user ? t('courseDetail.loginToEnroll') : !enrollment ? t('courseDetail.enrollNow') : courseButtonLabel(t, progress);

  return (
    <Stack gap="lg">
      <PageMeta title={title.text} description={description.text || t('courseDetail.metaDescription', { title: title.text })} />
      <Group>
        <Button component={Link} to="/" variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
          {t('courseDetail.backToCourses')}
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
                {labelOf('courseLevel', data.level as CourseLevel)}
              </Text>
            </Group>
            <ServiceIcon code={data.service} size={36} />
          </Group>
          <Title order={1} lang={title.lang}>
            {title.text}
          </Title>
          {title.fallback || (description.fallback && description.text) ? (
            <div>
              <NotInWelsh />
            </div>
          ) : null}
          <Text lang={description.lang}>{description.text}</Text>
          <Text size="sm" c="dimmed">
            {t('courseDetail.modules', { count: data.modules })} · {formatHours(data.duration)}
            {data.author ? ` · ${t('courseDetail.byAuthor', { name: data.author.name })}` : ''}
          </Text>
          {enrollment ? (
            <div>
              <Group justify="space-between" mb={4}>
                <Text size="sm" id="course-progress-label">
                  {t('courseDetail.yourProgress')}
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
                  <Text fw={700}>{t('courseDetail.courseCompleted')}</Text>
                </Group>
              ) : null}
              {enrollment.completed && enrollment.certificateId ? (
                <Group gap="sm" mt="sm">
                  <Text size="sm">{t('courseDetail.certificateReady')}</Text>
                  <CertificateLinks certificateId={enrollment.certificateId} />
                </Group>
              ) : null}
            </div>
          ) : null}
          {pending ? (
            <Alert color="yellow" title={t('courseDetail.pendingTitle')} variant="light" ref={pendingNotice} tabIndex={-1} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
              <Text size="sm" c="var(--mantine-color-text)">
                {t('courseDetail.pendingText')}
              </Text>
            </Alert>
          ) : null}
          {data.approvalRequired && !enrollment ? (
            <div data-testid="course-approval">
              <Text size="sm" fw={700}>
                {labelOf('courseAccess', 'login-approval')}
              </Text>
              <Text size="sm">
                {user
                  ? t('courseDetail.approvalSignedIn')
                  : t('courseDetail.approvalVisitor')}
              </Text>
            </div>
          ) : null}
          {user && !enrollment && data.requiresEnrollment && !mayRead && data.modules > 0 ? (
            <Text size="sm">{t('courseDetail.enrolToRead')}</Text>
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
        <PageSpinner label={t('courseDetail.loadingModules')} />
      ) : (
        <CourseOutline courseId={data.id} service={data.service} modules={list} />
      )}
    </Stack>
  );
}
