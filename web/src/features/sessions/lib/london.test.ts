// London wall-clock times of sessions either side of the clock changes, and the calendar's month.
import { describe, expect, it } from 'vitest';
import { londonInstant } from '@shared/sessions.ts';
import { londonParts, londonTime, monthDays, sessionSpan, shiftDay, shiftDayByMonths, shiftMonth } from './london';

describe('London times of sessions', () => {
  it('reads an instant as the London day and 24-hour time, in summer and winter', () => {
    expect(londonParts('2026-07-14T09:00:00.000Z')).toEqual({ date: '2026-07-14', time: '10:00' });
    expect(londonParts('2026-01-14T10:00:00.000Z')).toEqual({ date: '2026-01-14', time: '10:00' });
    expect(londonTime('2026-11-22T23:30:00.000Z')).toBe('23:30');
    expect(londonParts('2026-06-30T23:30:00.000Z')).toEqual({ date: '2026-07-01', time: '00:30' });
  });

  it('goes back to the same wall-clock time the form gave, across the clock change', () => {
    for (const [date, time] of [['2026-03-28', '10:00'], ['2026-03-30', '10:00'], ['2026-10-24', '18:45'], ['2026-10-26', '08:15']]) {
      expect(londonParts(londonInstant(date, time))).toEqual({ date, time });
    }
  });

  it('writes a span on one day and over two', () => {
    expect(sessionSpan('2026-11-22T09:30:00Z', '2026-11-22T16:00:00Z')).toBe('22 November 2026, 09:30–16:00');
    expect(sessionSpan('2026-07-14T08:00:00Z', '2026-07-15T15:00:00Z')).toBe('14 July 2026, 09:00 – 15 July 2026, 16:00');
  });

  it('lays out a month from Monday', () => {
    const november = monthDays('2026-11');
    expect(november.days).toHaveLength(30);
    expect(november.days[0]).toBe('2026-11-01');
    expect(november.firstWeekday).toBe(6); // 1 November 2026 is a Sunday
    expect(monthDays('2026-02').days).toHaveLength(28);
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
  });

  it('moves a day across months and years, and by months to the same day or the month\'s last', () => {
    expect([shiftDay('2026-11-30', 1), shiftDay('2026-12-31', 1), shiftDay('2026-03-01', -1), shiftDay('2026-11-03', -7)])
      .toEqual(['2026-12-01', '2027-01-01', '2026-02-28', '2026-10-27']);
    expect([shiftDayByMonths('2026-01-31', 1), shiftDayByMonths('2026-12-15', 1), shiftDayByMonths('2026-03-31', -1)])
      .toEqual(['2026-02-28', '2027-01-15', '2026-02-28']);
  });
});
