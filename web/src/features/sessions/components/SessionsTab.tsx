// The instructor dashboard's "Sessions": the caller's classroom sessions of a month (London days), as a
// month grid or a list, and one session's bookings, requests and waiting list in a drawer with its
// register link and CSV export. A phone starts on the list; ?month= opens another month.
// The month grid is a WAI-ARIA grid: one day is in the tab order (today, or the first of the month);
// the arrow keys move a day or a week, Home and End to the week's Monday and Sunday, Page Up and Page
// Down a month (the month shown follows); a day's sessions are buttons inside it, reached with Tab.
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Loader, SegmentedControl, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { londonToday } from '@shared/dates.ts';
import type { SessionCalendarItem } from '@shared/sessions.ts';
import { errorDescription } from '@/lib/api-client';
import { currentLanguage } from '@/lib/i18n/i18n';
import { usePhoneLayout } from '@/lib/use-phone-layout';
import { useCalendar } from '../api/sessions';
import { londonParts, londonTime, monthDays, sessionSpan, shiftDay, shiftDayByMonths, shiftMonth } from '../lib/london';
import { SessionDrawer } from './SessionDrawer';
import { SessionStatusBadge } from './SessionStatusBadge';

/** `November 2026` in the page's language. */
function monthName(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(currentLanguage(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 15)));
}

/** Monday to Sunday, short, in the page's language. */
function weekdayNames(): string[] {
  const format = new Intl.DateTimeFormat(currentLanguage(), { weekday: 'short', timeZone: 'UTC' });
  // 5 January 2026 is a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2026, 0, 5 + i))));
}

/** Where a key moves the grid's focus from a day, or null for a key the grid leaves alone. */
function dayAfterKey(day: string, key: string): string | null {
  const weekday = (new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7;
  switch (key) {
    case 'ArrowRight': return shiftDay(day, 1);
    case 'ArrowLeft': return shiftDay(day, -1);
    case 'ArrowDown': return shiftDay(day, 7);
    case 'ArrowUp': return shiftDay(day, -7);
    case 'Home': return shiftDay(day, -weekday);
    case 'End': return shiftDay(day, 6 - weekday);
    case 'PageDown': return shiftDayByMonths(day, 1);
    case 'PageUp': return shiftDayByMonths(day, -1);
    default: return null;
  }
}

export function SessionsTab({ initialMonth }: { initialMonth?: string }) {
  const { t } = useTranslation('sessions');
  const phone = usePhoneLayout();
  const [view, setView] = useState<'month' | 'list'>(phone ? 'list' : 'month');
  // ?month=2030-06 opens that month (a link to a session's month); else this London month.
  const [params] = useSearchParams();
  const linked = /^\d{4}-(0[1-9]|1[0-2])$/.test(params.get('month') ?? '') ? params.get('month') : null;
  const [month, setMonth] = useState(() => initialMonth ?? linked ?? londonToday().slice(0, 7));
  const [open, setOpen] = useState<string | null>(null);
  const { days, firstWeekday } = monthDays(month);
  // The grid's one day in the tab order, and the day a key asked to focus (once it is on screen).
  const [chosenDay, setChosenDay] = useState<string | null>(null);
  const toFocus = useRef<string | null>(null);
  const gridRef = useRef<HTMLTableElement>(null);
  const today = londonToday();
  const tabDay = chosenDay && days.includes(chosenDay) ? chosenDay : days.includes(today) ? today : days[0];

  useEffect(() => {
    if (!toFocus.current) return;
    const cell = gridRef.current?.querySelector<HTMLElement>(`[data-day="${toFocus.current}"]`);
    if (!cell) return;
    toFocus.current = null;
    cell.focus();
  });

  function onGridKey(event: KeyboardEvent<HTMLTableCellElement>, day: string) {
    if (event.target !== event.currentTarget) return;
    const next = dayAfterKey(day, event.key);
    if (!next) return;
    event.preventDefault();
    setChosenDay(next);
    if (next.slice(0, 7) !== month) setMonth(next.slice(0, 7));
    toFocus.current = next;
  }
  const calendar = useCalendar(days[0], days[days.length - 1]);
  const items = calendar.data?.items ?? [];
  const byDay = new Map<string, SessionCalendarItem[]>();
  for (const item of items) {
    const day = londonParts(item.startsAt).date;
    byDay.set(day, [...(byDay.get(day) ?? []), item]);
  }
  const name = monthName(month);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <ActionIcon variant="default" size="lg" onClick={() => setMonth(shiftMonth(month, -1))} aria-label={t('calendar.previous', { month: monthName(shiftMonth(month, -1)) })}>
            <IconChevronLeft size={18} aria-hidden />
          </ActionIcon>
          <Title order={2} size="h3" aria-live="polite">{name}</Title>
          <ActionIcon variant="default" size="lg" onClick={() => setMonth(shiftMonth(month, 1))} aria-label={t('calendar.next', { month: monthName(shiftMonth(month, 1)) })}>
            <IconChevronRight size={18} aria-hidden />
          </ActionIcon>
        </Group>
        <SegmentedControl
          aria-label={t('calendar.view')}
          value={view}
          onChange={(v) => setView(v === 'list' ? 'list' : 'month')}
          data={[{ value: 'month', label: t('calendar.month') }, { value: 'list', label: t('calendar.list') }]}
        />
      </Group>
      {calendar.data && calendar.data.total > items.length ? (
        <Text size="sm" role="status">{t('calendar.partial', { shown: items.length, total: calendar.data.total })}</Text>
      ) : null}
      {calendar.isPending ? (
        <Group role="status" gap="xs"><Loader size="xs" aria-hidden /><Text size="sm">{t('loading')}</Text></Group>
      ) : calendar.isError ? (
        <Text c="red.8">{errorDescription(calendar.error, t('loadFailed'))}</Text>
      ) : view === 'month' ? (
        <div style={{ overflowX: 'auto' }}>
          <table ref={gridRef} role="grid" style={{ width: '100%', borderCollapse: 'collapse', tableLayout: 'fixed', minWidth: 700 }}
            aria-label={t('calendar.gridLabel', { month: name })}>
            <thead>
              <tr>{weekdayNames().map((d) => <th key={d} scope="col" style={{ padding: 4, textAlign: 'left' }}>{d}</th>)}</tr>
            </thead>
            <tbody>
              {Array.from({ length: Math.ceil((firstWeekday + days.length) / 7) }, (_, week) => (
                <tr key={week}>
                  {Array.from({ length: 7 }, (_, weekday) => {
                    const day = days[week * 7 + weekday - firstWeekday];
                    const sessions = day ? (byDay.get(day) ?? []) : [];
                    return (
                      <td key={weekday} role="gridcell" style={{ verticalAlign: 'top', border: '1px solid var(--mantine-color-default-border)', padding: 4, height: 96 }}
                        className="mantine-focus-auto" data-day={day} tabIndex={day ? (day === tabDay ? 0 : -1) : undefined}
                        aria-current={day && day === today ? 'date' : undefined} onKeyDown={day ? (e) => onGridKey(e, day) : undefined}>
                        {day ? (
                          <Stack gap={4}>
                            <Text size="sm" fw={700}>
                              {Number(day.slice(8))}
                              <VisuallyHidden>{` ${name}`}</VisuallyHidden>
                            </Text>
                            {sessions.map((s) => (
                              <Button key={s.id} size="compact-xs" variant={s.cancelledAt ? 'default' : 'light'} onClick={() => setOpen(s.id)}
                                styles={{ label: { whiteSpace: 'normal', textAlign: 'left' }, root: { height: 'auto', paddingBlock: 2 } }}
                                aria-label={t('calendar.openSession', { when: sessionSpan(s.startsAt, s.endsAt), title: s.moduleTitle })}>
                                {`${londonTime(s.startsAt)} ${s.moduleTitle}`}
                              </Button>
                            ))}
                          </Stack>
                        ) : null}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          {items.length === 0 ? <Text mt="sm">{t('calendar.none')}</Text> : null}
        </div>
      ) : items.length === 0 ? (
        <Text>{t('calendar.none')}</Text>
      ) : (
        <Stack component="ul" gap="sm" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('calendar.listLabel', { month: name })}>
          {items.map((s) => (
            <Card component="li" key={s.id} withBorder padding="md" data-testid="calendar-session">
              <Group justify="space-between" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={700}>{sessionSpan(s.startsAt, s.endsAt)}</Text>
                  <Text size="sm">{s.courseTitle} · {s.moduleTitle}</Text>
                  <Text size="sm">{s.venueName ?? t('online')}</Text>
                  {s.counts ? (
                    <Text size="sm">{t('calendar.counts', { booked: s.counts.booked, capacity: s.capacity, waiting: s.counts.waiting, requested: s.counts.requested })}</Text>
                  ) : null}
                </Stack>
                <Group gap="xs">
                  {s.counts && s.counts.attended > 0 ? <Badge variant="outline" color="teal.9">{t('calendar.attended', { count: s.counts.attended })}</Badge> : null}
                  <SessionStatusBadge session={s} />
                </Group>
              </Group>
              <Group mt="xs">
                <Button size="xs" variant="default" onClick={() => setOpen(s.id)} aria-label={t('calendar.openSession', { when: sessionSpan(s.startsAt, s.endsAt), title: s.moduleTitle })}>
                  {t('calendar.open')}
                </Button>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {open ? <SessionDrawer sessionId={open} onClose={() => setOpen(null)} /> : null}
    </Stack>
  );
}

export default SessionsTab;
