// Cline / Roo Code / Kilo Code task folders: the real Cline 3.51 task (read in place from ../shared/fixtures/real)
// and synthetic Roo-style tasks worked out by hand.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRequests } from '../../src/core/input/index.ts';
import { clineRecorded } from '../../src/core/formats/cline-task.ts';

const enc = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const dir = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/cline');
const present = fs.existsSync(dir);

describe.skipIf(!present)(present ? 'Cline task folders (real, ../shared/fixtures/real)' : `Cline task folders: SKIPPED, ${dir} is absent`, () => {
  const tasks = present ? fs.readdirSync(dir) : [];
  for (const task of tasks) {
    it(`${task}: one request per api_req_started, recorded totals equal the UI log's own sums`, async () => {
      const names = fs.readdirSync(path.join(dir, task)).sort();
      const files = names.map((name) => ({ name: `${task}/${name}`, bytes: new Uint8Array(fs.readFileSync(path.join(dir, task, name))) }));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const ui = JSON.parse(fs.readFileSync(path.join(dir, task, 'ui_messages.json'), 'utf8')) as any[];
      const started = ui.filter((m) => m.say === 'api_req_started').map((m) => JSON.parse(m.text) as Record<string, number>);
      const result = await readRequests(files);
      expect(result.errors).toEqual([]);
      expect(result.files.every((f) => f.format === 'cline-task')).toBe(true);
      expect(result.requests).toHaveLength(started.length);
      const sum = (key: string) => started.reduce((acc, s) => acc + (s[key] ?? 0), 0);
      const got = (pick: (r: NonNullable<(typeof result.requests)[number]['recorded']>) => number) => result.requests.reduce((acc, r) => acc + pick(r.recorded!), 0);
      expect(got((r) => r.input)).toBe(sum('tokensIn'));
      expect(got((r) => r.output)).toBe(sum('tokensOut'));
      expect(got((r) => r.cacheRead)).toBe(sum('cacheReads'));
      expect(got((r) => r.cacheWrite5m)).toBe(sum('cacheWrites'));
      // Every request ends on the user turn it answers, and says what the task folder does not record.
      for (const r of result.requests) {
        expect(r.segments[r.segments.length - 1]!.role).toBe('user');
        expect(r.notes.map((n) => n.code)).toEqual(expect.arrayContaining(['transcript_missing_system', 'transcript_missing_tools']));
      }
    });
  }

  it('ui_messages.json alone is a usage-only log: every api_req_started a call with its recorded usage, no body', async () => {
    const task = 'exported_conversation_1769053680585';
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, task, 'ui_messages.json')));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const started = (JSON.parse(new TextDecoder().decode(bytes)) as any[]).filter((m) => m.say === 'api_req_started').map((m) => JSON.parse(m.text) as Record<string, number>);
    const result = await readRequests([{ name: `${task}/ui_messages.json`, bytes }]);
    expect(result.errors).toEqual([]);
    expect(result.requests).toHaveLength(started.length);
    const sum = (key: string) => started.reduce((acc, s) => acc + (s[key] ?? 0), 0);
    expect(result.requests.reduce((acc, r) => acc + r.recorded!.cacheRead, 0)).toBe(sum('cacheReads'));
    expect(result.requests.reduce((acc, r) => acc + r.recorded!.input, 0)).toBe(sum('tokensIn'));
    for (const r of result.requests) {
      expect(r.notes.map((n) => n.code)).toContain('usage_only');
      expect(r.segments.filter((s) => s.category !== 'other')).toEqual([]);
    }
    // With its history in the same read it is not usage-only, whatever the order.
    const history = new Uint8Array(fs.readFileSync(path.join(dir, task, 'api_conversation_history.json')));
    const both = await readRequests([{ name: `${task}/ui_messages.json`, bytes }, { name: `${task}/api_conversation_history.json`, bytes: history }]);
    expect(both.requests).toHaveLength(started.length);
    expect(both.requests.some((r) => r.notes.some((n) => n.code === 'usage_only'))).toBe(false);
  });

  it('the Cline 3.51 task: 47 calls on claude-sonnet-4-5, the n-th sending 2n − 1 messages', async () => {
    const task = 'exported_conversation_1769053680585';
    const files = ['api_conversation_history.json', 'ui_messages.json'].map((name) => ({ name: `${task}/${name}`, bytes: new Uint8Array(fs.readFileSync(path.join(dir, task, name))) }));
    const result = await readRequests(files);
    expect(result.requests).toHaveLength(47);
    expect(result.requests.slice(0, 4).map((r) => r.messageCount)).toEqual([1, 3, 5, 7]);
    expect(new Set(result.requests.map((r) => r.model))).toEqual(new Set(['claude-sonnet-4-5-20250929']));
    expect(result.requests[0]!.recorded).toEqual({ input: 10, cacheRead: 0, cacheWrite5m: 9573, cacheWrite1h: 0, output: 595 });
  });
});

describe('Cline-format task folders (synthetic)', () => {
  const text = (t: string) => [{ type: 'text', text: t }];
  const started = (ts: number, usage: object, extra: object = {}) => ({ ts, type: 'say', say: 'api_req_started', text: JSON.stringify({ request: 'synthetic', ...usage }), ...extra });

  it('Roo-style (no history index): each request is the history before the answer written after it, condensed messages leave later requests', async () => {
    const history = [
      { role: 'user', content: text('task'), ts: 100 },
      { role: 'assistant', content: text('step 1'), ts: 150 },
      { role: 'user', content: text('result 1'), ts: 160, condenseParent: 'c1' },
      { role: 'assistant', content: text('step 2'), ts: 250, condenseParent: 'c1' },
      { role: 'user', content: text('summary of the work so far'), ts: 300, isSummary: true, condenseId: 'c1' },
      { role: 'assistant', content: text('step 3'), ts: 350 },
    ];
    const ui = [
      started(110, { tokensIn: 100, tokensOut: 5, cacheWrites: 0, cacheReads: 0, apiProtocol: 'anthropic' }),
      started(200, { tokensIn: 50, tokensOut: 6, cacheWrites: 10, cacheReads: 90, apiProtocol: 'anthropic' }),
      { ts: 290, type: 'say', say: 'condense_context' },
      started(310, { tokensIn: 400, tokensOut: 7, cacheWrites: 0, cacheReads: 300, apiProtocol: 'openai' }),
    ];
    const result = await readRequests([
      { name: 'tasks/t1/ui_messages.json', bytes: enc(ui) },
      { name: 'tasks/t1/api_conversation_history.json', bytes: enc(history) },
    ]);
    expect(result.errors).toEqual([]);
    // [task]; [task, step 1, result 1]; after the condense: [task, step 1, summary].
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 3, 3]);
    expect(result.requests.map((r) => r.recorded)).toEqual([
      { input: 100, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 5 },
      { input: 50, cacheRead: 90, cacheWrite5m: 10, cacheWrite1h: 0, output: 6 },
      { input: 100, cacheRead: 300, cacheWrite5m: 0, cacheWrite1h: 0, output: 7 },
    ]);
    // The requests are built when the second part is read, so they belong to it.
    expect(result.files.map((f) => f.requests)).toEqual([0, 3]);
  });

  it('Cline: the history index and the truncation range in force pick the messages sent', async () => {
    const history = Array.from({ length: 7 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: text(`m${i}`) }));
    const ui = [
      started(1, { tokensIn: 1, tokensOut: 1 }, { conversationHistoryIndex: -1 }),
      started(2, { tokensIn: 1, tokensOut: 1 }, { conversationHistoryIndex: 1 }),
      started(3, { tokensIn: 1, tokensOut: 1 }, { conversationHistoryIndex: 3 }),
      // Cline truncated messages 1–2 while setting this request up; the range is stamped on the next entries.
      { ts: 4, type: 'say', say: 'text', text: 'synthetic', conversationHistoryIndex: 3, conversationHistoryDeletedRange: [1, 2] },
      started(5, { tokensIn: 1, tokensOut: 1 }, { conversationHistoryIndex: 5 }),
    ];
    const result = await readRequests([
      { name: 't/api_conversation_history.json', bytes: enc(history) },
      { name: 't/ui_messages.json', bytes: enc(ui) },
    ]);
    expect(result.errors).toEqual([]);
    // history[0..0], [0..2], then [0..4] and [0..6] without 1–2 (the range set while the third was set up stays).
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 3, 3, 5]);
  });

  it('reports a task file without its partner, a broken api_req_started, and reads a task_metadata.json as nothing', async () => {
    const alone = await readRequests([{ name: 't/api_conversation_history.json', bytes: enc([{ role: 'user', content: text('x') }]) }]);
    expect(alone.requests).toEqual([]);
    expect(alone.errors.map((e) => e.message)).toEqual([expect.stringContaining('without its ui_messages.json beside it')]);
    expect(alone.files[0]!.errors).toBe(1);
    const broken = await readRequests([
      { name: 't/api_conversation_history.json', bytes: enc([{ role: 'user', content: text('x') }, 'not a message']) },
      { name: 't/task_metadata.json', bytes: enc({ files_in_context: [], model_usage: [] }) },
      { name: 't/ui_messages.json', bytes: enc([{ ts: 1, type: 'say', say: 'api_req_started', text: '{not json' }]) },
    ]);
    expect(broken.requests).toEqual([]);
    expect(broken.errors.map((e) => [e.file, e.message])).toEqual([
      [2, 'ui_messages.json record 1: api_req_started whose "text" is not a JSON object'],
      [2, 'api_conversation_history.json record 2 is not a user or assistant message'],
    ]);
    expect(broken.files[1]).toMatchObject({ format: 'cline-task', requests: 0, errors: 0 });
  });

  it('reads the recorded usage of one entry; a call that recorded none has none', () => {
    expect(clineRecorded({ tokensIn: 12, tokensOut: 3, cacheWrites: 40, cacheReads: 900, cost: 0.01 })).toEqual({ input: 12, cacheRead: 900, cacheWrite5m: 40, cacheWrite1h: 0, output: 3 });
    expect(clineRecorded({ request: 'x', cancelReason: 'user_cancelled' })).toBeNull();
  });
});
