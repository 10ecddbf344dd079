// opencode's storage folder, read from a SYNTHETIC storage written in a temporary folder (opencode-synthetic.ts,
// shaped as opencode's source writes it; every figure made up) and worked out by hand at the table's prices:
//   ses_synthA, claude-sonnet-4-5 ($3 input, $3.75 5-minute write, $0.30 read, $15 output per MTok):
//     call 1: 1,000 in, 4,000 write, 200 out → 3,000 + 15,000 + 3,000 = $0.021
//     call 2: 50 in, 5,000 read, 500 write, 300 out → 150 + 1,500 + 1,875 + 4,500 = $0.008025
//   ses_synthB, gemini-2.5-flash ($0.30 input, $0.03 cached, $2.50 output per MTok), a reasoning model:
//     call 1: 2,000 in, 1,000 read, 100 out + 400 reasoning → 600 + 30 + 1,250 = $0.00188
//     call 2 aborted before any usage (all zeros): no call; message 4 cut short: one located error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { readRequests } from '../../src/core/input/index.ts';
import { sessionGroups } from '../../src/core/folder/groups.ts';
import { sessionParts, sessionTableOf } from '../../src/core/transcripts/sessions.ts';
import { opencodeKind } from '../../src/core/formats/opencode-storage.ts';
import { writeSyntheticStorage } from './opencode-synthetic.ts';

const enc = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

let root: string;
let files: string[];

function listed(dir: string, under = ''): string[] {
  return fs.readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const rel = under === '' ? entry.name : `${under}/${entry.name}`;
    return entry.isDirectory() ? listed(dir, rel) : [rel];
  });
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxray-opencode-synthetic-'));
  writeSyntheticStorage(root);
  files = listed(root).sort();
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const input = (rel: string) => ({ name: path.join(root, rel), folderPath: rel, bytes: new Uint8Array(fs.readFileSync(path.join(root, rel))) });

describe('opencode storage (synthetic)', () => {
  it('groups each session with its message files, its session file first, and leaves the parts out', () => {
    const groups = sessionGroups(files, () => null).map((group) => group.map((i) => files[i]));
    expect(groups).toEqual([
      ['session/4f1a0000000000000000000000000000000000aa/ses_synthA.json', 'message/ses_synthA/msg_synthA1.json', 'message/ses_synthA/msg_synthA2.json', 'message/ses_synthA/msg_synthA3.json'],
      ['session/global/ses_synthB.json', 'message/ses_synthB/msg_synthB1.json', 'message/ses_synthB/msg_synthB2.json', 'message/ses_synthB/msg_synthB3.json', 'message/ses_synthB/msg_synthB4.json'],
    ]);
    expect(opencodeKind('storage/part/msg_a/prt_b.json')).toBe('part');
    // The layout before opencode's first storage migration.
    expect(opencodeKind('project/x/storage/session/message/ses_a/msg_b.json')).toBe('message');
    expect(opencodeKind('project/x/storage/session/part/ses_a/msg_b/prt_c.json')).toBe('part');
    expect(opencodeKind('project/x/storage/session/info/ses_a.json')).toBe('session');
    expect(opencodeKind('notes/ses_a.json')).toBeNull();
  });

  it('each assistant message with usage is one usage-only call: recorded figures, model, time, session', async () => {
    const group = sessionGroups(files, () => null)[1]!.map((i) => input(files[i]!));
    const read = await readRequests(group);
    expect(read.requests).toHaveLength(1);
    const [call] = read.requests;
    expect(call!.recorded).toEqual({ input: 2000, cacheRead: 1000, cacheWrite5m: 0, cacheWrite1h: 0, output: 500 });
    expect(call!.model).toBe('gemini-2.5-flash');
    expect(call!.timestamp).toBe(Date.UTC(2026, 10, 20, 10, 0, 1));
    expect(call!.notes.map((n) => n.code)).toContain('usage_only');
    expect(call!.segments.filter((s) => s.category !== 'other')).toEqual([]);
    // The cut message file: one located error (the JSON's own), nothing invented from it.
    expect(read.errors).toHaveLength(1);
    expect(read.errors[0]!.file).toBe(group.findIndex((f) => f.folderPath.endsWith('msg_synthB4.json')));
    expect(read.errors[0]!.message).toMatch(/invalid JSON/);
    expect(read.files.map((f) => f.session?.sessionId)).toEqual(['ses_synthB', 'ses_synthB', 'ses_synthB', 'ses_synthB', undefined]);
  });

  it('the sessions give one row each, with the hand-worked totals and the project from the session file', async () => {
    const parts = [];
    for (const group of sessionGroups(files, () => null)) {
      const analysis = await analyzeInput(group.map((i) => input(files[i]!)));
      parts.push(...sessionParts(analysis, null));
    }
    const table = sessionTableOf(parts);
    expect(table.sessions.map((row) => [row.file, row.project, row.requests, row.subagents.requests])).toEqual([
      ['session/4f1a0000000000000000000000000000000000aa/ses_synthA.json', '4f1a0000000000000000000000000000000000aa', 2, 0],
      ['session/global/ses_synthB.json', 'global', 1, 0],
    ]);
    const [a, b] = table.sessions;
    expect(a!.recorded).toEqual({ input: 1050, output: 500, cacheRead: 5000, cacheWrite5m: 4500, cacheWrite1h: 0 });
    expect(a!.cost).toBeCloseTo(0.029025, 9);
    expect(b!.recorded).toEqual({ input: 2000, output: 500, cacheRead: 1000, cacheWrite5m: 0, cacheWrite1h: 0 });
    expect(b!.cost).toBeCloseTo(0.00188, 9);
    expect(a!.start).toBe('2026-11-20T09:00:01.000Z');
  });

  it('refuses other shapes with a located message', async () => {
    const bad = await readRequests([
      { name: 'storage/message/ses_x/msg_1.json', bytes: enc({ id: 'msg_1', sessionID: 'ses_x', role: 'assistant', modelID: 'gpt-5', tokens: { input: 10, output: -1, reasoning: 0, cache: { read: 0, write: 0 } }, time: { created: 1 } }) },
      { name: 'storage/message/ses_x/msg_2.json', bytes: enc({ id: 'msg_2', sessionID: 'ses_x', role: 'assistant', modelID: 'gpt-5', time: { created: 1 } }) },
      { name: 'storage/message/ses_x/msg_3.json', bytes: enc([{ id: 'msg_3' }, { id: 'msg_4' }]) },
      { name: 'storage/session/p/ses_x.json', bytes: enc({ title: 'no id' }) },
    ]);
    expect(bad.requests).toEqual([]);
    expect(bad.errors.map((e) => [e.file, e.line, e.message])).toEqual([
      [0, 1, 'opencode storage file assistant message: tokens.output is -1, not a whole number of tokens'],
      [1, 1, 'opencode storage file assistant message: no "tokens" object'],
      [2, 1, 'opencode storage file holds 2 records; opencode writes one JSON object per file'],
      [3, 1, 'opencode storage file is not an opencode session (an object with id "ses_…" and time)'],
    ]);
  });

  it('a message file under another name is claimed by its shape', async () => {
    const message = { id: 'msg_9', sessionID: 'ses_9', role: 'assistant', modelID: 'claude-sonnet-4-5-20250929', providerID: 'anthropic', time: { created: 5 }, tokens: { input: 7, output: 3, reasoning: 0, cache: { read: 0, write: 0 } } };
    const read = await readRequests([{ name: 'copied.json', bytes: enc(message) }]);
    expect(read.files[0]!.format).toBe('opencode-storage');
    expect(read.requests.map((r) => r.recorded)).toEqual([{ input: 7, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 3 }]);
  });
});
