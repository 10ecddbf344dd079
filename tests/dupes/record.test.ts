// The record and its markdown view: schema validity, verdicts, the evidence table, and no text ever leaking.
import { wireIdOf } from '../wire-ids.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { REASON_CODES, REASON_MEANINGS } from '../../src/core/dupes/codes.ts';
import { dupesMarkdown } from '../../src/core/dupes/markdown.ts';
import { buildDupesRecord, dupesRecordJson, exitCodeOf } from '../../src/core/dupes/record.ts';
import { requestLogBlocks } from '../../src/core/dupes/request-log.ts';
import { ADAPTERS, MAPPINGS } from '../../src/core/dupes/types.ts';
import { assertSchemaValid, nativeEnvelope, recordOf } from './helpers.ts';

const SEED = nativeEnvelope(['you are a helpful assistant', 'you are a helpful assistant', 'what is the capital of France?']);

describe('record', () => {
  it('carries the contract labels', () => {
    const record = recordOf(SEED);
    expect(record).toMatchObject({
      schema: 'ctxray.dupes/1',
      suite: 'v1',
      tokenizer: 'unicode-whitespace v1.0',
      hash: 'sha256',
      detail: null,
      ignoredParts: 0,
      skippedRecords: 0,
    });
    expect(record.claims.notClaimed).toEqual([
      'provider-model-tokens',
      'billing-estimate',
      'substring-repetition',
      'semantic-duplication',
      'context-truncation',
      'blocks-transmitted-to-provider',
    ]);
    expect(record.claims.hashes).toBe('guessable-pseudonyms-not-anonymization');
  });

  it('maps results to the contract exit codes', () => {
    expect([exitCodeOf('pass'), exitCodeOf('fail'), exitCodeOf('unknown')]).toEqual([0, 1, 2]);
  });

  it('has a meaning for every reason code', () => {
    for (const code of REASON_CODES) expect(REASON_MEANINGS[code].length).toBeGreaterThan(10);
  });

  it('the schema rejects records that break it', () => {
    const record = JSON.parse(dupesRecordJson(recordOf(SEED))) as Record<string, unknown>;
    expect(() => assertSchemaValid({ ...record, result: 'maybe' })).toThrow(/result/);
    expect(() => assertSchemaValid({ ...record, text: 'x' })).toThrow(/additional/);
    expect(() => assertSchemaValid({ ...record, blocks: [{ index: 0, bytes: 1, tokens: 1, hash: 'ABC' }] })).toThrow(/pattern/);
    expect(() => assertSchemaValid({ ...record, reason: 'SOMETHING_ELSE' })).toThrow();
  });

  it('a log with skipped records and no duplicate is unknown, with duplicates still fail', () => {
    const clean = buildDupesRecord({ ok: true, source: { adapter: null, mapping: 'request-log-last-requests-v1', blocks: [{ text: 'a', origin: null }], ignoredParts: 0 } }, { skippedRecords: 2 });
    expect([clean.result, clean.reason, clean.detail]).toEqual(['unknown', 'INCOMPLETE_INPUT', { skippedRecords: 2 }]);
    const dup = buildDupesRecord({ ok: true, source: { adapter: null, mapping: 'request-log-last-requests-v1', blocks: [{ text: 'a', origin: null }, { text: 'a', origin: null }], ignoredParts: 0 } }, { skippedRecords: 2 });
    expect(dup.result).toBe('fail');
    assertSchemaValid(clean);
    assertSchemaValid(dup);
  });
});

describe('markdown view', () => {
  it('has the summary, one table row per repeated hash, the disclaimers and the JSON verbatim', () => {
    const record = recordOf(SEED);
    const md = dupesMarkdown(record);
    expect(md).toContain('**Result: FAIL** — 1 duplicate block (1 repeated content hash) cost 27 bytes and 5 tokens.');
    const hash = record.duplicates[0]?.hash ?? '';
    expect(md).toContain(`| \`${hash}\` | 2 | 1 | 27 | 5 | 27 | 5 | 0, 1 |`);
    expect(md.split('\n').filter((line) => line.startsWith('| `')).length).toBe(1);
    for (const phrase of ['not the tokens of any provider model', 'billing estimate', 'substring repetition', 'semantic', 'truncation', 'not anonymization', 'transmitted to a provider']) {
      expect(md).toContain(phrase);
    }
    const fenced = /```json\n([\s\S]*?)\n```/.exec(md)?.[1];
    expect(fenced).toBe(dupesRecordJson(record).trimEnd());
  });

  it('explains an unknown result by code, meaning and location', () => {
    const md = dupesMarkdown(recordOf({ suite: 'v1', blocks: [{ text: 'a' }, { text: 3 }] }));
    expect(md).toContain('**Result: UNKNOWN** — `BLOCK_TEXT_NOT_STRING`.');
    expect(md).toContain('(field `text`, block 1)');
    expect(md).toContain('Not measured: the run is unknown.');
  });

  it('says PASS plainly', () => {
    expect(dupesMarkdown(recordOf(nativeEnvelope(['a', 'b'])))).toContain('**Result: PASS** — no exact duplicate among 2 blocks.');
  });
});

/** A random marker that cannot occur by chance in a record (hex hashes, codes, numbers). */
const marker = fc.stringMatching(/^[A-Z]{4}[0-9]{4}[g-z]{4}$/).map((m) => `MRK${m}`);

function assertNoLeak(outputs: string[], markers: string[]): void {
  for (const output of outputs) for (const m of markers) expect(output.includes(m), `leaked ${m}`).toBe(false);
}

describe('privacy: planted markers never reach JSON or markdown', () => {
  it('native envelope, duplicates and refusals', () => {
    fc.assert(
      fc.property(fc.array(marker, { minLength: 1, maxLength: 6 }), fc.boolean(), (markers, duplicate) => {
        const texts = markers.map((m) => `text with ${m} inside 👋 ${m}`);
        if (duplicate) texts.push(texts[0] as string);
        const envelopes: unknown[] = [
          { suite: 'v1', blocks: texts.map((text) => ({ text, [markers[0] as string]: text })) },
          { suite: markers[0], blocks: texts.map((text) => ({ text })) },
          { adapter: markers[0], blocks: [] },
          { suite: 'v1', blocks: [...texts.map((text) => ({ text })), { text: { [markers[0] as string]: 1 } }] },
          `{"suite":"v1","blocks":[{"text":"${markers[0]}"},{"text":${markers[0]}}]}`,
        ];
        for (const envelope of envelopes) {
          const record = recordOf(envelope);
          assertNoLeak([dupesRecordJson(record), dupesMarkdown(record)], markers);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('both adapters', () => {
    fc.assert(
      fc.property(fc.array(marker, { minLength: 2, maxLength: 6 }), (markers) => {
        const [a, b] = markers as [string, string];
        const chat = {
          adapter: 'openai-chat-v1',
          messages: [
            ...markers.map((m) => ({ role: 'user', name: m, content: m })),
            { role: 'user', content: [{ type: 'text', text: a }, { type: 'image_url', image_url: { url: `https://x/${b}` } }] },
            { role: 'assistant', content: null, tool_calls: [{ id: b, function: { name: a, arguments: b } }] },
          ],
        };
        const cone = {
          adapter: 'conereplay-v1',
          trace: { events: markers.map((m, i) => ({ event_id: m, agent_id: m, turn_seq: i + 1, kind: 'llm_sampling', inputs: `${m} in`, outputs: a, causal_parents: [m], content_hash: m, timestamp_ns: i })) },
        };
        const badChat = { ...chat, messages: [...chat.messages, { role: 'user', content: { [a]: b } }] };
        const badCone = { ...cone, trace: { events: [...cone.trace.events, { event_id: a, inputs: a, outputs: { [b]: a } }] } };
        for (const envelope of [chat, cone, badChat, badCone]) {
          const record = recordOf(envelope);
          assertNoLeak([dupesRecordJson(record), dupesMarkdown(record)], markers);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('request-log mapping', () => {
    const m = 'MRKREQLOG0001zz';
    const source = requestLogBlocks([
      {
        index: 0, line: 1, file: 0, format: 'openai-chat', model: m, messageCount: 1, topLevelCacheMarker: null,
        unknownShapes: [], notes: [], customId: m, timestamp: null, recorded: null,
        options: { toolChoice: null, thinking: null, promptCacheKey: m, cacheRoutingUser: m, promptCacheRetention: null, promptCacheMode: null, stream: false, previousResponseId: false, mcpServers: false },
        segments: [
          { category: 'user', path: 'messages[0]', text: m, wire: m, bytes: m.length, hash: '0', wireId: wireIdOf(m), cacheMarker: null, position: 0, messageIndex: 0, role: 'user', toolName: m, callId: m, media: null, cacheable: true },
        ],
      },
    ]);
    const record = buildDupesRecord({ ok: true, source });
    assertNoLeak([dupesRecordJson(record), dupesMarkdown(record)], [m]);
  });
});

describe('JSON view', () => {
  it('is the record exactly, one line per block and per duplicate group', () => {
    const record = recordOf({ adapter: 'openai-chat-v1', messages: [{ content: 'a' }, { content: [{ type: 'text', text: 'a' }] }, { content: 'b' }] });
    const json = dupesRecordJson(record);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(record)));
    expect(json.endsWith('}\n')).toBe(true);
    expect(json).toContain('\n    {"index":1,"bytes":1,"tokens":1,"hash":"');
    expect(json).toContain(',"origin":{"message":1,"part":0}},\n');
    expect(json).toContain('\n    {"hash":"');
    const empty = dupesRecordJson(recordOf({ suite: 'v1', blocks: [] }));
    expect(JSON.parse(empty)).toMatchObject({ blocks: [], duplicates: [], reason: 'NO_BLOCKS' });
  });
});

describe('documentation stays in step with the code', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const schema = JSON.parse(readFileSync(path.join(root, 'docs/dupes.schema.json'), 'utf8')) as {
    properties: { reason: { oneOf: [unknown, { enum: string[] }] }; mapping: { enum: unknown[] }; adapter: { enum: unknown[] } };
  };
  const doc = readFileSync(path.join(root, 'docs/dupes.md'), 'utf8');

  it('lists every reason code, in the schema and in docs/dupes.md', () => {
    expect(schema.properties.reason.oneOf[1].enum).toEqual([...REASON_CODES]);
    const documented = [...doc.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual([...REASON_CODES]);
  });

  it('lists every mapping and adapter in the schema', () => {
    expect(schema.properties.mapping.enum).toEqual([...MAPPINGS, null]);
    expect(schema.properties.adapter.enum).toEqual([...ADAPTERS, null]);
  });
});
