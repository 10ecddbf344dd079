// Every real request fixture through analyzeInput → buildRecord: schema-valid, no unknown shapes, no payload text.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { buildRecord } from '../../src/core/analysis/record.ts';
import { FIXTURES, fixturesPresent, requestFiles } from '../conformance/recorded.ts';
import { analysisValidator } from './schema.ts';

const suite = fixturesPresent ? describe : describe.skip;
if (!fixturesPresent) console.warn('real-fixture analysis skipped: ../shared/fixtures/real is absent');

/** String values of a body long enough to be recognizable payload (texts, tool names, ids, base64). */
function payloadStrings(value: unknown, out: Set<string>, key = ''): Set<string> {
  if (typeof value === 'string') {
    if (value.length >= 10 && key !== 'model' && key !== 'type' && key !== 'media_type') out.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) payloadStrings(item, out, key);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) payloadStrings(v, out, k);
  }
  return out;
}

/** Tool names are short; they must not appear as values either. */
function toolNames(body: unknown): string[] {
  const text = JSON.stringify(body);
  return [...text.matchAll(/"name"\s*:\s*"([^"]{3,})"/g)].map((m) => m[1]!);
}

suite('analysis of every real request fixture', () => {
  const validate = analysisValidator();
  for (const dir of ['anthropic-messages', 'openai-chat', 'openai-responses']) {
    for (const name of requestFiles(dir)) {
      it(`${dir}/${name}`, async () => {
        const full = path.join(FIXTURES, dir, name);
        const bytes = new Uint8Array(readFileSync(full));
        const analysis = await analyzeInput([{ name: full, bytes }]);
        expect(analysis.errors).toEqual([]);
        expect(analysis.requests.length).toBeGreaterThan(0);
        expect(analysis.requests.every((r) => r.format === dir)).toBe(true);
        expect(analysis.requests.flatMap((r) => r.unknownShapes)).toEqual([]);
        // Every request's total is its segments plus overhead.
        analysis.tokens.forEach((t) => expect(t.total).toBe(t.segments.reduce((a, b) => a + b, 0) + t.overheadTotal));

        const record = buildRecord(analysis);
        expect(validate(record), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
        const json = JSON.stringify(record);
        expect(json).not.toContain(full);
        const text = readFileSync(full, 'utf8');
        const bodies = name.endsWith('.jsonl') ? text.trim().split('\n').map((l) => JSON.parse(l) as unknown) : [JSON.parse(text) as unknown];
        const leaked = [...payloadStrings(bodies, new Set())].filter((s) => json.includes(JSON.stringify(s)));
        expect(leaked).toEqual([]);
        for (const tool of new Set(bodies.flatMap(toolNames))) expect(json).not.toContain(`"${tool}"`);
      });
    }
  }
});
