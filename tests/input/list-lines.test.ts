// Lines of the items of a document's lists (src/core/input/list-lines.ts, yaml.ts): worked out by hand on small
// SYNTHETIC documents; the real HAR and cassette checks are in tests/formats/har.test.ts and cassettes.test.ts.
import { describe, expect, it } from 'vitest';
import { jsonListLines } from '../../src/core/input/list-lines.ts';
import { yamlRecords } from '../../src/core/input/yaml.ts';

const json = [
  '{"log": {"version": "1.2",', // 1
  '  "entries": [', // 2
  '    {"a": [1,', // 3
  '      2]},', // 4
  '    "x, [y] {z}",', // 5
  '    {"b": {"c": [3]}}', // 6
  '  ], "pages": []},', // 7
  ' "top": [ ], "t2": [[1],', // 8
  ' [2]], "k\\"e": [5,', // 9
  '', // 10
  '  6]}', // 11
].join('\n');

describe('jsonListLines (SYNTHETIC)', () => {
  it('finds the line of each item of lists one and two keys deep, and nothing deeper', () => {
    const lines = jsonListLines(json, 1);
    expect(lines('log.entries')).toEqual([3, 5, 6]);
    expect(lines('log.pages')).toEqual([]);
    expect(lines('top')).toEqual([]);
    expect(lines('t2')).toEqual([8, 9]);
    expect(lines('k"e')).toEqual([9, 11]);
    // Inside an item, or three keys deep: not tracked.
    expect(lines('log.entries.a')).toBeUndefined();
    expect(lines('a')).toBeUndefined();
    expect(lines('b.c')).toBeUndefined();
    expect(lines('log.version')).toBeUndefined();
  });

  it('counts from the line the document starts on; a one-line document; a top-level array has no named lists', () => {
    expect(jsonListLines(json, 40)('log.entries')).toEqual([42, 44, 45]);
    expect(jsonListLines('{"interactions":[{"a":1},{"b":[2,3]},4]}', 7)('interactions')).toEqual([7, 7, 7]);
    expect(jsonListLines('[{"entries":[1,2]}]', 1)('entries')).toBeUndefined();
    // A dotted key counts as one key: a list two keys deep under it is still found.
    expect(jsonListLines('{"a.b": {"c": [1,\n2]}}', 1)('a.b.c')).toEqual([1, 2]);
  });
});

describe('yamlRecords list lines (SYNTHETIC)', () => {
  const yaml = ['interactions:', '- request:', '    body: "a\\nb"', '  response: {}', '- request: {x: [1, 2]}', 'log:', '  entries: [1,', '    2]', 'version: 1', ''].join('\n');

  it('block and flow lists, one and two keys deep, shifted by the first line', () => {
    const [record] = yamlRecords(yaml, 3);
    expect(record).toHaveProperty('listLines');
    const lines = (record as { listLines: (path: string) => readonly number[] | undefined }).listLines;
    expect(lines('interactions')).toEqual([4, 7]);
    expect(lines('log.entries')).toEqual([9, 10]);
    expect(lines('version')).toBeUndefined();
    expect(lines('interactions.request')).toBeUndefined();
  });
});
