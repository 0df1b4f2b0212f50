import { describe, expect, it } from 'vitest';
import { clockTime, isoDate, isoTimestamp, londonToday, longDate, longDateTime } from './dates';
import { validityText, validityTextWithState } from './certificates';

describe('dates (one formatter for screens, PDFs and CSVs)', () => {
  it('writes long dates in London time, a calendar day as that day', () => {
    expect(longDate('2026-11-22T10:00:00Z')).toBe('22 November 2026');
    expect(longDate('2026-06-30T23:30:00Z')).toBe('1 July 2026'); // BST
    expect(longDate('2026-07-01')).toBe('1 July 2026');
    expect(longDate(new Date('2026-12-31T23:30:00Z'))).toBe('31 December 2026'); // GMT
    expect(longDate(null)).toBe('');
    expect(longDate('rubbish', 'Unknown')).toBe('Unknown');
    expect(longDateTime('2026-06-30T23:30:00Z')).toBe('1 July 2026 at 00:30');
  });

  it('writes ISO days and times for CSVs and file names', () => {
    expect(isoDate('2026-03-01')).toBe('2026-03-01');
    expect(isoDate('2026-06-30T23:30:00Z')).toBe('2026-07-01');
    expect(isoDate(undefined)).toBe('');
    expect(clockTime('2026-06-30T23:30:00Z')).toBe('00:30');
    expect(londonToday(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(isoTimestamp(new Date('2026-11-22T10:00:00Z'))).toBe('2026-11-22T10:00:00.000Z');
    expect(isoTimestamp(null)).toBeNull();
  });
});

describe("a certificate's validity (one wording)", () => {
  const expiresAt = '2027-11-25T12:00:00Z';
  it('says the date beside the badge, and the state too where no badge stands beside it', () => {
    expect(validityText({ state: 'valid', expiresAt, revokedAt: null })).toBe('Valid until 25 November 2027');
    expect(validityText({ state: 'expiring', expiresAt, revokedAt: null })).toBe('Valid until 25 November 2027');
    expect(validityText({ state: 'valid', expiresAt: null, revokedAt: null })).toBe('Does not expire');
    expect(validityText({ state: 'expired', expiresAt, revokedAt: null })).toBe('Expired on 25 November 2027');
    expect(validityText({ state: 'revoked', expiresAt, revokedAt: '2026-11-20T09:00:00Z' })).toBe('Revoked on 20 November 2026');
    expect(validityTextWithState({ state: 'expiring', expiresAt, revokedAt: null })).toBe('Expiring soon: valid until 25 November 2027');
    expect(validityTextWithState({ state: 'expired', expiresAt, revokedAt: null })).toBe('Expired on 25 November 2027');
  });
});
