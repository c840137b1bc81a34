// The CSV cells, one rule at a time: RFC 4180 quoting and the formula-injection defence.
import { describe, expect, it } from 'vitest';
import { csvLine, csvNumber, csvText } from './csv.ts';

describe('csvText', () => {
  it('leaves plain text alone and writes null as an empty cell', () => {
    expect(csvText('Alpha video')).toBe('Alpha video');
    expect(csvText('Café 日本 🎬')).toBe('Café 日本 🎬');
    expect(csvText(null)).toBe('');
    expect(csvText('')).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling the quotes (RFC 4180)', () => {
    expect(csvText('a, b')).toBe('"a, b"');
    expect(csvText('say "hi"')).toBe('"say ""hi"""');
    expect(csvText('two\nlines')).toBe('"two\nlines"');
    expect(csvText('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it.each([
    ['=HYPERLINK("http://evil.example","click")', `"'=HYPERLINK(""http://evil.example"",""click"")"`],
    ['+1+cmd|/C calc', "'+1+cmd|/C calc"],
    ['-5 tips', "'-5 tips"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
  ])('prefixes a text cell that a spreadsheet would run as a formula: %j', (value, expected) => {
    expect(csvText(value)).toBe(expected);
  });

  it('only looks at the first character', () => {
    expect(csvText('a=b')).toBe('a=b');
    expect(csvText(' =1')).toBe(' =1');
  });
});

describe('csvNumber', () => {
  it('writes numbers as numeric cells, negative ones included (no quote prefix: they are numbers, not text)', () => {
    expect(csvNumber(1234)).toBe('1234');
    expect(csvNumber(-12.5)).toBe('-12.5');
    expect(csvNumber(0)).toBe('0');
  });

  it('leaves values a spreadsheet cannot read as numbers empty', () => {
    expect(csvNumber(Number.NaN)).toBe('');
    expect(csvNumber(Number.POSITIVE_INFINITY)).toBe('');
    expect(csvNumber(null)).toBe('');
  });
});

describe('csvLine', () => {
  it('joins cells with commas and ends with CRLF', () => {
    expect(csvLine(['a', '"b,c"', ''])).toBe('a,"b,c",\r\n');
  });
});
