// A module as the learner reads it: course badge, title, position, duration, image, the markdown
// body (escaped HTML), 'Mark as complete', the quiz, and previous/next. Beside it (below on a phone)
// the course's modules with their done marks and the learner's progress ('3 of 5 modules complete');
// 'Mark as complete and continue' records the module and opens the next, while 'Next module' moves
// on without recording it. Once the course is complete its certificate is one press away.
// Someone who may not read it is told why (sign in, enrol, or wait for approval) and sent back to
// the course page. Course content in the reader's language: a Welsh reader shown the English (a title,
// the text) gets it in lang="en-GB", with one "Ddim ar gael yn Gymraeg" mark on the module (and one
// on the list of modules).
import { Alert, Anchor, Button, Grid, Group, Image, Paper, Progress, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconCircleCheck, IconClock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { CourseModule } from '@shared/catalogue.ts';
import type { Enrollment } from '@shared/enrollment.ts';
import type { User } from '@shared/domain.ts';
import { Interpolated, NotInWelsh, SLOT, useLocalise } from '@/components/Localised';
import { MarkdownContent } from '@/components/MarkdownContent';
import { PageSpinner } from '@/components/PageSpinner';
import { ServiceBadge } from '@/components/ServiceBadge';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { courseModulesQueryOptions, courseQueryOptions } from '@/lib/courses';
import { CertificateLinks } from '@/components/CertificateLinks';
import { certificatePath, downloadCertificate } from '@/lib/certificates';
import { useCompleteModule, useModule } from '../api/module';
import { useOfflineQueue } from '@/lib/offline/hooks';
import { withQueuedReads } from '@/lib/offline/progress';
import { QuizPanel } from './QuizPanel';
import { PageMeta } from '@/lib/page/page-meta';

// The SCORM player only for a package module: other modules never load it.
const ScormPlayer = lazy(() => import('./ScormPlayer'));
// The learners' SCORM progress, asked for only by instructors and administrators (the server decides
// whether they manage this course).
const ScormLearners = lazy(() => import('./ScormLearners'));
// A classroom session's dates and the learner's booking, only for a session module.
const SessionBookingPanel = lazy(() => import('@/features/sessions/components/SessionBookingPanel'));

/** A practical assessment's checklist and the learner's outcome, handed in by the route (features/assessments). */
export type AssessmentPanelSlot = (props: { moduleId: string; enrolled: boolean }) => ReactNode;

/** '3 of 5 modules complete' and the rounded percentage the bar shows. */
export function moduleProgress(t: TFunction, modules: Pick<CourseModule, 'completed'>[]): { done: number; total: number; percent: number; text: string } {
  const total = modules.length;
  const done = modules.filter((module) => module.completed).length;
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  return { done, total, percent, text: t('moduleViewer.progressText', { done, count: total }) };
}

/** Navigation state: the next module's heading takes the focus ('Mark as complete and continue'). */
interface ModuleNavigationState {
  focusHeading?: boolean;
}

/** The text often opens with its own title as a heading: the page already shows it. */
export function withoutLeadingTitle(content: string, title: string): string {
  const match = /^\s*#\s+(.+?)\s*#*\s*(\r?\n|$)/.exec(content);
  return match && match[1].trim().toLowerCase() === title.trim().toLowerCase() ? content.slice(match[0].length) : content;
}

/** The course's modules beside the one being read: done marks, the current one, and the progress. */
function CourseModuleList({ courseId, currentId, modules, showProgress }: { courseId: string; currentId: string; modules: CourseModule[]; showProgress: boolean }) {
  const { t } = useTranslation('learning');
  const localise = useLocalise();
  const progress = moduleProgress(t, modules);
  const titles = modules.map((module) => localise(module.title, module.titleCy));
  return (
    <Paper withBorder p="md" component="nav" aria-labelledby="course-modules-heading" data-testid="course-module-list">
      <Stack gap="sm">
        <Title order={2} size="h4" id="course-modules-heading">
          {t('moduleViewer.courseModules')}
        </Title>
        {titles.some((title) => title.fallback) ? (
          <div>
            <NotInWelsh />
          </div>
        ) : null}
        {showProgress ? (
          <div>
            <Text size="sm" fw={600} id="course-modules-progress" data-testid="module-progress-text">
              {progress.text}
            </Text>
            <Progress
              mt={6}
              value={progress.percent}
              color={progress.percent >= 100 ? 'green.9' : undefined}
              aria-label={t('moduleViewer.courseProgressLabel', { text: progress.text, percent: progress.percent })}
            />
          </div>
        ) : null}
        <Stack component="ol" gap={6} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {modules.map((module, index) => {
            const current = module.id === currentId;
            const title = titles[index];
            return (
              <Group component="li" key={module.id} gap="xs" wrap="nowrap" align="flex-start" data-module-item={module.id} data-completed={module.completed || undefined}>
                <ThemeIcon
                  variant={module.completed ? 'filled' : 'light'}
                  color={module.completed ? 'green.9' : 'gray'}
                  radius="xl"
                  size="sm"
                  aria-hidden="true"
                >
                  {module.completed ? <IconCircleCheck size={14} /> : <Text size="10px" fw={700}>{index + 1}</Text>}
                </ThemeIcon>
                <Text size="sm" fw={current ? 700 : 400} style={{ flex: 1 }}>
                  {current ? (
                    <span aria-current="page">
                      <VisuallyHidden>{t('moduleViewer.modulePrefix', { number: index + 1 })}</VisuallyHidden>
                      <span lang={title.lang}>{title.text}</span>
                      {module.completed ? <VisuallyHidden>{t('moduleViewer.completedMark')}</VisuallyHidden> : null}
                      <VisuallyHidden>{t('moduleViewer.thisModule')}</VisuallyHidden>
                    </span>
                  ) : (
                    // One box (inline-block): the hidden prefix would otherwise start the link with an empty line box.
                    <Anchor component={Link} to={`/course/${courseId}/module/${module.id}`} inherit style={{ display: 'inline-block' }}>
                      <VisuallyHidden>{t('moduleViewer.modulePrefix', { number: index + 1 })}</VisuallyHidden>
                      <span lang={title.lang}>{title.text}</span>
                      {module.completed ? <VisuallyHidden>{t('moduleViewer.completedMark')}</VisuallyHidden> : null}
                    </Anchor>
                  )}
                </Text>
              </Group>
            );
          })}
        </Stack>
      </Stack>
    </Paper>
  );
}

export function ModuleViewer({ courseId, moduleId, user, assessmentPanel }: {
  courseId: string;
  moduleId: string;
  user: User | null;
  assessmentPanel?: AssessmentPanelSlot;
}) {
  const { t } = useTranslation('learning');
  const localise = useLocalise();
  const module = useModule(moduleId);
  const course = useQuery({ ...courseQueryOptions(courseId), enabled: module.isSuccess });
  const modules = useQuery({ ...courseModulesQueryOptions(courseId), enabled: module.isSuccess });
  const complete = useCompleteModule();
  const navigate = useNavigate();
  const location = useLocation();
  const coursePath = `/course/${courseId}`;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const markButton = useRef<HTMLButtonElement>(null);
  const continueButton = useRef<HTMLButtonElement>(null);
  /** After a failure the pressed button is enabled again: it takes the focus back (it was disabled while saving). */
  const refocus = (button: { current: HTMLButtonElement | null }) => setTimeout(() => button.current?.focus(), 0);
  // After 'Mark as complete' the button gives way to a status line: the focus moves onto it.
  const focusStatus = useRef(false);
  // Marked read offline: kept in the learner's queue until the connection is back.
  const queue = useOfflineQueue(user?.id);
  const readOffline = queue.data?.some((queued) => queued.item.kind === 'module-read' && queued.item.moduleId === moduleId) ?? false;
  const read = (module.data?.read ?? false) || readOffline;

  useEffect(() => {
    if (focusStatus.current && read) {
      statusRef.current?.focus();
      focusStatus.current = false;
    }
  }, [read]);

  // Arrived through 'Mark as complete and continue': the focus starts at this module's heading.
  const focusHeading = Boolean((location.state as ModuleNavigationState | null)?.focusHeading);
  const loaded = module.isSuccess;
  useEffect(() => {
    if (focusHeading && loaded) headingRef.current?.focus();
  }, [focusHeading, loaded]);

  if (module.isPending) return <PageSpinner label={t('moduleViewer.loading')} />;
  if (module.isError) {
    const status = module.error instanceof ApiError ? module.error.status : 0;
    const title = status === 404
      ? t('moduleViewer.notFound')
      : status === 401 || status === 403
        ? t('moduleViewer.notOpen')
        : t('moduleViewer.loadFailed');
    return (
      <Stack gap="md" align="flex-start">
        <PageMeta title={title} description={errorDescription(module.error, t('moduleViewer.tryAgain'))} />
        <Title order={1}>{title}</Title>
        <Text>{errorDescription(module.error, t('moduleViewer.tryAgain'))}</Text>
        <Group>
          <Button component={Link} to={coursePath}>
            {t('moduleViewer.backToCourse')}
          </Button>
          {status === 401 ? (
            <Button component={Link} variant="default" to={`/auth?redirect=${encodeURIComponent(`/course/${courseId}/module/${moduleId}`)}`}>
              {t('moduleViewer.login')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    );
  }

  const data = module.data;
  const title = localise(data.title, data.titleCy);
  const courseTitle = localise(data.course.title, data.course.titleCy);
  const content = localise(data.content, data.contentCy);
  const hasQuiz = Boolean(data.quiz);
  const enrolled = Boolean(user) && data.enrolled;
  const courseEnrollment = course.data?.enrollment ?? null;
  const certificateId = courseEnrollment?.completed ? courseEnrollment.certificateId : null;
  const staff = user?.role === 'INSTRUCTOR' || user?.role === 'ADMIN';
  // 'Mark as complete and continue' only where marking completes the module (a quiz still to pass does not).
  const scorm = data.kind === 'scorm';
  // A package completes the module by what it reports (the server decides), never by a button.
  // A session completes by its register, and a practical assessment by an assessor's signature,
  // never by the learner's button.
  const session = data.kind === 'session';
  const assessment = data.kind === 'assessment';
  const canCompleteAndContinue = !scorm && !session && !assessment && enrolled && !read && !(hasQuiz && !data.quizPassed) && data.nextId !== null;

  /** The toast after a module: the course's completion with its certificate, else the progress
   * (or, offline, that it is kept on the device). */
  function notifyCompleted(enrollment: Enrollment | null) {
    if (!enrollment) {
      notifySuccess(t('moduleViewer.savedOfflineTitle'), t('moduleViewer.savedOffline'));
      return;
    }
    if (hasQuiz && !data.quizPassed) {
      notifySuccess(t('moduleViewer.moduleRead'), t('moduleViewer.passQuizToComplete'));
      return;
    }
    const issued = enrollment.completed ? (enrollment.certificateId ?? null) : null;
    if (!issued) {
      notifySuccess(t('moduleViewer.moduleCompleted'), t('moduleViewer.courseProgress', { progress: enrollment.progress }));
      return;
    }
    // The toast lies outside the router: its links navigate through this page's navigate().
    notifySuccess(
      t('moduleViewer.courseCompleted'),
      <Stack gap={6}>
        <Text size="sm">
          <Interpolated message={t('moduleViewer.youCompleted', { title: SLOT })} value={courseTitle} />
        </Text>
        <Group gap="md">
          <Anchor
            size="sm"
            href={certificatePath(issued)}
            onClick={(event) => {
              event.preventDefault();
              navigate(certificatePath(issued));
            }}
          >
            {t('moduleViewer.viewCertificate')}
          </Anchor>
          <Anchor
            size="sm"
            component="button"
            type="button"
            onClick={() =>
              downloadCertificate(issued).catch((error: unknown) =>
                notifyFailure(t('moduleViewer.downloadFailed'), errorDescription(error, t('moduleViewer.certificateNotDownloaded'))))
            }
          >
            {t('moduleViewer.downloadPdf')}
          </Anchor>
        </Group>
      </Stack>,
      { autoClose: 12_000 },
    );
  }

  function markComplete() {
    // Set before the call: the refetch that turns the button into the status line can render before onSuccess runs.
    focusStatus.current = true;
    complete.mutate(data.id, {
      onSuccess: (enrollment) => notifyCompleted(enrollment),
      onError: (error) => {
        focusStatus.current = false;
        notifyFailure(t('moduleViewer.progressNotSaved'), errorDescription(error, t('moduleViewer.tryAgain')));
        refocus(markButton);
      },
    });
  }

  function completeAndContinue() {
    const nextId = data.nextId;
    if (!nextId) return;
    complete.mutate(data.id, {
      onSuccess: (enrollment) => {
        notifyCompleted(enrollment);
        navigate(`/course/${courseId}/module/${nextId}`, { state: { focusHeading: true } satisfies ModuleNavigationState });
      },
      onError: (error) => {
        notifyFailure(t('moduleViewer.progressNotSaved'), errorDescription(error, t('moduleViewer.tryAgain')));
        refocus(continueButton);
      },
    });
  }

  // One mark for the module: its title, its text (a package's is its own; a practical without an
  // introduction has none) or the course's title in English.
  const english = title.fallback || courseTitle.fallback || (!scorm && content.fallback && data.content.trim() !== '');

  const moduleList = modules.data && modules.data.length > 0 ? (
    <CourseModuleList courseId={courseId} currentId={data.id} modules={withQueuedReads(modules.data, queue.data)} showProgress={enrolled} />
  ) : null;

  return (
    <Stack gap="lg">
      <PageMeta title={`${title.text} · ${courseTitle.text}`} description={t('moduleViewer.metaDescription', { module: title.text, course: courseTitle.text })} />
      <Group>
        <Button component={Link} to={coursePath} variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
          {t('moduleViewer.backToCourse')}
        </Button>
      </Group>
      <Grid gap="lg">
        {/* A SCORM package gets the page's whole width (authoring tools design for 1,000 px and more);
            the course's modules then follow below it. */}
        <Grid.Col span={{ base: 12, md: scorm ? 12 : 8 }}>
          <Stack gap="lg">
            <Stack gap="xs">
              <Group gap="xs">
                <ServiceBadge code={data.course.service} />
                <Anchor component={Link} to={coursePath} size="sm" lang={courseTitle.lang}>
                  {courseTitle.text}
                </Anchor>
              </Group>
              <Title order={1} ref={headingRef} tabIndex={-1} style={{ outlineOffset: 4 }} lang={title.lang}>
                {title.text}
              </Title>
              <Group gap="md">
                <Text size="sm" c="dimmed">
                  {t('moduleViewer.position', { position: data.position, total: data.total })}
                </Text>
                <Group gap={4}>
                  <IconClock size={14} aria-hidden="true" />
                  <Text size="sm" c="dimmed">
                    {t('moduleViewer.minutes', { count: data.duration })}
                  </Text>
                </Group>
                {data.completed ? (
                  <Group gap={4}>
                    <IconCircleCheck size={16} aria-hidden="true" color="var(--mantine-color-green-9)" />
                    <Text size="sm" fw={700}>
                      {t('moduleViewer.completed')}
                    </Text>
                  </Group>
                ) : null}
                {english ? <NotInWelsh /> : null}
              </Group>
            </Stack>

            {scorm ? (
              <Suspense fallback={<Text size="sm">{t('moduleViewer.loadingPackage')}</Text>}>
                <ScormPlayer moduleId={data.id} enrolled={enrolled} staff={staff} personId={user?.id ?? null} />
              </Suspense>
            ) : assessment && !content.text.trim() && !data.image ? null : (
              // A practical assessment's text is an optional introduction: none, no empty box.
              <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="article" aria-label={t('moduleViewer.moduleContent')}>
                <Stack gap="md">
                  {data.image ? <Image src={data.image} alt={t('moduleViewer.illustration', { title: title.text })} radius="md" mah={360} fit="contain" /> : null}
                  {/* The text drops its own leading title, the one in its language. */}
                  <MarkdownContent
                    source={withoutLeadingTitle(content.text, content.lang === 'cy' ? (data.titleCy ?? data.title) : data.title)}
                    headingOffset={1}
                    lang={content.lang}
                  />
                </Stack>
              </Paper>
            )}

            {scorm && staff ? (
              <Suspense fallback={null}>
                <ScormLearners moduleId={data.id} />
              </Suspense>
            ) : null}

            {assessment ? assessmentPanel?.({ moduleId: data.id, enrolled }) : null}

            {session ? (
              <Suspense fallback={<Text size="sm">{t('moduleViewer.loading')}</Text>}>
                <SessionBookingPanel moduleId={data.id} enrolled={enrolled} />
              </Suspense>
            ) : scorm || assessment ? null : enrolled ? (
              <Group>
                {data.read ? (
                  <Text fw={600} ref={statusRef} tabIndex={-1} data-testid="module-status">
                    {data.completed ? t('moduleViewer.statusCompleted') : t('moduleViewer.statusRead')}
                  </Text>
                ) : readOffline ? (
                  <Text fw={600} ref={statusRef} tabIndex={-1} data-testid="module-status">
                    {t('moduleViewer.savedOffline')}
                  </Text>
                ) : (
                  <Button ref={markButton} onClick={markComplete} loading={complete.isPending} leftSection={<IconCircleCheck size={18} aria-hidden="true" />}>
                    {t('moduleViewer.markComplete')}
                  </Button>
                )}
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                {t('moduleViewer.enrolToKeepProgress')}
              </Text>
            )}

            {certificateId ? (
              <Alert
                color="green"
                variant="light"
                title={t('moduleViewer.courseCompletedTitle')}
                icon={<IconCircleCheck size={20} aria-hidden="true" color="var(--mantine-color-green-9)" />}
                styles={{ title: { color: 'var(--mantine-color-text)' } }}
              >
                <Stack gap="sm">
                  <Text size="sm" c="var(--mantine-color-text)">
                    {t('moduleViewer.allModulesCompleted')}
                  </Text>
                  <CertificateLinks certificateId={certificateId} />
                </Stack>
              </Alert>
            ) : null}

            {data.quiz ? (
              <QuizPanel key={data.id} moduleId={data.id} summary={data.quiz} canTake={enrolled} passedBefore={data.quizPassed} />
            ) : null}

            <Group justify="space-between" component="nav" aria-label={t('moduleViewer.navigation')}>
              {data.previousId ? (
                <Button component={Link} to={`/course/${courseId}/module/${data.previousId}`} variant="default" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
                  {t('moduleViewer.previousModule')}
                </Button>
              ) : (
                <span />
              )}
              {data.nextId ? (
                <Group gap="sm">
                  {canCompleteAndContinue ? (
                    <>
                      {/* Moving on without recording this module: a plain link, apart from the main action. */}
                      <Button component={Link} to={`/course/${courseId}/module/${data.nextId}`} variant="default" rightSection={<IconArrowRight size={16} aria-hidden="true" />}>
                        {t('moduleViewer.nextModule')}
                      </Button>
                      <Button ref={continueButton} onClick={completeAndContinue} loading={complete.isPending} rightSection={<IconArrowRight size={16} aria-hidden="true" />}>
                        {t('moduleViewer.completeAndContinue')}
                      </Button>
                    </>
                  ) : (
                    <Button component={Link} to={`/course/${courseId}/module/${data.nextId}`} rightSection={<IconArrowRight size={16} aria-hidden="true" />}>
                      {t('moduleViewer.nextModule')}
                    </Button>
                  )}
                </Group>
              ) : (
                <Button component={Link} to={coursePath} variant="default">
                  {t('moduleViewer.backToCourse')}
                </Button>
              )}
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: scorm ? 12 : 4 }}>{moduleList}</Grid.Col>
      </Grid>
    </Stack>
  );
}
