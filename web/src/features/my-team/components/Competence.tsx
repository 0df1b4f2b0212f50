// Maintenance of competence on My team, beside the online training: the summary's "Sessions booked",
// "Practicals due" and "Practicals overdue"; each person's next session and practicals (due and
// overdue badges with their dates); and on a report's record their upcoming sessions and their
// practical assessments (last sign-off, valid until, state). The states are the server's
// (private.practical_states): due when validity ends within 60 days, overdue when it ended or the
// practical was never signed off. Badge colours are at least 4.5:1 (WCAG 2.2 AA), and the words
// always carry the meaning.
import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LiveBookingStatus, PracticalStanding, PracticalState, UpcomingSession, UpcomingSessionDetail } from '@shared/competence.ts';
import type { TeamMember, TeamSummary } from '@shared/team.ts';
import { Field, FieldList } from '@/components/FieldList';
import { NotInWelsh, useLocalise } from '@/components/Localised';
import { formatDate, formatDateTime } from '@/lib/format';
import { usePhoneLayout } from '@/lib/use-phone-layout';
import { Figure } from './TeamFigure';

type BadgeStyle = { backgroundColor: string; color: string };

const PRACTICAL_STYLES: Record<PracticalState, BadgeStyle> = {
  overdue: { backgroundColor: 'var(--mantine-color-red-9)', color: '#fff' },
  due: { backgroundColor: 'var(--mantine-color-yellow-3)', color: '#000' },
  'awaiting-sign-off': { backgroundColor: 'var(--mantine-color-blue-9)', color: '#fff' },
  valid: { backgroundColor: 'var(--mantine-color-teal-9)', color: '#fff' },
};

const BOOKING_STYLES: Record<LiveBookingStatus, BadgeStyle> = {
  booked: { backgroundColor: 'var(--mantine-color-teal-9)', color: '#fff' },
  requested: { backgroundColor: 'var(--mantine-color-blue-9)', color: '#fff' },
  waiting: { backgroundColor: 'var(--mantine-color-gray-8)', color: '#fff' },
  offered: { backgroundColor: 'var(--mantine-color-yellow-3)', color: '#000' },
};

function StyledBadge({ style, data, children }: { style: BadgeStyle; data: string; children: React.ReactNode }) {
  return (
    <Badge variant="filled" radius="sm" data-state={data} style={{ ...style, maxWidth: 'none', minWidth: 'max-content', overflow: 'visible' }}>
      {children}
    </Badge>
  );
}

export function PracticalStateBadge({ state }: { state: PracticalState }) {
  const { t } = useTranslation('my-team');
  return <StyledBadge style={PRACTICAL_STYLES[state]} data={state}>{t(`competence.state.${state}`)}</StyledBadge>;
}

export function BookingStatusBadge({ status }: { status: LiveBookingStatus }) {
  const { t } = useTranslation('my-team');
  return <StyledBadge style={BOOKING_STYLES[status]} data={status}>{t(`competence.booking.${status}`)}</StyledBadge>;
}

/** The three figures of the summary, after the training's. */
export function CompetenceFigures({ summary }: { summary: TeamSummary }) {
  const { t } = useTranslation('my-team');
  return (
    <>
      <Figure name="sessions-booked" label={t('competence.sessionsBooked')} value={summary.sessionsBooked} detail={t('competence.sessionsBookedDetail')} />
      <Figure name="practicals-due" label={t('competence.practicalsDue')} value={summary.practicalsDue} detail={t('competence.practicalsDueDetail')} />
      <Figure name="practicals-overdue" label={t('competence.practicalsOverdue')} value={summary.practicalsOverdue} detail={t('competence.practicalsOverdueDetail')} />
    </>
  );
}

/** A module's title in the reader's language, marked where a Welsh reader is shown the English. */
function ContentTitle({ title, titleCy }: { title: string; titleCy: string | null }) {
  const localise = useLocalise();
  const shown = localise(title, titleCy);
  return (
    <>
      <span lang={shown.lang}>{shown.text}</span>
      {shown.fallback && <> <NotInWelsh /></>}
    </>
  );
}

/** A person's next session: its date and module; the status when the place is not yet booked. */
export function NextSessionText({ member: m }: { member: TeamMember }) {
  const { t } = useTranslation('my-team');
  const s: UpcomingSession | null = m.nextSession;
  if (!s) return <Text size="sm" c="dimmed">{t('competence.noSession')}</Text>;
  return (
    <Stack gap={2} data-next-session={s.sessionId}>
      <Text size="sm" fw={600}>{formatDate(s.startsAt)}</Text>
      <Text size="sm"><ContentTitle title={s.module.title} titleCy={s.module.titleCy} /></Text>
      {s.status !== 'booked' && <Group gap={4}><BookingStatusBadge status={s.status} /></Group>}
    </Stack>
  );
}

/** A person's practicals: an overdue and a due badge with their dates, awaiting sign-off; or none due. */
export function PracticalsText({ member: m }: { member: TeamMember }) {
  const { t } = useTranslation('my-team');
  const p = m.practicals;
  if (p.overdue === 0 && p.due === 0 && p.awaiting === 0) return <Text size="sm" c="dimmed">{t('competence.noneDue')}</Text>;
  return (
    <Stack gap={4}>
      {p.overdue > 0 && (
        <Group gap={4} wrap="nowrap" data-practicals="overdue">
          <PracticalStateBadge state="overdue" />
          <Text size="sm">
            {p.overdueSince
              ? t('competence.overdueSince', { count: p.overdue, date: formatDate(p.overdueSince) })
              : t('competence.overdueCount', { count: p.overdue })}
          </Text>
        </Group>
      )}
      {p.due > 0 && (
        <Group gap={4} wrap="nowrap" data-practicals="due">
          <PracticalStateBadge state="due" />
          <Text size="sm">{t('competence.dueBy', { count: p.due, date: formatDate(p.nextDueAt) })}</Text>
        </Group>
      )}
      {p.awaiting > 0 && (
        <Group gap={4} wrap="nowrap" data-practicals="awaiting-sign-off">
          <PracticalStateBadge state="awaiting-sign-off" />
          <Text size="sm">{t('competence.awaitingCount', { count: p.awaiting })}</Text>
        </Group>
      )}
    </Stack>
  );
}

function Heading({ id, title, empty, count }: { id: string; title: string; empty: string; count: number }) {
  return (
    <>
      <Title order={2} size="h3" id={id}>{title}</Title>
      {count === 0 && <Text c="dimmed">{empty}</Text>}
    </>
  );
}

function SessionWhere({ session: s }: { session: UpcomingSessionDetail }) {
  const { t } = useTranslation('my-team');
  if (s.venueName) return <>{s.venueName}</>;
  return <>{s.online ? t('competence.online') : ''}</>;
}

function SessionStatus({ session: s }: { session: UpcomingSessionDetail }) {
  const { t } = useTranslation('my-team');
  return (
    <Stack gap={2}>
      <Group gap={4}><BookingStatusBadge status={s.status} /></Group>
      {s.status === 'offered' && s.offeredUntil && <Text size="sm">{t('competence.offeredUntil', { date: formatDateTime(s.offeredUntil) })}</Text>}
    </Stack>
  );
}

/** A report's upcoming sessions, soonest first. */
export function MemberSessions({ sessions }: { sessions: UpcomingSessionDetail[] }) {
  const { t } = useTranslation('my-team');
  const phone = usePhoneLayout();
  return (
    <Stack gap="sm" component="section" aria-labelledby="member-sessions">
      <Heading id="member-sessions" title={t('competence.sessions')} empty={t('competence.sessionsEmpty')} count={sessions.length} />
      {sessions.length > 0 && phone && (
        <Stack gap="xs" component="ul" aria-label={t('competence.sessions')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {sessions.map((s) => (
            <Paper key={s.bookingId} component="li" withBorder p="sm" radius="md">
              <Text fw={600} mb="xs"><ContentTitle title={s.module.title} titleCy={s.module.titleCy} /></Text>
              <FieldList>
                <Field label={t('competence.when')}>{formatDateTime(s.startsAt)}</Field>
                <Field label={t('competence.where')}><SessionWhere session={s} /></Field>
                <Field label={t('competence.course')}><ContentTitle title={s.course.title} titleCy={s.course.titleCy} /></Field>
                <Field label={t('competence.status')}><SessionStatus session={s} /></Field>
              </FieldList>
            </Paper>
          ))}
        </Stack>
      )}
      {sessions.length > 0 && !phone && (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-labelledby="member-sessions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('competence.when')}</Table.Th>
                <Table.Th scope="col">{t('competence.session')}</Table.Th>
                <Table.Th scope="col">{t('competence.where')}</Table.Th>
                <Table.Th scope="col">{t('competence.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.map((s) => (
                <Table.Tr key={s.bookingId} data-booking={s.bookingId}>
                  <Table.Td>{formatDateTime(s.startsAt)}</Table.Td>
                  <Table.Td>
                    <ContentTitle title={s.module.title} titleCy={s.module.titleCy} />
                    <Text size="sm" c="dimmed"><ContentTitle title={s.course.title} titleCy={s.course.titleCy} /></Text>
                  </Table.Td>
                  <Table.Td><SessionWhere session={s} /></Table.Td>
                  <Table.Td><SessionStatus session={s} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** A report's practical assessments, most urgent first. */
export function MemberPracticals({ practicals }: { practicals: PracticalStanding[] }) {
  const { t } = useTranslation('my-team');
  const phone = usePhoneLayout();
  const signedOff = (p: PracticalStanding) => (p.signedOffAt ? formatDate(p.signedOffAt) : t('competence.neverSignedOff'));
  const validUntil = (p: PracticalStanding) => (p.validUntil ? formatDate(p.validUntil) : p.signedOffAt ? t('competence.noExpiry') : '');
  return (
    <Stack gap="sm" component="section" aria-labelledby="member-practicals">
      <Heading id="member-practicals" title={t('competence.practicalAssessments')} empty={t('competence.practicalsEmpty')} count={practicals.length} />
      {practicals.length > 0 && phone && (
        <Stack gap="xs" component="ul" aria-label={t('competence.practicalAssessments')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {practicals.map((p) => (
            <Paper key={p.module.id} component="li" withBorder p="sm" radius="md">
              <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
                <Text fw={600}><ContentTitle title={p.module.title} titleCy={p.module.titleCy} /></Text>
                <PracticalStateBadge state={p.state} />
              </Group>
              <FieldList>
                <Field label={t('competence.signedOff')}>{signedOff(p)}</Field>
                <Field label={t('competence.validUntil')}>{validUntil(p)}</Field>
              </FieldList>
            </Paper>
          ))}
        </Stack>
      )}
      {practicals.length > 0 && !phone && (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-labelledby="member-practicals">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('competence.practical')}</Table.Th>
                <Table.Th scope="col">{t('competence.signedOff')}</Table.Th>
                <Table.Th scope="col">{t('competence.validUntil')}</Table.Th>
                <Table.Th scope="col">{t('competence.state.label')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {practicals.map((p) => (
                <Table.Tr key={p.module.id} data-practical={p.module.id}>
                  <Table.Td>
                    <ContentTitle title={p.module.title} titleCy={p.module.titleCy} />
                    <Text size="sm" c="dimmed"><ContentTitle title={p.course.title} titleCy={p.course.titleCy} /></Text>
                  </Table.Td>
                  <Table.Td>{signedOff(p)}</Table.Td>
                  <Table.Td>{validUntil(p)}</Table.Td>
                  <Table.Td><PracticalStateBadge state={p.state} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
