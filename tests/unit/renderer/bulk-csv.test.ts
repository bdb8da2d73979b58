/**
 * The bulk onboarding CSV at the depth of each problem: a file that is not text is refused as what
 * it is before any row is read; a broken quote or a line with the wrong number of values is one
 * problem for its line; otherwise one problem per column. Every file is built here, byte by byte.
 */
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../../renderer/features/onboarding/bulk/csv-bytes';
import { parseDeviceCsv } from '../../../renderer/features/onboarding/bulk/csv';
import { parseCsvBytes, readDeviceCsvFile } from '../../../renderer/features/onboarding/bulk/csv-file';
import { findQuoteProblems, parseRows, readRows } from '../../../renderer/features/onboarding/bulk/csv-read';
import { bytesOf as bytes, xlsxBytes, zipOf as zip } from './support/files';

const HEADER = 'deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude';
const row = (n: number, sep = ',') => [`shop-${n}`, String(100 + n), 'Acme', `SN-${n}`, 'retail', 'DE', '48.1', '11.6'].join(sep);
/** The header and devices 1…n on lines 2…n+1, with `replace` putting other text on some lines. */
const file = (n: number, replace: Record<number, string> = {}, nl = '\n') => [HEADER, ...Array.from({ length: n }, (_, i) => replace[i + 2] ?? row(i + 1))].join(nl) + nl;
const validLines = (p: ReturnType<typeof parseDeviceCsv>) => p.valid.map((v) => v.line);

describe('a broken quote is one problem for its line', () => {
  it('an unclosed quote on line 7: one problem naming its column and the fix; the lines after it are still read', () => {
    const p = parseDeviceCsv(file(10, { 7: 'shop-6,106,"Acme,SN-6,retail,DE,48.1,11.6' }));
    expect(p.issues).toEqual([{ line: 7, deviceName: 'shop-6', field: 'orgName', column: 'orgName', message: 'A quoted value is not closed — add the closing " or remove the opening one.' }]);
    expect([...p.badLines]).toEqual([7]);
    expect(validLines(p)).toEqual([2, 3, 4, 5, 6, 8, 9, 10, 11]);
    expect(p.records.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('an unclosed quote followed by quoted values further down: still one problem, and those lines are read as they are', () => {
    const p = parseDeviceCsv(file(6, { 3: 'shop-2,102,Acme,"SN-2,retail,DE,48.1,11.6', 5: '"shop-4",104,"Acme",SN-4,retail,DE,48.1,11.6' }));
    expect(p.issues.map((i) => [i.line, i.field, i.message.slice(0, 30)])).toEqual([[3, 'serialNumber', 'A quoted value is not closed —']]);
    expect(validLines(p)).toEqual([2, 4, 5, 6, 7]);
    expect(p.valid.find((v) => v.line === 5)?.device.deviceName).toBe('shop-4');
  });

  it('a quote inside a quoted value that was not doubled: one problem saying to double it', () => {
    const p = parseDeviceCsv(file(4, { 3: 'shop-2,102,"Acme "North" Ltd",SN-2,retail,DE,48.1,11.6' }));
    expect(p.issues).toHaveLength(1);
    expect(p.issues[0]).toMatchObject({ line: 3, field: 'orgName', message: expect.stringContaining('write a quote inside a value as two quotes ("")') });
    expect(validLines(p)).toEqual([2, 4, 5]);
    // Doubled, it is a value like any other.
    expect(parseDeviceCsv(file(1, { 2: 'shop-1,101,"Acme ""North"" Ltd",SN-1,retail,DE,48.1,11.6' })).valid[0]?.device.orgName).toBe('Acme "North" Ltd');
  });

  it('an unclosed quote in every other line: each is one problem, the others are valid', () => {
    const broken: Record<number, string> = {};
    for (let line = 3; line <= 201; line += 2) broken[line] = `shop-${line},${line},"Acme,SN,retail,DE,48.1,11.6`;
    const p = parseDeviceCsv(file(200, broken));
    expect(p.issues).toHaveLength(100);
    expect(p.issues.every((i) => i.field === 'orgName' && i.message.startsWith('A quoted value is not closed'))).toBe(true);
    expect(p.valid).toHaveLength(100);
  });

  it('a quoted value may span lines: the line numbers after it count those lines', () => {
    const p = parseDeviceCsv(`${HEADER}\r\n"a\nb",1,Acme,S1,g,DE,1,2\r\n\r\nok-2,1,Acme,S2,g,DE,1,2\r\n`);
    expect(p.issues.map((i) => [i.line, i.field])).toEqual([
      [2, 'deviceName'],
      [5, 'siteId'],
    ]);
  });

  it('quoting done right is no problem: delimiters, doubled quotes, line breaks and white space after the closing quote', () => {
    const quoted = (n: number) => `"shop-${n}","${100 + n}","Acme, ""North""" ,"SN-${n}","retail"\t,DE,"48.1","11.6"`;
    const text = file(3, { 2: quoted(1), 3: quoted(2), 4: quoted(3) });
    expect(findQuoteProblems(text, ',').size).toBe(0);
    const p = parseDeviceCsv(text);
    expect(p.issues).toEqual([]);
    expect(p.valid.map((v) => v.device.orgName)).toEqual(['Acme, "North"', 'Acme, "North"', 'Acme, "North"']);
  });

  it("the parser's own recovery (should the scan miss a broken quote) gives the same rows", () => {
    const text = file(8, { 3: 'shop-2,102,"Acme,SN-2,retail,DE,48.1,11.6', 5: 'shop-4,104,"Ac"me,SN-4,retail,DE,48.1,11.6', 7: '"shop-6",106,"Acme",SN-6,retail,DE,48.1,11.6' });
    expect(parseRows(text, ',')).toEqual(readRows(text, ','));
    expect(readRows(text, ',').filter((r) => r.quote)).toEqual([
      { line: 3, fields: ['shop-2', '102'], quote: { kind: 'unclosed', field: 2 } },
      { line: 5, fields: ['shop-4', '104'], quote: { kind: 'stray', field: 2 } },
    ]);
  });

  it('a broken quote in the header line refuses the file', () => {
    expect(parseDeviceCsv('deviceName,"siteId,orgName\nx,1,y\n').fileError).toBe('Line 1, the header line: A quoted value is not closed — add the closing " or remove the opening one.');
  });
});

describe('a line with the wrong number of values is one problem', () => {
  it('too many values (a comma inside an unquoted value): one problem for the line, no echo per column', () => {
    const p = parseDeviceCsv(file(3, { 3: 'shop-2,102,Acme, Inc.,SN-2,retail,DE,48.1,11.6' }));
    expect(p.issues).toEqual([{ line: 3, deviceName: 'shop-2', field: '', column: '', message: 'The line has 9 values but the header has 8 columns. Put double quotes around a value that contains a comma, or remove the extra commas.' }]);
    // Empty values past the header's columns (a spreadsheet's trailing commas) are no problem.
    expect(parseDeviceCsv(file(1, { 2: `${row(1)},,` })).issues).toEqual([]);
  });

  it('too few values: one problem naming the columns without a value', () => {
    const p = parseDeviceCsv(file(2, { 3: 'shop-2,102,Acme,SN-2,retail,DE' }));
    expect(p.issues).toEqual([{ line: 3, deviceName: 'shop-2', field: '', column: '', message: 'The line has 6 values but the header has 8 columns: latitude and longitude have no value. Add them (an empty value still needs its comma).' }]);
  });

  it('an empty value is one problem for its column, not one per rule it breaks', () => {
    const p = parseDeviceCsv(file(1, { 2: ',101,Acme,SN-1,retail,DE,,11.6' }));
    expect(p.issues.map((i) => [i.field, i.message])).toEqual([
      ['deviceName', 'Enter the device name.'],
      ['latitude', 'Enter the latitude.'],
    ]);
  });
});

describe('problems name the column as the file names it', () => {
  it('reports the header names of the file, duplicates with the line they repeat', () => {
    const header = 'SiteId;DEVICENAME;orgname;Country;serialNumber;deviceGroup;Latitude;longitude';
    const p = parseDeviceCsv(`${header}\n1;a;Acme;XX;S1;g;1;2\n2;a;Acme;DE;S2;g;1;2\n`);
    expect(p.issues).toEqual([
      { line: 2, deviceName: 'a', field: 'country', column: 'Country', message: 'This is not an ISO 3166-1 country code.' },
      { line: 3, deviceName: 'a', field: 'deviceName', column: 'DEVICENAME', message: 'Line 2 has the same device name; each device once per file: rename or remove one of them.' },
    ]);
  });
});

describe('line breaks, delimiters and encodings (C-14)', () => {
  it('reads CRLF, LF and lone CR files alike, with the same line numbers', () => {
    for (const nl of ['\r\n', '\n', '\r']) {
      const p = parseDeviceCsv(file(4, { 4: row(3).replace('DE', 'XX') }, nl));
      expect(p.issues.map((i) => i.line)).toEqual([4]);
      expect(validLines(p)).toEqual([2, 3, 5]);
    }
  });

  it('drops a UTF-8 byte order mark', () => {
    const p = parseCsvBytes(bytes([0xef, 0xbb, 0xbf], file(2)));
    expect(p.fileError).toBeUndefined();
    expect(validLines(p)).toEqual([2, 3]);
  });

  it('accepts semicolons and tabs, says so, and points out a decimal comma', () => {
    const semi = parseDeviceCsv(`${HEADER.replaceAll(',', ';')}\n${row(1, ';')}\nshop-2;102;Acme;SN-2;retail;DE;48,1;11.6\n`);
    expect(semi.delimiter).toBe(';');
    expect(validLines(semi)).toEqual([2]);
    expect(semi.issues).toEqual([{ line: 3, deviceName: 'shop-2', field: 'latitude', column: 'latitude', message: 'Write the latitude with a decimal point: 48.1, not 48,1.' }]);
    const tab = parseDeviceCsv(`${HEADER.replaceAll(',', '\t')}\n${row(1, '\t')}\n`);
    expect(tab.delimiter).toBe('\t');
    expect(validLines(tab)).toEqual([2]);
    // A comma file whose values hold semicolons stays a comma file.
    expect(parseDeviceCsv(file(1, { 2: 'shop-1,101,Acme;North,SN-1,retail,DE,48.1,11.6' })).delimiter).toBe(',');
  });

  it('refuses text that is not UTF-8, naming the line and what to do', () => {
    const latin1 = bytes(file(1), 'shop-2,102,M', [0xfc], 'ller,SN-2,retail,DE,48.1,11.6\n');
    const p = parseCsvBytes(latin1);
    expect(p.fileError).toBe('Line 3 is not UTF-8 text (byte 0xFC): the file was saved in another encoding, such as Windows-1252. Save it as CSV UTF-8 (Excel: File › Save As › CSV UTF-8) and choose it again.');
    expect(p.records).toEqual([]);
  });
});

describe('a file that is not text is refused as what it is', () => {
  it('an Excel workbook: save it as CSV (UTF-8) first', () => {
    const p = parseCsvBytes(xlsxBytes());
    expect(p.fileError).toBe('This is an Excel workbook; save it as CSV (UTF-8) first and choose that file (Excel: File › Save As › CSV UTF-8).');
    expect(p).toMatchObject({ records: [], issues: [], ignoredColumns: [] });
    expect(parseCsvBytes(zip('[Content_Types].xml')).fileError).toMatch(/^This is an Excel workbook \(or another Office document\); save it as CSV \(UTF-8\) first/);
  });

  it('other archives, documents and images', () => {
    expect(parseCsvBytes(zip('[Content_Types].xml', 'word/document.xml')).fileError).toMatch(/^This is a Word document, not a CSV file/);
    expect(parseCsvBytes(zip('devices.csv')).fileError).toBe('This is a ZIP archive; unpack it and choose the CSV file inside.');
    expect(parseCsvBytes(bytes('%PDF-1.7\n%âãÏÓ\n1 0 obj')).fileError).toMatch(/^This is a PDF document, not a CSV file/);
    expect(parseCsvBytes(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])).fileError).toMatch(/^This is a PNG image/);
    expect(parseCsvBytes(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])).fileError).toMatch(/^This is an older Office file \(an Excel 97–2003 workbook/);
    expect(parseCsvBytes(bytes([0xff, 0xfe], 'd\0e\0')).fileError).toMatch(/^This file is UTF-16 text/);
  });

  it('any other binary file: not text, before a single row or column is made of it', () => {
    const random = bytes('deviceName,siteId\n', [0x13, 0x00, 0x7f, 0x00, 0x41, 0x2c]);
    const p = parseCsvBytes(random);
    expect(p.fileError).toMatch(/^This file is not text \(it holds binary data\)/);
    expect(p).toMatchObject({ records: [], issues: [], ignoredColumns: [] });
  });

  it('a file far larger than any device list is refused without being read', async () => {
    const huge = { size: MAX_FILE_BYTES + 1, arrayBuffer: () => Promise.reject(new Error('read')) } as unknown as Blob;
    expect((await readDeviceCsvFile(huge)).fileError).toMatch(/^The file is 32 MB; a CSV of 20,000 devices is a few MB/);
    expect((await readDeviceCsvFile(new Blob([file(2)]))).valid).toHaveLength(2);
  });
});

describe('the header line', () => {
  it('an empty file, blank lines only, and a header without rows', () => {
    expect(parseCsvBytes(new Uint8Array()).fileError).toMatch(/^The file is empty/);
    expect(parseDeviceCsv('\n \r\n\n').fileError).toMatch(/^The file is empty/);
    expect(parseDeviceCsv(`${HEADER}\r\n`).fileError).toBe('The file has a header line but no device rows.');
  });

  it('names the missing columns, ignores unknown ones', () => {
    expect(parseDeviceCsv('deviceName,siteId\nx,1').fileError).toBe(
      'The header line has no column “orgName”, “serialNumber”, “deviceGroup”, “country”, “latitude”, “longitude”. It needs deviceName, siteId, orgName, serialNumber, deviceGroup, country, latitude, longitude (any order, any letter case).',
    );
    const extra = parseDeviceCsv(`${HEADER},notes,Owner\n${row(1)},ground floor,\n`);
    expect(extra.ignoredColumns).toEqual(['notes', 'Owner']);
    expect(validLines(extra)).toEqual([2]);
  });

  it('says which column to rename when a name is spelled another way', () => {
    const p = parseDeviceCsv(`Device Name,siteId,orgName,serial_number,deviceGroup,country,latitude,longitude\n${row(1)}\n`);
    expect(p.fileError).toBe('The header line has no column “deviceName”, “serialNumber”. Rename “Device Name” to deviceName and rename “serial_number” to serialNumber.');
  });

  it('a file without a header line, and a column named twice', () => {
    expect(parseDeviceCsv(`${row(1)}\n${row(2)}\n`).fileError).toBe(`The first line is not the header line: it names none of the columns. Put the header line first: ${HEADER} (the template has it).`);
    expect(parseDeviceCsv(`${HEADER},siteid\n${row(1)},5\n`).fileError).toBe('The header line names the column “siteId” twice (columns 2 and 9); keep one.');
  });
});
