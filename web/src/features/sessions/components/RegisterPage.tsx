// A session's register, made for a phone (390 px): each booked person with Attended / No-show /
// Excused as three large toggles named with the person's name (the chosen one filled, not by colour alone), saved on the tap (shown at once, put
// back with a clear message if the server refuses; the same mark twice sends nothing), "Mark all
// attended" after confirmation, and walk-ins found among the organisation's people, enrolled and
// booked on the spot. The focus stays on the pressed toggle; after a walk-in, back in the search.
import { type CSSProperties, useRef, useState } from 'react';
import { Anchor, Button, Card, Group, Loader, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ATTENDANCE, type Attendance, type RegisterEntry } from '@shared/sessions.ts';
import { errorDescription } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { PageMeta } from '@/lib/page/page-meta';
import { useAddWalkIn, useMarkAllAttended, useMarkAttendance, useSession, useSessionPeople } from '../api/sessions';
import { sessionSpan } from '../lib/london';

// The chosen mark's colour, the same when hovered (a hover shade past .9 would fall below 4.5:1 with white).
const MARK_COLOURS: Record<Attendance, string> = { attended: 'teal-9', 'no-show': 'red-9', excused: 'blue-9' };
const markStyle = (mark: Attendance) => {
  const colour = `var(--mantine-color-${MARK_COLOURS[mark]})`;
  return { '--button-bg': colour, '--button-hover': colour, '--button-color': '#fff', minHeight: 48 } as CSSProperties;
};

function RegisterRow({ entry, onMark }: { entry: RegisterEntry; onMark: (entry: RegisterEntry, mark: Attendance) => void }) {
  const { t } = useTranslation('sessions');
  return (
    <Card component="li" withBorder padding="sm" data-testid="register-entry">
      <Stack gap="xs">
        <div>
          <Text fw={700}>{entry.name}</Text>
          <Text size="sm">
            {entry.username}
            {entry.walkIn ? ` · ${t('register.walkIn')}` : ''}
          </Text>
        </div>
        <Group gap={6} grow role="group" aria-label={t('register.markFor', { name: entry.name })} wrap="nowrap">
          {ATTENDANCE.map((mark) => {
            const on = entry.attendance === mark;
            return (
              <Button
                key={mark}
                size="md"
                px={6}
                variant={on ? 'filled' : 'default'}
                style={on ? markStyle(mark) : { minHeight: 48 }}
                aria-pressed={on}
                aria-label={t(`register.markLabel.${mark}`, { name: entry.name })}
                onClick={() => onMark(entry, mark)}
              >
                {t(`attendance.${mark}`)}
              </Button>
            );
          })}
        </Group>
      </Stack>
    </Card>
  );
}

function WalkIns({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('sessions');
  const [q, setQ] = useState('');
  const [query] = useDebouncedValue(q.trim(), 300);
  const people = useSessionPeople(sessionId, query, query.length >= 2);
  const add = useAddWalkIn(sessionId);
  const search = useRef<HTMLInputElement>(null);
  const found = query.length >= 2 ? (people.data ?? []) : [];

  return (
    <Stack gap="xs" component="section" aria-labelledby="walk-in-heading">
      <Title order={2} size="h4" id="walk-in-heading">{t('register.walkInTitle')}</Title>
      <TextInput ref={search} type="search" label={t('register.search')} description={t('register.searchHint')} value={q}
        onChange={(e) => setQ(e.currentTarget.value)} size="md" />
      {people.isFetching ? <Text size="sm" role="status">{t('loading')}</Text> : null}
      {query.length >= 2 && !people.isFetching && found.length === 0 ? <Text size="sm" role="status">{t('register.nobody')}</Text> : null}
      <Stack component="ul" gap={6} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {found.map((p) => (
          <Group component="li" key={p.id} justify="space-between" wrap="nowrap">
            <div style={{ minWidth: 0 }}>
              <Text fw={600}>{p.name}</Text>
              <Text size="sm">{p.booked ? t('register.alreadyBooked') : p.enrolled ? t('register.enrolled') : t('register.notEnrolled')}</Text>
            </div>
            <Button size="md" disabled={p.booked} loading={add.isPending && add.variables === p.id}
              aria-label={t('register.addFor', { name: p.name })}
              onClick={() => add.mutate(p.id, {
                onSuccess: () => {
                  notifySuccess(t('register.added'), t('register.addedMessage', { name: p.name }));
                  setQ('');
                  search.current?.focus();
                },
                onError: (error) => notifyFailure(t('register.addFailed'), errorDescription(error, t('tryAgain'))),
              })}>
              {t('register.add')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}

export function RegisterPage({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('sessions');
  const session = useSession(sessionId);
  const mark = useMarkAttendance(sessionId);
  const all = useMarkAllAttended(sessionId);
  const [confirmAll, setConfirmAll] = useState(false);

  if (session.isPending) return <Group role="status" gap="xs"><Loader size="sm" aria-hidden /><Text>{t('loading')}</Text></Group>;
  if (session.isError) {
    return (
      <Stack>
        <Title order={1}>{t('register.title')}</Title>
        <Text>{errorDescription(session.error, t('loadFailed'))}</Text>
      </Stack>
    );
  }
  const s = session.data;
  const when = sessionSpan(s.startsAt, s.endsAt);
  const entries = (s.register ?? []).filter((r) => r.status === 'booked');
  const attended = entries.filter((r) => r.attendance === 'attended').length;

  function onMark(entry: RegisterEntry, next: Attendance) {
    // Tapped again: already so, nothing to send.
    if (entry.attendance === next) return;
    mark.mutate({ bookingId: entry.bookingId, attendance: next }, {
      onError: (error) => notifyFailure(t('register.notSaved', { name: entry.name }), errorDescription(error, t('tryAgain'))),
    });
  }

  return (
    <Stack gap="md" maw={640}>
      <PageMeta title={`${t('register.title')} · ${s.moduleTitle}`} description={when} />
      <Anchor component={Link} to="/instructor?tab=sessions" size="sm">
        <Group gap={4} component="span"><IconArrowLeft size={14} aria-hidden />{t('register.back')}</Group>
      </Anchor>
      <div>
        <Title order={1} size="h2">{t('register.title')}</Title>
        <Text fw={600}>{s.courseTitle} · {s.moduleTitle}</Text>
        <Text>{when}</Text>
        <Text size="sm">{s.venueName ?? t('online')}</Text>
      </div>
      {s.register === null ? (
        <Text>{t('register.notYours')}</Text>
      ) : (
        <>
          <Text role="status" data-testid="register-count">{t('register.count', { attended, count: entries.length })}</Text>
          {entries.length === 0 ? <Text>{t('register.empty')}</Text> : (
            <>
              <Button size="md" variant="light" onClick={() => setConfirmAll(true)} styles={{ root: { minHeight: 48 } }}>
                {t('register.markAll')}
              </Button>
              <Stack component="ul" gap="sm" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('register.list')}>
                {entries.map((entry) => <RegisterRow key={entry.bookingId} entry={entry} onMark={onMark} />)}
              </Stack>
            </>
          )}
          <WalkIns sessionId={sessionId} />
        </>
      )}
      <Modal opened={confirmAll} onClose={() => setConfirmAll(false)} title={t('register.markAllTitle')} centered closeButtonProps={{ 'aria-label': t('closeDialog') }}>
        <Stack>
          <Text size="sm">{t('register.markAllConfirm', { count: entries.length })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmAll(false)}>{t('cancel')}</Button>
            <Button loading={all.isPending} onClick={() => all.mutate(undefined, {
              onSuccess: ({ marked }) => {
                setConfirmAll(false);
                notifySuccess(t('register.markedAll'), t('register.markedAllMessage', { count: marked }));
              },
              onError: (error) => notifyFailure(t('register.markAllFailed'), errorDescription(error, t('tryAgain'))),
            })}>
              {t('register.markAllButton')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
