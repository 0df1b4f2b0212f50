// Classroom sessions on screen against a fake API: the date form's London times and checks, the
// learner's booking panel in each state, the register's marks (shown at once, put back on a refusal,
// sent once however often tapped), the instructor's month, and a manager's approval.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ModuleSessions, SESSION_DATES_LIMIT, type SessionBooking, type SessionCalendarPage, type SessionDetail, type SessionRequest } from '@shared/sessions.ts';
import { sessionKeys } from '@/lib/query-keys';
import { fakeApi } from '@/test/fake-api';
import { makeUser, renderWithProviders } from '@/test/render';
import { BookingRequests } from './BookingRequests';
import { RegisterPage } from './RegisterPage';
import { SessionBookingPanel } from './SessionBookingPanel';
import { sessionBody, SessionDialog, sessionFormValues } from './SessionDialog';
import { SessionsTab } from './SessionsTab';
import { learnerAnswer, makeBooking, makeDate, makeSession, MODULE } from '../test-fixtures';

const S1 = '20000000-0000-4000-8000-000000000001';
const S2 = '20000000-0000-4000-8000-000000000002';
const B1 = '30000000-0000-4000-8000-000000000001';
const B2 = '30000000-0000-4000-8000-000000000002';

const learner = makeUser();

afterEach(() => vi.restoreAllMocks());

describe('the date form', () => {
  it('turns London wall-clock times into instants, summer and winter alike', () => {
    const values = { ...sessionFormValues(), date: '2026-07-14', startTime: '10:00', endTime: '12:30', venueName: 'Hall', capacity: 10 };
    const summer = sessionBody(values);
    expect('body' in summer && summer.body).toMatchObject({ startsAt: '2026-07-14T09:00:00.000Z', endsAt: '2026-07-14T11:30:00.000Z', bookingClosesAt: null });
    const winter = sessionBody({ ...values, date: '2027-01-14' });
    expect('body' in winter && winter.body).toMatchObject({ startsAt: '2027-01-14T10:00:00.000Z' });
  });

  it('puts each rule on its field', () => {
    const result = sessionBody({ ...sessionFormValues(), date: '2026-07-14', startTime: '12:00', endTime: '10:00', venueName: '' });
    expect('errors' in result && result.errors).toEqual({
      endTime: 'api:The end must be after the start',
      venueName: 'api:Give a venue or an online link',
    });
    expect('errors' in sessionBody(sessionFormValues()) && sessionBody(sessionFormValues())).toMatchObject({ errors: { date: 'dialog.dateNeeded' } });
  });

  it('reads a saved date back as London fields', () => {
    expect(sessionFormValues(makeSession({ startsAt: '2026-07-14T08:00:00.000Z', endsAt: '2026-07-14T15:00:00.000Z', bookingClosesAt: '2026-07-13T16:00:00.000Z' })))
      .toMatchObject({ date: '2026-07-14', startTime: '09:00', endTime: '16:00', endDate: '', closesDate: '2026-07-13', closesTime: '17:00' });
  });

  it('sends the new date', async () => {
    const api = fakeApi({ [`POST /modules/${MODULE}/sessions`]: { status: 201, body: makeSession() } });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<SessionDialog moduleId={MODULE} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Date/), '2026-12-03');
    await user.type(within(dialog).getByLabelText(/^Venue/), 'Training Centre');
    await user.click(within(dialog).getByRole('button', { name: 'Add the date' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      startsAt: '2026-12-03T09:00:00.000Z', endsAt: '2026-12-03T17:00:00.000Z', venueName: 'Training Centre', capacity: 12, onlineUrl: null,
    });
  });
});

describe("the learner's booking panel", () => {
  const full = makeDate({ id: S2, startsAt: '2026-12-10T09:00:00.000Z', endsAt: '2026-12-10T12:00:00.000Z', placesLeft: 0 });
  const answer = (myBooking: SessionBooking | null): ModuleSessions => learnerAnswer([makeDate(), full], myBooking);
  const firstPage = sessionKeys.dates(MODULE, SESSION_DATES_LIMIT.default);

  it('offers to book an open date and join the list of a full one', async () => {
    const api = fakeApi({ [`POST /modules/${MODULE}/booking`]: { status: 201, body: makeBooking() } });
    const { user } = renderWithProviders(<SessionBookingPanel moduleId={MODULE} enrolled />, {
      user: learner, queryData: [[firstPage, answer(null)]],
    });
    expect(await screen.findByText('Choose a date and book your place.')).toBeInTheDocument();
    expect(screen.getByText('3 December 2026, 09:00–16:30')).toBeInTheDocument();
    expect(screen.getAllByText('Trainers: Tom Trainer')).toHaveLength(2);
    expect(screen.getByText('Full — join the waiting list')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join the waiting list: 10 December 2026, 09:00–12:00' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Book this date: 3 December 2026, 09:00–16:30' }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'POST')).toBe(true));
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ sessionId: S1 });
  });

  it('lists the next dates first; "Show later dates" asks for more and moves the focus to the first added', async () => {
    const later = makeDate({ id: '20000000-0000-4000-8000-000000000003', startsAt: '2027-01-14T10:00:00.000Z', endsAt: '2027-01-14T12:00:00.000Z' });
    const api = fakeApi({ [`GET /modules/${MODULE}/sessions?limit=24`]: { body: learnerAnswer([makeDate(), full, later], null) } });
    const { user } = renderWithProviders(<SessionBookingPanel moduleId={MODULE} enrolled />, {
      user: learner, queryData: [[firstPage, learnerAnswer([makeDate(), full], null, true)]],
    });
    await user.click(await screen.findByRole('button', { name: 'Show later dates' }));
    const added = await screen.findByText('14 January 2027, 10:00–12:00');
    await waitFor(() => expect(added).toHaveFocus());
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /modules/${MODULE}/sessions?limit=24`]);
    expect(screen.getAllByTestId('learner-session')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Show later dates' })).not.toBeInTheDocument();
  });

  it('moves a booking, and cancels it after confirmation', async () => {
    const api = fakeApi({
      [`PUT /bookings/${B1}`]: { body: makeBooking({ sessionId: S2, status: 'waiting' }) },
      [`POST /bookings/${B1}/cancel`]: { body: makeBooking({ status: 'cancelled' }) },
      [`GET /modules/${MODULE}/sessions`]: { body: answer(makeBooking()) },
    });
    const { user } = renderWithProviders(<SessionBookingPanel moduleId={MODULE} enrolled />, {
      user: learner, queryData: [[firstPage, answer(makeBooking())]],
    });
    expect(await screen.findByText('You are booked on 3 December 2026, 09:00–16:30.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Book this date/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Move to this date: 10 December 2026, 09:00–12:00' }));
    await waitFor(() => expect(api.requests.find((r) => r.method === 'PUT')?.body).toEqual({ sessionId: S2 }));
    await user.click(screen.getByRole('button', { name: 'Cancel my booking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel your booking?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel my booking' }));
    await waitFor(() => expect(api.requests.some((r) => r.path === `/bookings/${B1}/cancel`)).toBe(true));
  });

  it('shows a place offered with its deadline, to accept or decline', async () => {
    const api = fakeApi({ [`POST /bookings/${B1}/accept`]: { body: makeBooking() } });
    const offered = makeBooking({ sessionId: S2, status: 'offered', offeredUntil: '2026-12-01T18:00:00.000Z' });
    const { user } = renderWithProviders(<SessionBookingPanel moduleId={MODULE} enrolled />, {
      user: learner, queryData: [[firstPage, answer(offered)]],
    });
    expect(await screen.findByText('A place on 10 December 2026, 09:00–12:00 is yours if you accept it by 1 December 2026 at 18:00.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accept the place' }));
    await waitFor(() => expect(api.requests.some((r) => r.path === `/bookings/${B1}/accept`)).toBe(true));
  });

  it("says when the manager's approval is awaited, and when the register completed it", async () => {
    renderWithProviders(<SessionBookingPanel moduleId={MODULE} enrolled />, {
      user: learner, queryData: [[firstPage, answer(makeBooking({ status: 'requested' }))]],
    });
    expect(await screen.findByText("Waiting for your line manager's approval for 3 December 2026, 09:00–16:30.")).toBeInTheDocument();
  });

  it('shows the module completed by attendance, with no booking buttons', async () => {
    renderWithProviders(<SessionBookingPanel moduleId={MODULE} enrolled />, {
      user: learner, queryData: [[firstPage, answer(makeBooking({ attendance: 'attended' }))]],
    });
    expect(await screen.findByText('Completed: you attended on 3 December 2026.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Book this date|Move to this date|Join the waiting list/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel my booking' })).not.toBeInTheDocument();
  });
});

describe('the register', () => {
  const detail = (): SessionDetail => ({
    ...makeSession({ keepsRegister: true, canManage: true }),
    courseTitle: 'Public order', moduleTitle: 'Shield day', myBooking: null,
    register: [
      { bookingId: B1, userId: 'u1', name: 'Ann Able', username: 'ann', status: 'booked', attendance: null, walkIn: false, waitingSince: null,
        offeredUntil: null, attendanceMarkedAt: null, markedByName: null, bookedAt: '2026-11-20T10:00:00Z' },
      { bookingId: B2, userId: 'u2', name: 'Bob Baker', username: 'bob', status: 'booked', attendance: null, walkIn: false, waitingSince: null,
        offeredUntil: null, attendanceMarkedAt: null, markedByName: null, bookedAt: '2026-11-20T10:00:00Z' },
    ],
  });

  it('saves a tap at once, sends the same mark once, and puts a refused mark back', async () => {
    const api = fakeApi({
      [`PUT /sessions/${S1}/register/${B1}`]: { body: makeBooking({ attendance: 'attended' }) },
      [`PUT /sessions/${S1}/register/${B2}`]: { status: 409, body: { message: 'The session has not started yet' } },
    });
    const { user } = renderWithProviders(<RegisterPage sessionId={S1} />, { queryData: [[sessionKeys.detail(S1), detail()]] });
    const attended = await screen.findByRole('button', { name: 'Attended: Ann Able' });
    await user.click(attended);
    expect(attended).toHaveAttribute('aria-pressed', 'true');
    await user.click(attended);
    await waitFor(() => expect(screen.getByText('1 of 2 people marked attended')).toBeInTheDocument());
    expect(api.requests.filter((r) => r.path === `/sessions/${S1}/register/${B1}`)).toHaveLength(1);
    expect(api.requests[0].body).toEqual({ attendance: 'attended' });
    expect(attended).toHaveFocus();

    const bob = screen.getByRole('button', { name: 'No-show: Bob Baker' });
    await user.click(bob);
    expect(await screen.findByText('The mark for Bob Baker was not saved')).toBeInTheDocument();
    await waitFor(() => expect(bob).toHaveAttribute('aria-pressed', 'false'));
    expect(screen.getByRole('group', { name: 'Attendance of Bob Baker' })).toBeInTheDocument();
  });

  it('marks everyone attended after confirmation', async () => {
    const marked = detail().register!.map((r) => ({ ...r, attendance: 'attended' as const }));
    const api = fakeApi({
      [`POST /sessions/${S1}/register/all-attended`]: { body: { marked: 2, register: marked } },
      [`GET /sessions/${S1}`]: { body: { ...detail(), register: marked } },
    });
    const { user } = renderWithProviders(<RegisterPage sessionId={S1} />, { queryData: [[sessionKeys.detail(S1), detail()]] });
    await user.click(await screen.findByRole('button', { name: 'Mark all attended' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark everyone attended?' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark all attended' }));
    expect(await screen.findByText('2 of 2 people marked attended')).toBeInTheDocument();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(true);
  });
});

describe("the instructor's sessions", () => {
  it('shows the month with its sessions, and the list', async () => {
    const page: SessionCalendarPage = {
      items: [{ ...makeSession({ keepsRegister: true, counts: { booked: 1, requested: 0, offered: 0, waiting: 2, attended: 0 } }), courseTitle: 'Public order', moduleTitle: 'Shield day' }],
      total: 1, page: 1, pageSize: 100,
    };
    const api = fakeApi({ 'GET /instructor/sessions': { body: page } });
    const { user } = renderWithProviders(<SessionsTab initialMonth="2026-12" />);
    expect(await screen.findByRole('heading', { name: 'December 2026' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Shield day, 3 December 2026, 09:00–16:30' })).toBeInTheDocument();
    expect(api.requests[0].path).toBe('/instructor/sessions?from=2026-12-01&to=2026-12-31&page=1&pageSize=100');
    await user.click(screen.getByRole('radio', { name: 'List' }));
    expect(await screen.findByText('1 of 2 booked · 2 waiting · 0 awaiting approval')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next month: January 2027' }));
    await waitFor(() => expect(api.requests.at(-1)?.path).toContain('from=2027-01-01&to=2027-01-31'));
  });
});

describe("the month grid's keys", () => {
  it('moves the one focusable day by arrow keys, Home and End, and Page Up and Down, the month following', async () => {
    fakeApi({ 'GET /instructor/sessions': { body: { items: [], total: 0, page: 1, pageSize: 100 } satisfies SessionCalendarPage } });
    const { user } = renderWithProviders(<SessionsTab initialMonth="2020-02" />);
    const grid = await screen.findByRole('grid', { name: /February 2020/ });
    const tabbable = () => [...grid.querySelectorAll('[tabindex="0"]')].map((c) => c.getAttribute('data-day'));
    // A past month: its first day is the one in the tab order.
    expect(tabbable()).toEqual(['2020-02-01']);
    await user.click(grid.querySelector<HTMLElement>('[data-day="2020-02-01"]')!);
    expect(document.activeElement).toHaveAttribute('data-day', '2020-02-01');
    const focused = () => document.activeElement?.getAttribute('data-day');
    const press = async (key: string, day: string) => {
      await user.keyboard(key);
      await waitFor(() => expect(focused()).toBe(day));
    };
    await press('{ArrowRight}', '2020-02-02');
    await press('{ArrowDown}', '2020-02-09');
    await press('{Home}', '2020-02-03');
    await press('{ArrowLeft}', '2020-02-02');
    await press('{ArrowUp}', '2020-01-26');
    expect(screen.getByRole('heading', { name: 'January 2020' })).toBeInTheDocument();
    await press('{PageDown}', '2020-02-26');
    await press('{End}', '2020-03-01');
    expect(screen.getByRole('heading', { name: 'March 2020' })).toBeInTheDocument();
    await press('{PageUp}', '2020-02-01');
    expect(tabbable()).toEqual(['2020-02-01']);
  });
});

describe("a manager's booking requests", () => {
  it('approves a request', async () => {
    const request: SessionRequest = {
      bookingId: B1, userId: 'u1', learnerName: 'Ann Able', sessionId: S1, moduleId: MODULE, moduleTitle: 'Shield day',
      courseId: 'c1', courseTitle: 'Public order', startsAt: '2026-12-03T09:00:00.000Z', endsAt: '2026-12-03T16:30:00.000Z',
      venueName: 'Training Centre', onlineUrl: null, requestedAt: '2026-11-28T10:00:00Z',
    };
    const api = fakeApi({ 'GET /bookings/requests': { body: [request] }, [`POST /bookings/${B1}/approve`]: { body: makeBooking() } });
    const { user } = renderWithProviders(<BookingRequests />);
    expect(await screen.findByRole('heading', { name: '1 booking waiting for your approval' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve Ann Able for 3 December 2026, 09:00–16:30' }));
    await waitFor(() => expect(api.requests.some((r) => r.path === `/bookings/${B1}/approve`)).toBe(true));
  });
});
