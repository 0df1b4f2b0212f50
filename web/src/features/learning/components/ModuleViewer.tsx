// A module as the learner reads it: course badge, title, position, duration, image, the markdown
// body (escaped HTML), 'Mark as complete', the quiz, and previous/next. Someone who may not read it
// is told why (sign in, enrol, or wait for approval) and sent back to the course page.
import { Alert, Anchor, Button, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconCircleCheck, IconClock } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { User } from '@shared/domain.ts';
import { MarkdownContent } from '@/components/MarkdownContent';
import { PageSpinner } from '@/components/PageSpinner';
import { ServiceBadge } from '@/components/ServiceBadge';
import { ApiError, errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { useCompleteModule, useModule } from '../api/module';
import { QuizPanel } from './QuizPanel';
import { PageMeta } from '@/lib/page/page-meta';

/** The text often opens with its own title as a heading: the page already shows it. */
export function withoutLeadingTitle(content: string, title: string): string {
  const match = /^\s*#\s+(.+?)\s*#*\s*(\r?\n|$)/.exec(content);
  return match && match[1].trim().toLowerCase() === title.trim().toLowerCase() ? content.slice(match[0].length) : content;
}

export function ModuleViewer({ courseId, moduleId, user }: { courseId: string; moduleId: string; user: User | null }) {
  const module = useModule(moduleId);
  const complete = useCompleteModule();
  const coursePath = `/course/${courseId}`;

  if (module.isPending) return <PageSpinner label="Loading module" />;
  if (module.isError) {
    const status = module.error instanceof ApiError ? module.error.status : 0;
    const title = status === 404 ? 'Module not found' : status === 401 || status === 403 ? 'This module is not open to you yet' : 'The module could not be loaded';
    return (
      <Stack gap="md" align="flex-start">
        <PageMeta title={title} description={errorDescription(module.error, 'Please try again.')} />
        <Title order={1}>{title}</Title>
        <Text>{errorDescription(module.error, 'Please try again.')}</Text>
        <Group>
          <Button component={Link} to={coursePath}>
            Back to course
          </Button>
          {status === 401 ? (
            <Button component={Link} variant="default" to={`/auth?redirect=${encodeURIComponent(`/course/${courseId}/module/${moduleId}`)}`}>
              Login
            </Button>
          ) : null}
        </Group>
      </Stack>
    );
  }

  const data = module.data;
  const hasQuiz = Boolean(data.quiz);

  function markComplete() {
    complete.mutate(data.id, {
      onSuccess: (enrollment) =>
        notifySuccess(
          hasQuiz && !data.quizPassed ? 'Module read' : 'Module completed',
          hasQuiz && !data.quizPassed ? 'Pass the quiz to complete this module.' : `Course progress: ${enrollment.progress}%.`,
        ),
      onError: (error) => notifyFailure('Progress was not saved', errorDescription(error, 'Please try again.')),
    });
  }

  return (
    <Stack gap="lg">
      <PageMeta title={`${data.title} · ${data.course.title}`} description={`${data.title}, a module of ${data.course.title}.`} />
      <Group>
        <Button component={Link} to={coursePath} variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
          Back to course
        </Button>
      </Group>
      <Stack gap="xs">
        <Group gap="xs">
          <ServiceBadge code={data.course.service} />
          <Anchor component={Link} to={coursePath} size="sm">
            {data.course.title}
          </Anchor>
        </Group>
        <Title order={1}>{data.title}</Title>
        <Group gap="md">
          <Text size="sm" c="dimmed">
            Module {data.position} of {data.total}
          </Text>
          <Group gap={4}>
            <IconClock size={14} aria-hidden="true" />
            <Text size="sm" c="dimmed">
              {data.duration} min
            </Text>
          </Group>
          {data.completed ? (
            <Group gap={4}>
              <IconCircleCheck size={16} aria-hidden="true" color="var(--mantine-color-green-9)" />
              <Text size="sm" fw={700}>
                Completed
              </Text>
            </Group>
          ) : null}
        </Group>
      </Stack>

      <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="article" aria-label="Module content">
        <Stack gap="md">
          {data.image ? <Image src={data.image} alt={`Illustration for ${data.title}`} radius="md" mah={360} fit="contain" /> : null}
          <MarkdownContent source={withoutLeadingTitle(data.content, data.title)} headingOffset={1} />
        </Stack>
      </Paper>

      {user && data.enrolled ? (
        <Group>
          {data.read ? (
            <Text fw={600}>
              {data.completed ? 'You have completed this module.' : 'Marked as read: pass the quiz below to complete this module.'}
            </Text>
          ) : (
            <Button onClick={markComplete} loading={complete.isPending} leftSection={<IconCircleCheck size={18} aria-hidden="true" />}>
              Mark as complete
            </Button>
          )}
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          Enrol in this course to keep your progress.
        </Text>
      )}

      {data.quiz ? (
        <QuizPanel key={data.id} moduleId={data.id} summary={data.quiz} canTake={Boolean(user) && data.enrolled} passedBefore={data.quizPassed} />
      ) : null}

      <Group justify="space-between" component="nav" aria-label="Module navigation">
        {data.previousId ? (
          <Button component={Link} to={`/course/${courseId}/module/${data.previousId}`} variant="default" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
            Previous module
          </Button>
        ) : (
          <span />
        )}
        {data.nextId ? (
          <Button component={Link} to={`/course/${courseId}/module/${data.nextId}`} rightSection={<IconArrowRight size={16} aria-hidden="true" />}>
            Next module
          </Button>
        ) : (
          <Button component={Link} to={coursePath} variant="default">
            Back to course
          </Button>
        )}
      </Group>
    </Stack>
  );
}
