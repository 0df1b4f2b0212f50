import { describe, expect, it } from 'vitest';
import { attachmentDisposition, CSV_BOM, csvDate, csvField, csvFileName, csvList, neutraliseFormula, toCsv } from './csv';

describe('csv', () => {
  it('neutralises formula-looking text with a leading apostrophe', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(neutraliseFormula(`${start}SUM(A1)`)).toBe(`'${start}SUM(A1)`);
    expect(neutraliseFormula('Safe text')).toBe('Safe text');
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  });

  it('leaves numbers as numbers, even negative ones', () => {
    expect(csvField(-3)).toBe('-3');
    expect(csvField(1.25)).toBe('1.25');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
  });

  it('writes ISO dates: calendar dates unshifted, timestamps as their London day', () => {
    expect(csvDate('2026-03-01')).toBe('2026-03-01');
    expect(csvDate('2026-06-30T23:30:00Z')).toBe('2026-07-01'); // BST
    expect(csvDate('2026-12-31T23:30:00Z')).toBe('2026-12-31'); // GMT
    expect(csvDate(null)).toBe('');
    expect(csvDate('rubbish')).toBe('');
  });

  it('joins several values with ; and names files <what>-YYYY-MM-DD.csv in London', () => {
    expect(csvList(['UKPS', '', null, 'UKAS'])).toBe('UKPS;UKAS');
    expect(csvFileName('users', new Date('2026-11-24T23:30:00Z'))).toBe('users-2026-11-24.csv'); // GMT
    expect(csvFileName('users', new Date('2026-06-30T23:30:00Z'))).toBe('users-2026-07-01.csv'); // BST
  });

  it('writes a BOM, a header and CRLF line ends', () => {
    const text = toCsv(['Name', 'Hours'], [['Bob', 2], ['Café', 0.5]]);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.slice(1)).toBe('Name,Hours\r\nBob,2\r\nCafé,0.5\r\n');
  });

  it('makes an ASCII-safe attachment header', () => {
    expect(attachmentDisposition('record "é".csv')).toBe(`attachment; filename="record ___.csv"; filename*=UTF-8''record%20%22%C3%A9%22.csv`);
  });
});
