// The import file reader: RFC 4180 parsing (quotes, CRLF/LF/CR, BOM, blank lines), the header, the
// row rules, and a property test that any table written by the export's csv writer reads back as it was.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CSV_BOM, csvRow } from './csv.ts';
import {
  checkFileRows, checkRow, CsvError, IMPORT_MAX_ROWS, markPlacement, markRepeats, parseCsv, type PlacementLookup, readUserCsv,
} from './user-import.ts';

const fields = (text: string) => parseCsv(text).map((record) => record.fields);

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, under any line end', () => {
    expect(fields('a,b,c\r\n"x, y","say ""hi""","two\r\nlines"\r\n')).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\r\nlines'],
    ]);
    expect(fields('a,b\nc,d')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(fields('a,b\rc,d\r')).toEqual([['a', 'b'], ['c', 'd']]);
    expect(fields('a,,\n,b,')).toEqual([['a', '', ''], ['', 'b', '']]);
    expect(fields('"",x\n')).toEqual([['', 'x']]);
  });

  it('drops a byte-order mark, blank lines and lines of empty fields, and numbers records by their first line', () => {
    const records = parseCsv('\uFEFFh1,h2\r\n\r\n,,\r\n"multi\nline",x\n\nlast,y');
    expect(records).toEqual([
      { line: 1, fields: ['h1', 'h2'] },
      { line: 4, fields: ['multi\nline', 'x'] },
      { line: 7, fields: ['last', 'y'] },
    ]);
  });

  it('keeps a quote inside an unquoted field, allows spaces after a closing quote, and refuses broken quoting', () => {
    expect(fields('O"Neil,x')).toEqual([['O"Neil', 'x']]);
    expect(fields('"a" ,b')).toEqual([['a', 'b']]);
    expect(() => parseCsv('a,b\n"open,x\n')).toThrow(new CsvError(2, 'a quoted field is not closed (a " is missing)'));
    expect(() => parseCsv('a\n\n"x"y,z')).toThrow(/^Line 3: unexpected text after a closing quote/);
  });

  it('reads back whatever the csv writer wrote (property)', () => {
    // Text without a leading formula character (the writer would neutralise it) and not blank.
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\r', '\n', '\r\n', 'é', '😀', ';', "'"), maxLength: 12 })
      .filter((s) => !/^[=+\-@\t\r]/.test(s));
    const table = fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 8 })
      .filter((rows) => rows.every((row) => row.some((value) => value.trim() !== '')));
    fc.assert(
      fc.property(table, fc.constantFrom('\r\n', '\n'), (rows, end) => {
        const text = CSV_BOM + rows.map((row) => csvRow(row) + end).join('');
        expect(fields(text)).toEqual(rows);
      }),
      { numRuns: 300 },
    );
  });
});

describe('readUserCsv and the row rules', () => {
  it('finds the columns by name in any order and case, ignores others, and undoes formula neutralising', () => {
    const read = readUserCsv('Name,E-mail,Joined,USERNAME\n"\'=Sum me",a@example.test,01/01/2026,alpha\n');
    expect(read).toMatchObject({ ok: true, rows: [{ line: 2, username: 'alpha', email: 'a@example.test', name: '=Sum me', role: '', services: '' }] });
  });

  it('refuses an empty file, missing columns, a header alone, and more than the row limit (413)', () => {
    expect(readUserCsv('')).toMatchObject({ ok: false, status: 400, message: 'The file is empty' });
    expect(readUserCsv('username,name\n')).toMatchObject({ ok: false, status: 400, message: expect.stringMatching(/missing: email$/) });
    expect(readUserCsv('username,email,name\r\n')).toMatchObject({ ok: false, status: 400 });
    const big = 'username,email,name\n' + 'a,b,c\n'.repeat(IMPORT_MAX_ROWS + 1);
    expect(readUserCsv(big)).toMatchObject({ ok: false, status: 413 });
    const limit = 'username,email,name\n' + 'a,b,c\n'.repeat(IMPORT_MAX_ROWS);
    expect(readUserCsv(limit)).toMatchObject({ ok: true });
  });

  it('normalises good rows and names every problem of a bad one', () => {
    expect(checkRow({ line: 2, username: ' jo.b ', email: ' Jo@Example.TEST ', name: ' Jo B ', role: 'instructor', services: 'misc | UKAS;ukas' })).toEqual({
      line: 2, username: 'jo.b', email: 'jo@example.test', name: 'Jo B', role: 'INSTRUCTOR', services: ['UKAS', 'MISC'],
      organisation: '', unit: '', manager: '', problems: [],
    });
    const bad = checkRow({ line: 3, username: 'no spaces', email: 'x@', name: '', role: 'boss', services: 'UKAS;fire' });
    expect(bad.problems.map((p) => p.field)).toEqual(['username', 'email', 'name', 'role', 'services']);
    expect(checkRow({ line: 4, username: 'ok_user', email: 'ok@example.test', name: 'A\u0000B', role: '', services: '' }).problems)
      .toEqual([{ field: 'name', message: 'Contains characters that are not allowed' }]);
  });

  it('marks later repeats of a username or email, the first line winning, and lines with stray fields', () => {
    const read = readUserCsv('username,email,name\nann,ann@example.test,Ann\nANN,other@example.test,Ann 2\nbob,Ann@Example.test,Bob\ncat,cat@example.test,Cat,Smith\n');
    if (!read.ok) throw new Error(read.message);
    const rows = checkFileRows(read);
    expect(rows.map((row) => row.problems.map((p) => p.message))).toEqual([
      [],
      ['Username appears earlier in the file (line 2)'],
      ['Email appears earlier in the file (line 2)'],
      ['This line has 4 fields but the header has 3 (put a value containing a comma in double quotes)'],
    ]);
    const again = rows.map((row) => ({ ...row, problems: [] }));
    markRepeats(again);
    expect(again[1].problems).toHaveLength(1);
  });
});

describe('markPlacement', () => {
  const ORG = 'o1';
  const OTHER = 'o2';
  const lookup: PlacementLookup = {
    organisations: [{ id: ORG, name: 'Northshire Police', code: 'NSP' }, { id: OTHER, name: 'Southshire Ambulance', code: 'SSA' }],
    units: [
      { id: 'u1', organisationId: ORG, parentId: null, name: 'North Area' },
      { id: 'u2', organisationId: ORG, parentId: 'u1', name: 'Central Station' },
      { id: 'u3', organisationId: ORG, parentId: 'u2', name: 'Red Watch' },
      { id: 'u4', organisationId: ORG, parentId: 'u1', name: 'Harbour Station' },
      { id: 'u5', organisationId: ORG, parentId: 'u4', name: 'Red Watch' },
    ],
    people: [
      { id: 'p1', username: 'sergeant', email: 'sergeant@example.test', organisationId: ORG },
      { id: 'p2', username: 'medic', email: 'medic@example.test', organisationId: OTHER },
    ],
  };
  const rows = () => {
    const read = readUserCsv([
      'username,email,name,organisation,unit,manager',
      'pa1,a1@example.test,A One,nsp,North Area/Central Station/Red Watch,SERGEANT',
      'pa2,a2@example.test,A Two,Northshire Police,Harbour Station,a1@example.test',
      'pa3,a3@example.test,A Three,Nowhere,,',
      'pa4,a4@example.test,A Four,NSP,Red Watch,',
      'pa5,a5@example.test,A Five,NSP,,medic',
      'pa6,a6@example.test,A Six,,Central Station,',
      'pa7,a7@example.test,A Seven,NSP,,pa5',
      'pa8,a8@example.test,A Eight,SSA,,',
    ].join('\n'));
    if (!read.ok) throw new Error(read.message);
    return checkFileRows(read);
  };

  it('finds organisations by code or name, units by name or path, managers among people or rows; names each problem', () => {
    const checked = rows();
    markPlacement(checked, lookup, null);
    expect(checked.map((r) => [r.username, r.organisationId, r.unitId, r.problems.map((p) => p.field)])).toEqual([
      ['pa1', ORG, 'u3', []],
      ['pa2', ORG, 'u4', []],
      ['pa3', null, null, ['organisation']],
      ['pa4', ORG, null, ['unit']], // two Red Watches: the path is needed
      ['pa5', ORG, null, ['manager']], // of another organisation
      ['pa6', null, null, ['unit']], // no organisation
      ['pa7', ORG, null, ['manager']], // their manager's row fails
      ['pa8', OTHER, null, []],
    ]);
    expect(checked[0].organisation).toBe('Northshire Police');
    expect(checked[0].unit).toBe('North Area/Central Station/Red Watch');
    expect(checked[3].problems[0].message).toMatch(/give its path/);
  });

  it('keeps an organisation\'s administrator to their organisation: empty is theirs, another is a problem', () => {
    const checked = rows();
    markPlacement(checked, lookup, ORG);
    expect(checked[5].organisationId).toBe(ORG); // a6: empty, so theirs, and Central Station is found
    expect(checked[5].unitId).toBe('u2');
    expect(checked[7].problems.map((p) => p.message)).toEqual(['You can import people into your own organisation only']);
  });

  it("gives an organisation's administrator's rows only the organisation's service", () => {
    const read = readUserCsv([
      'username,email,name,services',
      'ps1,s1@example.test,S One,UKPS',
      'ps2,s2@example.test,S Two,UKPS;UKAS',
      'ps3,s3@example.test,S Three,',
    ].join('\n'));
    if (!read.ok) throw new Error(read.message);
    const withService: PlacementLookup = { ...lookup, organisations: [{ id: ORG, name: 'Northshire Police', code: 'NSP', service: 'UKPS' }] };
    const own = checkFileRows(read);
    markPlacement(own, withService, ORG);
    expect(own.map((r) => r.problems.map((p) => `${p.field}: ${p.message}`))).toEqual([[], ["services: You can give only your organisation's service"], []]);
    // A national administrator gives any service.
    const national = checkFileRows(read);
    markPlacement(national, withService, null);
    expect(national.map((r) => r.problems)).toEqual([[], [], []]);
  });
});
