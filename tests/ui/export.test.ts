// Table export (src/ui/export.ts): CSV quoting by RFC 4180 and formula neutralising, worked out by hand.
import { describe, expect, it } from 'vitest';
import { csvField, tableCsv, tableJson } from '../../src/ui/export.ts';

describe('csvField', () => {
  it('quotes a field with a comma, a quote or a line break, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });
  it('puts an apostrophe before text a spreadsheet would run as a formula, and quotes it if needed', () => {
    expect(csvField('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-cmd')).toBe("'-cmd");
    expect(csvField('@x')).toBe("'@x");
    expect(csvField('=HYPERLINK("a","b")')).toBe(`"'=HYPERLINK(""a"",""b"")"`);
  });
  it('writes numbers and booleans as they are (a negative number is no formula), null as empty', () => {
    expect(csvField(-0.5)).toBe('-0.5');
    expect(csvField(1234567)).toBe('1234567');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
  });
});

describe('tableCsv and tableJson', () => {
  const table = { columns: [{ id: 'name', title: 'Name' }, { id: 'cost', title: 'Cost, USD' }], rows: [['a,b', 0.25], ['=x', null]] };
  it('writes a header line and one CRLF-ended line per row', () => {
    expect(tableCsv(table)).toBe('Name,"Cost, USD"\r\n"a,b",0.25\r\n\'=x,\r\n');
  });
  it('writes the rows as objects keyed by column id, text as it is', () => {
    expect(JSON.parse(tableJson(table))).toEqual([{ name: 'a,b', cost: 0.25 }, { name: '=x', cost: null }]);
  });
});
