import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRead } from '../../src/core/analysis/analyze.ts';
import { ANALYSIS_SCHEMA, RECORD_SECTIONS, buildRecord } from '../../src/core/analysis/record.ts';
import { CTXRAY_VERSION } from '../../src/core/analysis/version.ts';
import type { ReadResult } from '../../src/core/input/index.ts';
import { chatMessage, request, segment } from '../tokens/build.ts';
import { analysisValidator } from './schema.ts';

const root = path.resolve(__dirname, '../..');

// Synthetic requests: a secret-looking text and a tool name that must never reach the record.
const SECRET = 'SYNTHETIC-SECRET-do-not-leak-7f3a';
const TOOL_NAME = 'synthetic_private_tool_name';

function syntheticRead(): ReadResult {
  const tool = { type: 'function', function: { name: TOOL_NAME, description: SECRET, parameters: { type: 'object', properties: {} } } };
  const chat = request('openai-chat', 'gpt-4o', [chatMessage(0, 'user', 'hello')], { index: 0, line: 1, messageCount: 1 });
  const withTool = request(
    'openai-chat',
    'gpt-4o-2024-08-06',
    [segment({ category: 'tools', text: JSON.stringify(tool), wire: JSON.stringify(tool), path: 'tools[0]', toolName: TOOL_NAME }), chatMessage(0, 'user', SECRET)],
    { index: 1, line: 2 },
  );
  const claude = request(
    'anthropic-messages',
    'claude-unreleased-9',
    [segment({ category: 'user', text: 'a'.repeat(40), messageIndex: 0, role: 'user', path: 'messages[0].content[0]' })],
    { index: 2, line: 1, file: 1, recorded: { input: 10, cacheRead: 5, cacheWrite5m: 2, cacheWrite1h: 1, output: 3 } },
  );
  claude.segments[0]!.cacheMarker = { ttl: '1h' };
  return {
    requests: [chat, withTool, claude],
    errors: [{ file: 1, line: 2, message: 'line 2: not valid JSON (unexpected end of input)' }],
    files: [
      { format: 'openai-chat', envelope: 'none', layout: 'jsonl', records: 2, requests: 2, errors: 0 },
      { format: 'anthropic-messages', envelope: 'none', layout: 'jsonl', records: 2, requests: 1, errors: 1 },
    ],
    distinctTexts: 5,
  };
}

describe('analyzeRead', () => {
  it('counts, resolves models and totals per file and overall', async () => {
    const analysis = await analyzeRead(syntheticRead(), ['/private/path/a.jsonl', 'b.jsonl']);
    expect(analysis.tokens[0]?.total).toBe(8); // recorded by the API for this exact request
    expect(analysis.models.map((m) => [m.id, m.pricing?.id ?? null, m.via])).toEqual([
      ['gpt-4o', 'gpt-4o', 'api'],
      ['gpt-4o-2024-08-06', 'gpt-4o', 'snapshot'],
      ['claude-unreleased-9', null, null],
    ]);
    expect(analysis.files[0]?.totals.requests).toBe(2);
    expect(analysis.files[1]?.totals.tokens).toBe(analysis.tokens[2]?.total);
    expect(analysis.totals.tokens).toBe(analysis.tokens.reduce((sum, t) => sum + t.total, 0));
    expect(analysis.totals.exactRequests).toBe(1);
    expect(analysis.segmentTokens[0]).toEqual([1]);
    expect(analysis.overheadTokens[0]).toBe(7);
    expect(analysis.modelUse.map((use) => [use.id, use.known])).toEqual([
      ['gpt-4o', true],
      ['gpt-4o-2024-08-06', true],
      ['claude-unreleased-9', false],
    ]);
    // Plain data: survives structured cloning (the worker posts it to the page).
    expect(structuredClone(analysis).totals).toEqual(analysis.totals);
  });

  it('applies --model to every request', async () => {
    const analysis = await analyzeRead(syntheticRead(), ['a', 'b'], { model: 'claude-sonnet-4-5@20250929' });
    expect(analysis.models.every((m) => m.source === 'override' && m.pricing?.id === 'claude-sonnet-4-5')).toBe(true);
    // The OpenAI body is still read as OpenAI, tokenized with the override's family rules.
    expect(analysis.tokens[0]?.exact).toBe(false);
    expect(analysis.tokens[0]?.notes).toContain('encoding_assumed');
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(analyzeRead(syntheticRead(), ['a', 'b'], { signal: controller.signal })).rejects.toThrow();
  });
});

describe('buildRecord', () => {
  it('writes the documented fields and validates against docs/analysis.schema.json', async () => {
    const record = buildRecord(await analyzeRead(syntheticRead(), ['/private/path/a.jsonl', 'b.jsonl']));
    const validate = analysisValidator();
    expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
    expect(record.schema).toBe(ANALYSIS_SCHEMA);
    expect(record.generatedBy).toBe(`ctxray ${CTXRAY_VERSION}`);
    const requests = record.requests as Array<Record<string, unknown>>;
    expect(requests[0]).toMatchObject({ index: 0, line: 1, file: 0, format: 'openai-chat', model: 'gpt-4o', modelKnown: true });
    expect(requests[0]?.tokens).toMatchObject({ total: 8, exact: true, byCategory: { user: 1 }, overhead: { framing: 7, total: 7 } });
    // A Claude prompt under 30 tokens is estimated within ±20% held out, wider than the rest: it says so.
    expect(requests[2]).toMatchObject({ modelKnown: false, pricedAs: null, recorded: { prompt: 18 }, notes: ['claude_estimate', 'estimate_wide'], tokens: { band: 0.2 } });
    expect((requests[2]?.segments as Array<Record<string, unknown>>)[0]).toMatchObject({ path: 'messages[0].content[0]', cacheMarker: '1h', bytes: 42 });
    expect(record.errors).toEqual([{ file: 1, line: 2, message: 'line 2: not valid JSON (unexpected end of input)' }]);
  });

  it('never contains request text, tool names or file names', async () => {
    const json = JSON.stringify(buildRecord(await analyzeRead(syntheticRead(), ['/private/path/a.jsonl', 'b.jsonl'])));
    expect(json).not.toContain(SECRET);
    expect(json).not.toContain(TOOL_NAME);
    expect(json).not.toContain('hello');
    expect(json).not.toContain('/private/path');
  });

  it('takes an extra section with one more entry', async () => {
    const analysis = await analyzeRead(syntheticRead(), ['a', 'b']);
    const record = buildRecord(analysis, [...RECORD_SECTIONS, ['extra', (a) => ({ requests: a.requests.length })], ['absent', () => undefined]]);
    expect(record.extra).toEqual({ requests: 3 });
    expect('absent' in record).toBe(false);
  });

  it('keeps CTXRAY_VERSION in step with package.json', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(CTXRAY_VERSION).toBe(pkg.version);
  });
});
