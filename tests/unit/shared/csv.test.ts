/**
 * The one CSV writer (issue 20.6): a cell that starts like a formula is text whatever follows it
 * (a line break included), control characters are escaped, and what a spreadsheet reads back is
 * the value (with the guard's quote in front where there is one). Read back with PapaParse, as a
 * spreadsheet would split it.
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { controlChars } from '../../support/control-chars';
import { csvCell, csvLine, escapeControls, startsLikeFormula, toCsv, type CsvCell } from '../../../shared/csv';

const readBack = (text: string) => Papa.parse<string[]>(text, { newline: '\r\n', delimiter: ',' }).data.filter((r) => r.length > 1 || r[0] !== '');

describe('the formula guard', () => {
  it('neutralises = + - @ tab CR and LF at the start, with a line break anywhere in the cell', () => {
    const cells = ['=HYPERLINK("http://x")', '=1+1\n', '=cmd|\' /C calc\'!A0\r\nsecond line', '+1\n2', '-2+3\r', '@SUM(A1)\nx', '\t=1', '\r=1', '\n=1', '  =1+1\nz'];
    const back = readBack(csvLine(cells))[0]!;
    expect(back).toEqual(cells.map((c) => `'${c}`));
    for (const c of cells) expect(csvCell(c)).toBe(`"'${c.replaceAll('"', '""')}"`);
  });

  it('leaves other text, numbers and booleans as they are; a negative number is a number', () => {
    expect(csvLine(['host-1', 'a=b', 'mail@example', 42, -3.5, true, null, undefined, ''])).toBe('host-1,a=b,mail@example,42,-3.5,true,,,\r\n');
    expect(csvCell(Number.NEGATIVE_INFINITY)).toBe(`"'-Infinity"`);
    expect(startsLikeFormula(' x')).toBe(false);
  });

  it('quotes the delimiter, semicolons, tabs, quotes, line breaks and edge spaces', () => {
    expect(csvLine(['a,b', 'a;b', 'a\tb', 'say "hi"', 'two\nlines', ' pad', 'pad '])).toBe('"a,b","a;b","a\tb","say ""hi""","two\nlines"," pad","pad "\r\n');
  });
});

describe('control characters', () => {
  it('ESC, the 8-bit CSI and OSC, NUL, BEL and DEL are written as their code points; tab, LF and CR stay', () => {
    const hostile = 'red\x1b[31mtext\x9b2J\x9d0;title\x07\x00\x7f\tend\r\nx';
    expect(escapeControls(hostile)).toBe('red\\u001B[31mtext\\u009B2J\\u009D0;title\\u0007\\u0000\\u007F\tend\r\nx');
    const out = toCsv([['id', hostile]]);
    expect(controlChars(out)).toEqual([]);
    expect(readBack(out)[0]).toEqual(['id', escapeControls(hostile)]);
  });

  it('a control character in front of a formula does not hide it', () => {
    expect(readBack(csvLine(['\x1b=1+1']))[0]).toEqual(['\\u001B=1+1']);
    expect(readBack(csvLine(['=\x1b]8;;http://x\x07\n']))[0]).toEqual(["'=\\u001B]8;;http://x\\u0007\n"]);
  });
});

describe('properties', () => {
  const text = fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ' ', ',', ';', '"', "'", 'a', 'Z', '1', '\x1b', '\x9b', '\x9d', '\x7f', '\x00', 'é', '\u202e', '\uFEFF'), maxLength: 12 });
  const cell: fc.Arbitrary<CsvCell> = fc.oneof(text, text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null));

  it('every cell reads back as its value (controls escaped, a quote in front of a formula); none starts like a formula; no control character is written', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const out = toCsv(rows);
        expect(controlChars(out)).toEqual([]);
        const back = readBack(out);
        expect(back).toHaveLength(rows.length);
        rows.forEach((r, i) =>
          r.forEach((v, j) => {
            const got = back[i]![j]!;
            if (typeof v !== 'string') return expect(got).toBe(v === null ? '' : String(v));
            const shown = escapeControls(v);
            expect(got).toBe(startsLikeFormula(shown) ? `'${shown}` : shown);
            expect(startsLikeFormula(got)).toBe(false);
          }),
        );
      }),
      { numRuns: 500 },
    );
  });
});
