// A body read under the wrong wire format keeps the other format's content fields (as `other` segments, so their
// tokens still count) and says so with fixed note codes. All bodies here are synthetic.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropic, chat, responses } from './helpers.ts';

const RESPONSES_BODY = { model: 'gpt-5', instructions: 'Be brief.', input: [{ role: 'user', content: 'hi' }] };
const codes = (notes: { code: string }[]) => notes.map((n) => n.code);

describe('content fields of another wire format', () => {
  it('anthropic on a Responses body: no messages, instructions and input kept as other at their paths', () => {
    const request = anthropic(RESPONSES_BODY);
    expect(codes(request.notes)).toEqual(expect.arrayContaining(['missing_message_array', 'foreign_fields', 'unknown_shapes']));
    const other = request.segments.filter((s) => s.category === 'other');
    expect(other.map((s) => [s.path, s.text])).toEqual([
      ['instructions', '"Be brief."'],
      ['input', '[{"role":"user","content":"hi"}]'],
    ]);
    expect(request.unknownShapes).toEqual([
      { path: 'instructions', shape: 'foreign:instructions' },
      { path: 'input', shape: 'foreign:input' },
    ]);
  });

  it('chat on an Anthropic body keeps the top-level system; responses on a Chat body keeps messages', () => {
    const fromChat = chat({ model: 'x', system: 'S', messages: [{ role: 'user', content: 'hi' }] });
    expect(codes(fromChat.notes)).toContain('foreign_fields');
    expect(codes(fromChat.notes)).not.toContain('missing_message_array');
    expect(fromChat.segments.find((s) => s.path === 'system')?.text).toBe('"S"');

    const fromResponses = responses({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(codes(fromResponses.notes)).toEqual(expect.arrayContaining(['missing_message_array', 'foreign_fields']));
    expect(fromResponses.segments.map((s) => [s.category, s.path])).toEqual([['other', 'messages']]);
  });

  it('a body of the right format gets neither note', () => {
    expect(codes(responses(RESPONSES_BODY).notes)).toEqual([]);
    expect(codes(anthropic({ model: 'claude-x', system: 'S', messages: [{ role: 'user', content: 'hi' }] }).notes)).toEqual([]);
    expect(codes(chat({ model: 'gpt-4o', functions: [], messages: [] }).notes)).toEqual([]);
  });

  it('a field that is null is not content and is not reported', () => {
    const request = anthropic({ model: 'claude-x', messages: [], input: null });
    expect(codes(request.notes)).toEqual([]);
  });
});

describe('ctxray analyze --format anthropic on the synthetic Responses example', () => {
  const repo = path.resolve(__dirname, '../..');
  const example = path.join(repo, 'examples/synthetic-openai-responses-session.jsonl');

  it('warns without -v, names the fields, and the JSON record carries the codes and the kept tokens', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-foreign-'));
    try {
      const out = path.join(dir, 'record.json');
      const result = spawnSync(process.execPath, [path.join(repo, 'bin/ctxray.mjs'), 'analyze', '--format', 'anthropic', example, '--json', out], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
        timeout: 60_000,
      });
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/warning: the body has no message list for its wire format .* \(6 requests, first #0 line 1\)/);
      expect(result.stdout).toMatch(/warning: the body has top-level content fields of another wire format.*Fields: instructions, input\./);
      const record = JSON.parse(fs.readFileSync(out, 'utf8')) as {
        requests: { notes: string[]; tokens: { byCategory: Record<string, number> } }[];
      };
      expect(record.requests).toHaveLength(6);
      for (const request of record.requests) {
        expect(request.notes).toEqual(expect.arrayContaining(['missing_message_array', 'foreign_fields']));
        expect(request.tokens.byCategory['other'] ?? 0).toBeGreaterThan(0);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
