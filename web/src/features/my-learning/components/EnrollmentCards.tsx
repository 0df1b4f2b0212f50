// Cards for one enrolment (My Courses and the dashboard): in progress (progress and Continue Course,
// or awaiting approval; a recertification shows the certificate it renews) and completed (tick,
// completion date, the certificate's validity, View Certificate, and Start recertification when the
// certificate is expiring or expired). The course's title in the reader's language: a Welsh reader
// shown the English gets it in lang="en-GB" and one "Ddim ar gael yn Gymraeg" mark on the card. The
// enrolments answer no Welsh description: a Welsh reader sees the (English) description only on a card
// that is English anyway, rather than a Welsh course marked as not in Welsh.
import { Badge, Button, Card, Group, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconClock, IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';
import { canRecertify } from '@shared/certificates.ts';
import { type Localised, NotInWelsh, useLocalise } from '@/components/Localised';
import { ServiceBadge } from '@/components/ServiceBadge';
import { attentionStyle, CertificateValidityLine } from '@/components/CertificateValidity';
import { RecertifyButton } from '@/components/RecertifyButton';
import { OfflineCourseControl } from '@/components/OfflineCourseControl';
import type { Enrollment } from '../api/get-enrollments';
import { formatDate } from '@/lib/format';
import { Trans, useTranslation } from 'react-i18next';

/** Where "View Certificate" goes: the certificate on /certificates, else the course page. */
export function certificateLink(e: Enrollment): string {
  return e.certificateId ? `/certificates?id=${encodeURIComponent(e.certificateId)}` : `/course/${e.courseId}`;
}

/** An enrolment's course title in the reader's language ('Course no longer available' when it is gone). */
export function useEnrolmentTitle(): (e: Enrollment) => Localised {
  const { t, i18n } = useTranslation('my-learning');
  const localise = useLocalise();
  return (e) =>
    e.course ? localise(e.course.title, e.course.titleCy) : { text: t('shared.courseGone'), lang: i18n.language === 'cy' ? 'cy' : 'en-GB', fallback: false };
}

/** The card's title and description: the description only where it is in the reader's language or the title is English too. */
function useCardTexts(e: Enrollment): { title: Localised; description: string | null } {
  const { i18n } = useTranslation('my-learning');
  const title = useEnrolmentTitle()(e);
  const welshReader = i18n.language === 'cy';
  const description = e.course && (!welshReader || title.fallback) ? e.course.description : null;
  return { title, description };
}

/** The title as the card's heading, marked when a Welsh reader is shown the English. */
function CardTitle({ title, order }: { title: Localised; order: 2 | 3 | 4 }) {
  return (
    <>
      <Title order={order} size="h4" lang={title.lang}>
        {title.text}
      </Title>
      {title.fallback ? (
        <div>
          <NotInWelsh />
        </div>
      ) : null}
    </>
  );
}

interface CardProps {
  enrollment: Enrollment;
  /** Heading level of the card title within the page. */
  headingOrder?: 2 | 3 | 4;
  /** Button wording: My Courses says 'Continue Course' (the default), the dashboard 'Continue Learning'. */
  continueLabel?: string;
  /** Withdraws a pending request (My Courses); absent elsewhere. */
  onWithdraw?: (enrollment: Enrollment) => void;
  withdrawing?: boolean;
}

export function InProgressCard({ enrollment: e, headingOrder = 3, continueLabel, onWithdraw, withdrawing }: CardProps) {
  const { t } = useTranslation('my-learning');
  const texts = useCardTexts(e);
  const title = texts.title.text;
  const pending = e.status === 'PENDING';
  // Not completed but holding a certificate of the course: this pass renews it.
  const renewing = e.certificate != null && e.certificate.cycle < e.cycle;
  return (
    <Card withBorder padding="lg" radius="md" component="article" aria-label={title} h="100%" style={renewing ? attentionStyle(e.certificate!.state) : undefined}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" gap="xs">
          {e.course ? <ServiceBadge code={e.course.service} /> : <span />}
          {pending ? (
            <Badge color="yellow.9" variant="filled" autoContrast leftSection={<IconClock size={14} aria-hidden />}>
              {t('shared.awaitingApproval')}
            </Badge>
          ) : renewing ? (
            <Badge color="blue.9" variant="filled" leftSection={<IconRefresh size={14} aria-hidden />}>
              {t('enrollmentCards.recertifying')}
            </Badge>
          ) : null}
        </Group>
        <CardTitle title={texts.title} order={headingOrder} />
        {texts.description ? (
          <Text size="sm" c="dimmed" lineClamp={3} lang="en-GB">
            {texts.description}
          </Text>
        ) : null}
        <Text size="sm">{t('enrollmentCards.modules', { count: e.course?.modules ?? 0 })}</Text>
        {renewing ? (
          <Stack gap={4}>
            <Text size="sm">{t('enrollmentCards.currentCertificate')}</Text>
            <CertificateValidityLine certificate={e.certificate!} />
          </Stack>
        ) : null}
        {pending ? (
          <Text size="sm">{t('enrollmentCards.waitingApproval')}</Text>
        ) : (
          <Stack gap={4}>
            <Group justify="space-between">
              <Text size="sm">{t('enrollmentCards.progress')}</Text>
              <Text size="sm" fw={600}>
                {e.progress}%
              </Text>
            </Group>
            <Progress value={e.progress} aria-label={t('enrollmentCards.progressLabel', { title, progress: e.progress })} />
          </Stack>
        )}
        <Group mt="auto">
          {e.course ? (
            pending ? (
              <Button component={Link} to={`/course/${e.courseId}`} variant="default">
                {t('enrollmentCards.viewCourse')}
              </Button>
            ) : (
              <Button component={Link} to={`/course/${e.courseId}`}>
                {continueLabel ?? t('enrollmentCards.continueCourse')}
              </Button>
            )
          ) : null}
          {pending && onWithdraw ? (
            <Button variant="subtle" color="red.8" loading={withdrawing} onClick={() => onWithdraw(e)} aria-label={t('enrollmentCards.withdrawLabel', { title })}>
              {t('enrollmentCards.withdraw')}
            </Button>
          ) : null}
        </Group>
        {e.course && !pending ? <OfflineCourseControl personId={e.userId} courseId={e.courseId} title={title} /> : null}
      </Stack>
    </Card>
  );
}

export function CompletedCard({ enrollment: e, headingOrder = 3, reviewButton = false }: CardProps & { reviewButton?: boolean }) {
  const { t } = useTranslation('my-learning');
  const texts = useCardTexts(e);
  const title = texts.title.text;
  const certificate = e.certificate ?? null;
  const recertifiable = certificate !== null && certificate.cycle === e.cycle && e.course !== null && canRecertify(certificate.state);
  return (
    <Card withBorder padding="lg" radius="md" component="article" aria-label={title} h="100%" style={attentionStyle(certificate?.state)}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" gap="xs">
          {e.course ? <ServiceBadge code={e.course.service} /> : <span />}
          <ThemeIcon color="green.9" variant="filled" radius="xl" aria-hidden>
            <IconCircleCheck size={18} />
          </ThemeIcon>
        </Group>
        <CardTitle title={texts.title} order={headingOrder} />
        {texts.description ? (
          <Text size="sm" c="dimmed" lineClamp={2} lang="en-GB">
            {texts.description}
          </Text>
        ) : null}
        <Text size="sm">
          <Trans t={t} i18nKey="enrollmentCards.completedOn" values={{ date: formatDate(e.completedAt) }} components={{ strong: <strong /> }} />
        </Text>
        {certificate ? <CertificateValidityLine certificate={certificate} /> : null}
        <Group mt="auto" gap="sm">
          <Button component={Link} to={certificateLink(e)} aria-label={t('enrollmentCards.viewCertificateLabel', { title })}>
            {t('enrollmentCards.viewCertificate')}
          </Button>
          {reviewButton && e.course ? (
            <Button component={Link} to={`/course/${e.courseId}`} variant="default">
              {t('enrollmentCards.reviewCourse')}
            </Button>
          ) : null}
          {recertifiable ? <RecertifyButton courseId={e.courseId} courseTitle={title} variant="outline" /> : null}
        </Group>
        {/* A finished course stays on the device for review offline, and is removed from here too. */}
        {e.course ? <OfflineCourseControl personId={e.userId} courseId={e.courseId} title={title} /> : null}
      </Stack>
    </Card>
  );
}
