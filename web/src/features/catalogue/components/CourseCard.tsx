// A catalogue card: service badge, Featured mark, title, description, service
// icon, progress when enrolled, and the enrol/start/continue button. The whole card opens the course.
// The author's cover image heads the card: alt="" because it sits beside the course's
// title, which names the course, and authors give no description of the picture (an alt of the title
// would make a screen reader say every title twice); lazy, with a fixed 16:9 box so nothing shifts.
// The title and description in the reader's language: a Welsh reader shown the English gets it in
// lang="en-GB" and one "Ddim ar gael yn Gymraeg" mark on the card.
import { Badge, Button, Card, Group, Image, Progress, Stack, Text, Title } from '@mantine/core';
import { IconStarFilled } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Course } from '@shared/catalogue.ts';
import type { User } from '@shared/domain.ts';
import { NotInWelsh, useLocalise } from '@/components/Localised';
import { ServiceBadge } from '@/components/ServiceBadge';
import { ServiceIcon } from '@/components/ServiceIcon';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure } from '@/lib/notify';
import { useEnroll } from '@/lib/enrol';
import { formatHours } from '@/lib/format';

export function cardButtonLabel(t: TFunction, course: Course, user: User | null): string {
  if (!user) return t('courseCard.loginToEnroll');
  if (!course.enrollment) return t('courseCard.enrollNow');
  return course.enrollment.progress <= 0 ? t('courseCard.startCourse') : t('courseCard.continueCourse');
}

/** Where a visitor goes to sign in; under public-enroll the enrolment intent travels with them. */
export function signInPath(courseId: string, keepEnrolIntent: boolean): string {
  const back = `/course/${courseId}${keepEnrolIntent ? '?enroll=1' : ''}`;
  return `/auth?redirect=${encodeURIComponent(back)}`;
}

/** live: false while the page is the HTML rendered for a visitor, before the app owns it (lib/hydrated.ts). */
export function CourseCard({ course, user, publicEnroll, live = true }: { course: Course; user: User | null; publicEnroll: boolean; live?: boolean }) {
  const { t } = useTranslation('catalogue');
  const navigate = useNavigate();
  const enroll = useEnroll();
  const coursePath = `/course/${course.id}`;
  const label = cardButtonLabel(t, course, user);
  const titleId = `course-title-${course.id}`;
  const localise = useLocalise();
  const title = localise(course.title, course.titleCy);
  const description = localise(course.description, course.descriptionCy);

  function act(event: MouseEvent) {
    event.stopPropagation();
    if (!user) {
      navigate(signInPath(course.id, publicEnroll));
      return;
    }
    if (!course.enrollment) {
      enroll.mutate(course.id, {
        // The course page puts the focus on its main button (the one that now says 'Start Course').
        onSuccess: () => navigate(coursePath, { state: { focusMain: true } }),
        onError: (error) => notifyFailure(t('courseCard.enrolFailed'), errorDescription(error, t('courseCard.tryAgain'))),
      });
      return;
    }
    navigate(coursePath);
  }

  return (
    <Card
      withBorder
      padding="lg"
      radius="md"
      component="article"
      aria-labelledby={titleId}
      onClick={() => navigate(coursePath)}
      style={{ cursor: 'pointer', height: '100%' }}
      data-course-card={course.id}
    >
      {course.coverImage ? (
        <Card.Section mb="md">
          <Image
            src={course.coverImage}
            alt=""
            loading="lazy"
            decoding="async"
            width={640}
            height={360}
            w="100%"
            h="auto"
            fit="cover"
            style={{ aspectRatio: '16 / 9', display: 'block' }}
            data-course-cover
          />
        </Card.Section>
      ) : null}
      <Stack gap="sm" style={{ flex: 1 }}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="xs">
            <ServiceBadge code={course.service} />
            {course.featured ? (
              <Badge
                variant="filled"
                leftSection={<IconStarFilled size={12} aria-hidden="true" />}
                style={{ backgroundColor: 'var(--mantine-color-yellow-3)', color: '#000' }}
              >
                {t('courseCard.featured')}
              </Badge>
            ) : null}
          </Group>
          <ServiceIcon code={course.service} />
        </Group>
        <Title order={3} size="h4" id={titleId}>
          {/* The link gives keyboard users the card's own action. */}
          <Link to={coursePath} onClick={(event) => event.stopPropagation()} style={{ color: 'inherit' }}>
            <span lang={title.lang}>{title.text}</span>
          </Link>
        </Title>
        {title.fallback || (description.fallback && description.text.trim() !== '') ? (
          <div>
            <NotInWelsh />
          </div>
        ) : null}
        <Text size="sm" c="dimmed" lineClamp={3} lang={description.lang}>
          {description.text}
        </Text>
        <Text size="xs" c="dimmed">
          {t('courseCard.modules', { count: course.modules })} · {formatHours(course.duration)}
        </Text>
        <Stack gap="sm" mt="auto">
          {course.enrollment ? (
            <div>
              <Group justify="space-between" mb={4}>
                <Text size="sm">{course.enrollment.status === 'PENDING' ? t('courseCard.awaitingApproval') : t('courseCard.progress')}</Text>
                <Text size="sm" fw={600}>
                  {course.enrollment.progress}%
                </Text>
              </Group>
              <Progress.Root>
                <Progress.Section value={course.enrollment.progress} aria-label={t('courseCard.progressOn', { title: title.text })} />
              </Progress.Root>
            </div>
          ) : null}
          {/* In the HTML rendered on request, the button does nothing until the app owns it. */}
          <Button
            fullWidth
            onClick={act}
            loading={enroll.isPending}
            aria-describedby={titleId}
            aria-disabled={live ? undefined : true}
          >
            {label}
          </Button>
        </Stack>
      </Stack>
    </Card>
  );
}
