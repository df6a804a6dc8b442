import { describe, expect, it } from 'vitest';
import { csvCell, messagesCsvFilename, toCsv } from './messages-csv';

describe('messages CSV', () => {
  it('quotes fields with commas, quotes and line breaks (RFC 4180), and ends lines with CRLF', () => {
    expect(toCsv([['a', 'b,c', 'say "hi"', 'two\nlines', 'cr\rhere'], [1, null, true]])).toBe(
      'a,"b,c","say ""hi""","two\nlines","cr\rhere"\r\n1,,true\r\n',
    );
  });

  it('neutralises cells a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('a = b')).toBe('a = b');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('émoji 👋')).toBe('émoji 👋');
  });

  it('names the file after the UTC date', () => {
    expect(messagesCsvFilename(new Date('2026-03-09T23:30:00Z'))).toBe('messages-2026-03-09.csv');
  });
});
