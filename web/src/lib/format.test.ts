import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatHours, formatTimeSpent } from './format';

describe('formatting', () => {
  it("says '1 hour' and 'N hours'", () => {
    expect(formatHours(1)).toBe('1 hour');
    expect(formatHours(2)).toBe('2 hours');
    expect(formatHours(12)).toBe('12 hours');
  });

  it('writes a time spent in words', () => {
    expect(formatTimeSpent(0)).toBe('None');
    expect(formatTimeSpent(1)).toBe('1 second');
    expect(formatTimeSpent(45)).toBe('45 seconds');
    expect(formatTimeSpent(60)).toBe('1 minute');
    expect(formatTimeSpent(12 * 60 + 30)).toBe('12 minutes');
    expect(formatTimeSpent(3600)).toBe('1 hour');
    expect(formatTimeSpent(3600 + 5 * 60)).toBe('1 hour 5 minutes');
    expect(formatTimeSpent(2 * 3600 + 60)).toBe('2 hours 1 minute');
  });

  it('writes UK dates in London time', () => {
    expect(formatDate('2026-11-22T10:00:00Z')).toBe('22 November 2026');
    // 23:30 UTC on 30 June is already 1 July in British Summer Time.
    expect(formatDate('2026-06-30T23:30:00Z')).toBe('1 July 2026');
    expect(formatDate(null)).toBe('Unknown');
    expect(formatDate('not a date')).toBe('Unknown');
  });

  it('writes times in London time', () => {
    expect(formatDateTime('2026-06-30T23:30:00Z')).toBe('1 July 2026 at 00:30');
    expect(formatDateTime(undefined)).toBe('Unknown');
  });
});

describe('formatting in Welsh', () => {
  it('writes dates, hours and times spent in Welsh', async () => {
    const { i18n } = await import('@/lib/i18n/i18n');
    await i18n.changeLanguage('cy');
    expect(formatDate('2026-11-22T10:00:00Z')).toBe('22 Tachwedd 2026');
    expect(formatDateTime('2026-06-30T23:30:00Z')).toBe('1 Gorffennaf 2026 am 00:30');
    expect(formatDate(null)).toBe('Anhysbys');
    expect(formatHours(1)).toBe('1 awr');
    expect(formatHours(2)).toBe('2 awr');
    expect(formatTimeSpent(0)).toBe('Dim');
    expect(formatTimeSpent(3600 + 5 * 60)).toBe('1 awr 5 munud');
    expect(formatTimeSpent(45)).toBe('45 eiliad');
  });
});
