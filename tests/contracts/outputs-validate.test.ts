// Every --json record validates against its published schema: analyze and dupes on every real fixture (read in
// place from ../shared/fixtures/real) and every synthetic example, and compare between consecutive analyses. (The
// clearing examples are validated in tests/clearing/cli.test.ts; the fuzz corpus's outputs in the fuzz targets.)
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyze, dupes } from '../../src/index.ts';
import { COMPARE_SCHEMA, compareRecord, compareRecords } from '../../src/core/compare/index.ts';
import { GENERATED_BY } from '../../src/core/analysis/version.ts';
import { EXAMPLES, REAL_FIXTURES, realFixturesPresent } from '../fuzz/corpus.ts';
import { recordViolation } from './validators.ts';

function files(root: string, keep: (name: string) => boolean): string[] {
  if (!fs.existsSync(root)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && keep(path.relative(root, full))) out.push(full);
  }
  return out.sort();
}

const isInput = (name: string) => /\.(jsonl?|har|ya?ml)(\.gz)?$/.test(name) && !name.includes('.usage.') && !name.startsWith('clearing');
const INPUTS = [...files(REAL_FIXTURES, isInput), ...files(EXAMPLES, (name) => isInput(name) && name !== 'index.json')];

function bytesOf(file: string): Uint8Array {
  const raw = new Uint8Array(fs.readFileSync(file));
  return file.endsWith('.gz') ? new Uint8Array(gunzipSync(raw)) : raw;
}

describe(`every record validates (${INPUTS.length} inputs${realFixturesPresent ? '' : '; real fixtures absent'})`, () => {
  it('has inputs to check', () => {
    expect(INPUTS.length).toBeGreaterThan(realFixturesPresent ? 30 : 5);
  });

  it('analyze and dupes on each input, compare between consecutive ones', async () => {
    const problems: string[] = [];
    let previous: unknown = null;
    for (const file of INPUTS) {
      const name = path.basename(file).replace(/\.gz$/, '');
      const where = path.relative(path.dirname(REAL_FIXTURES), file);
      const bytes = bytesOf(file);
      let record: unknown;
      try {
        record = await analyze({ name, content: bytes });
      } catch (error) {
        // An input the analysis refuses as a whole (no request in it) has no record to check.
        if (error instanceof Error && error.name === 'UnreadableInputError') continue;
        throw error;
      }
      const analysisProblem = recordViolation('analysis', record);
      if (analysisProblem) problems.push(`${where}: ${analysisProblem}`);
      const dupesProblem = recordViolation('dupes', await dupes({ name, content: bytes }));
      if (dupesProblem) problems.push(`${where}: ${dupesProblem}`);
      if (previous !== null) {
        const { before, after, comparison } = compareRecords(previous, record);
        const compared = compareRecord({ generatedBy: GENERATED_BY, before, after, comparison });
        expect(compared['schema']).toBe(COMPARE_SCHEMA);
        const compareProblem = recordViolation('compare', compared);
        if (compareProblem) problems.push(`${where}: ${compareProblem}`);
      }
      previous = record;
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('can fail: a record with an impossible value is refused, naming the path', async () => {
    const record = (await analyze({ name: 'synthetic.json', content: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }) })) as unknown as Record<string, unknown>;
    expect(recordViolation('analysis', record)).toBeNull();
    const broken = { ...record, totals: { ...(record['totals'] as object), tokens: -1 } };
    expect(recordViolation('analysis', broken)).toContain('/totals/tokens');
  });
});
