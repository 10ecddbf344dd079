// Transcript importers on hand-made sessions whose request count, contexts and usage are worked out by hand.
import { describe, expect, it } from 'vitest';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import { readRequests } from '../../src/core/input/index.ts';

const jsonl = (lines: unknown[]) => new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
const read = (name: string, lines: unknown[]) => readRequests([{ name, bytes: jsonl(lines) }]);

describe('Claude Code transcripts', () => {
  const base = { sessionId: 's1', isSidechain: false, version: '2.1.0', parentUuid: null, uuid: 'u' };
  const user = (content: unknown, timestamp: string) => ({ ...base, type: 'user', timestamp, message: { role: 'user', content } });
  const assistant = (id: string, content: unknown[], output: number, timestamp: string, model = 'claude-opus-4-6') => ({
    ...base,
    type: 'assistant',
    timestamp,
    message: { id, model, role: 'assistant', content, usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 20 }, output_tokens: output } },
  });
  const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: `/tmp/${id}` } });
  const toolResult = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: `contents of ${id}` }];

  it('merges one response written over several lines, even around tool results, and counts it once', async () => {
    const result = await read('session.jsonl', [
      { type: 'file-history-snapshot', messageId: 'x', snapshot: {} },
      user('read two files', '2026-01-01T00:00:00.000Z'),
      assistant('msg_A', [toolUse('t1')], 1, '2026-01-01T00:00:02.000Z'),
      user(toolResult('t1'), '2026-01-01T00:00:03.000Z'),
      assistant('msg_A', [toolUse('t2')], 42, '2026-01-01T00:00:04.000Z'),
      user(toolResult('t2'), '2026-01-01T00:00:05.000Z'),
      assistant('msg_B', [{ type: 'text', text: 'done' }], 7, '2026-01-01T00:00:09.000Z'),
      assistant('msg_err', [{ type: 'text', text: 'API Error' }], 0, '2026-01-01T00:00:10.000Z', '<synthetic>'),
    ]);
    expect(result.files[0]?.format).toBe('claude-code');
    expect(result.requests).toHaveLength(2);
    const [first, second] = result.requests;
    expect(first!.messageCount).toBe(1);
    // The final output_tokens is on the response's last line.
    expect(first!.recorded).toEqual({ input: 3, cacheRead: 100, cacheWrite5m: 0, cacheWrite1h: 20, output: 42 });
    expect(first!.timestamp).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(second!.messageCount).toBe(3);
    expect(second!.segments.map((s) => s.category)).toEqual(['user', 'tool_call', 'tool_call', 'tool_result', 'tool_result']);
    expect(second!.timestamp).toBe(Date.parse('2026-01-01T00:00:05.000Z'));
    expect(second!.notes.map((n) => n.code)).toEqual(expect.arrayContaining(['transcript_missing_system', 'transcript_missing_tools']));
  });

  it('starts the history afresh at a compaction boundary', async () => {
    const result = await read('session.jsonl', [
      user('first task', '2026-01-01T00:00:00.000Z'),
      assistant('msg_1', [{ type: 'text', text: 'ok' }], 1, '2026-01-01T00:00:01.000Z'),
      { ...base, type: 'system', subtype: 'compact_boundary', timestamp: '2026-01-01T00:01:00.000Z' },
      user('summary of the conversation so far', '2026-01-01T00:01:01.000Z'),
      assistant('msg_2', [{ type: 'text', text: 'continuing' }], 1, '2026-01-01T00:01:02.000Z'),
      user('next', '2026-01-01T00:01:03.000Z'),
      assistant('msg_3', [{ type: 'text', text: 'ok' }], 1, '2026-01-01T00:01:04.000Z'),
    ]);
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 1, 3]);
    // The call after the boundary carries the record, and only that one.
    expect(result.requests.map((r) => r.notes.some((n) => n.code === 'transcript_compacted'))).toEqual([false, true, false]);
  });

  it('a compact summary without a boundary before it also starts afresh, as one compaction', async () => {
    const result = await read('session.jsonl', [
      user('first task', '2026-01-01T00:00:00.000Z'),
      assistant('msg_1', [{ type: 'text', text: 'ok' }], 1, '2026-01-01T00:00:01.000Z'),
      { ...user('summary of the conversation so far', '2026-01-01T00:01:01.000Z'), isCompactSummary: true },
      assistant('msg_2', [{ type: 'text', text: 'continuing' }], 1, '2026-01-01T00:01:02.000Z'),
      { ...base, type: 'system', subtype: 'compact_boundary', timestamp: '2026-01-01T00:02:00.000Z' },
      { ...user('a second summary', '2026-01-01T00:02:01.000Z'), isCompactSummary: true },
      assistant('msg_3', [{ type: 'text', text: 'again' }], 1, '2026-01-01T00:02:02.000Z'),
    ]);
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 1, 1]);
    expect(result.requests.map((r) => r.notes.filter((n) => n.code === 'transcript_compacted').length)).toEqual([0, 1, 1]);
  });

  it('skips every metadata record by type, even when the head of the file holds nothing else', async () => {
    // As Claude Code 2.1 writes a resumed session: summaries and snapshots first (more than the detection head).
    const summaries = Array.from({ length: 10 }, (_, i) => ({ type: 'summary', summary: `synthetic title ${i}`, leafUuid: `leaf-${i}` }));
    const result = await read('resumed.jsonl', [
      ...summaries,
      { type: 'file-history-snapshot', messageId: 'm0', snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false },
      { type: 'custom-title', customTitle: 'synthetic', sessionId: 's1' },
      { type: 'queue-operation', operation: 'dequeue', timestamp: '2026-01-01T00:00:00.000Z', sessionId: 's1' },
      user('do it', '2026-01-01T00:00:00.000Z'),
      { ...base, type: 'progress', data: { type: 'hook_progress', hookEvent: 'PreToolUse' }, parentToolUseID: 't1', toolUseID: 't1' },
      assistant('msg_1', [toolUse('t1')], 5, '2026-01-01T00:00:01.000Z'),
      user(toolResult('t1'), '2026-01-01T00:00:02.000Z'),
      { ...base, type: 'system', subtype: 'stop_hook_summary', hookCount: 1, hookInfos: [], preventedContinuation: false },
      { ...base, type: 'system', subtype: 'turn_duration', durationMs: 1000 },
      { ...base, type: 'attachment', attachment: { type: 'file', filename: 'x' } },
      { ...base, type: 'some-type-of-a-later-version', payload: {} },
      assistant('msg_2', [{ type: 'text', text: 'done' }], 9, '2026-01-01T00:00:03.000Z'),
    ]);
    expect(result.errors).toEqual([]);
    expect(result.files[0]).toMatchObject({ format: 'claude-code', requests: 2 });
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 3]);
    expect(result.requests.map((r) => r.recorded?.output)).toEqual([5, 9]);
  });

  it('says so when a Claude Code file holds only metadata (no API call to rebuild)', async () => {
    const result = await read('summaries.jsonl', [
      { type: 'summary', summary: 'synthetic', leafUuid: 'a' },
      { type: 'summary', summary: 'synthetic', leafUuid: 'b' },
    ]);
    expect(result.files[0]).toMatchObject({ format: 'claude-code', requests: 0, errors: 1 });
    expect(result.errors[0]!.message).toMatch(/no user or assistant lines/);
  });

  it('keeps sidechain lines in the main file out of the main history', async () => {
    const side = (line: object) => ({ ...line, isSidechain: true });
    const result = await read('session.jsonl', [
      user('main task', '2026-01-01T00:00:00.000Z'),
      assistant('msg_1', [{ type: 'tool_use', id: 't1', name: 'Task', input: { prompt: 'look around' } }], 1, '2026-01-01T00:00:01.000Z'),
      side(user('look around', '2026-01-01T00:00:02.000Z')),
      side(assistant('msg_s1', [{ type: 'text', text: 'found it' }], 2, '2026-01-01T00:00:03.000Z')),
      user(toolResult('t1'), '2026-01-01T00:00:04.000Z'),
      assistant('msg_2', [{ type: 'text', text: 'done' }], 3, '2026-01-01T00:00:05.000Z'),
    ]);
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 1, 3]);
    expect(result.files[0]!.session?.agentId).toBeNull();
  });

  it('makes each inline sidechain (1.0.x: no agentId, a parentUuid chain) its own conversation, interleaved or not', async () => {
    // Two Task subagents run in parallel: their lines interleave, each chain starting at a line with no parent.
    const line = (uuid: string, parentUuid: string | null, extra: object) => ({ ...extra, uuid, parentUuid, isSidechain: true });
    const result = await read('session.jsonl', [
      { ...user('main task', '2026-01-01T00:00:00.000Z'), uuid: 'm1' },
      { ...assistant('msg_1', [toolUse('task1'), toolUse('task2')], 1, '2026-01-01T00:00:01.000Z'), uuid: 'm2', parentUuid: 'm1' },
      line('a1', null, user('first subagent prompt', '2026-01-01T00:00:02.000Z')),
      line('b1', null, user('second subagent prompt', '2026-01-01T00:00:02.100Z')),
      line('a2', 'a1', assistant('msg_a1', [toolUse('ta')], 2, '2026-01-01T00:00:03.000Z')),
      line('b2', 'b1', assistant('msg_b1', [toolUse('tb')], 2, '2026-01-01T00:00:03.100Z')),
      line('a3', 'a2', user(toolResult('ta'), '2026-01-01T00:00:04.000Z')),
      line('b3', 'b2', user(toolResult('tb'), '2026-01-01T00:00:04.100Z')),
      line('a4', 'a3', assistant('msg_a2', [{ type: 'text', text: 'a done' }], 3, '2026-01-01T00:00:05.000Z')),
      line('b4', 'b3', assistant('msg_b2', [{ type: 'text', text: 'b done' }], 3, '2026-01-01T00:00:05.100Z')),
      { ...user([...toolResult('task1'), ...toolResult('task2')], '2026-01-01T00:00:06.000Z'), uuid: 'm3', parentUuid: 'm2' },
      { ...assistant('msg_2', [{ type: 'text', text: 'done' }], 3, '2026-01-01T00:00:07.000Z'), uuid: 'm4', parentUuid: 'm3' },
    ]);
    // msg_1: [user]; msg_a1: [a prompt]; msg_b1: [b prompt]; msg_a2: [a prompt, a tool_use, a result] (3 messages,
    // nothing of b's); msg_b2 likewise; msg_2: [user, assistant, results].
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 1, 1, 3, 3, 3]);
    expect(result.requests.map((r) => r.thread ?? 0)).toEqual([0, 1, 2, 1, 2, 0]);
    const texts = result.requests.map((r) => r.segments.map((s) => s.wire).join(''));
    expect(texts[3]).toContain('first subagent prompt');
    expect(texts[3]).not.toContain('second subagent prompt');
    expect(texts[4]).not.toContain('first subagent prompt');
  });

  it('prices Bedrock and Vertex model ids in a session as the models they name', async () => {
    const lines = [
      user('a', '2026-01-01T00:00:00.000Z'),
      assistant('msg_1', [{ type: 'text', text: 'b' }], 1, '2026-01-01T00:00:01.000Z', 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'),
      user('c', '2026-01-01T00:00:02.000Z'),
      assistant('msg_2', [{ type: 'text', text: 'd' }], 1, '2026-01-01T00:00:03.000Z', 'claude-sonnet-4-5@20250929'),
    ];
    const analysis = await analyzeInput([{ name: 'session.jsonl', bytes: jsonl(lines) }]);
    expect(analysis.models.map((m) => [m.pricing?.id, m.via])).toEqual([
      ['claude-sonnet-4-5', 'bedrock'],
      ['claude-sonnet-4-5', 'vertex'],
    ]);
  });

  it('links a subagent file to the Task call of its parent session that started it', async () => {
    const agentLine = (line: object) => ({ ...line, isSidechain: true, agentId: 'a1b2c3', sessionId: 's1' });
    const parent = [
      user('main task', '2026-01-01T00:00:00.000Z'),
      assistant('msg_1', [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'look around' } }], 1, '2026-01-01T00:00:01.000Z'),
      { ...user(toolResult('toolu_task'), '2026-01-01T00:00:09.000Z'), toolUseResult: { status: 'completed', agentId: 'a1b2c3', content: [] } },
      assistant('msg_2', [{ type: 'text', text: 'done' }], 3, '2026-01-01T00:00:10.000Z'),
    ];
    const subagent = [agentLine(user('look around', '2026-01-01T00:00:02.000Z')), agentLine(assistant('msg_s1', [{ type: 'text', text: 'found' }], 2, '2026-01-01T00:00:03.000Z'))];
    const result = await readRequests([
      { name: 's1.jsonl', bytes: jsonl(parent) },
      { name: 's1/subagents/agent-a1b2c3.jsonl', bytes: jsonl(subagent) },
    ]);
    expect(result.errors).toEqual([]);
    expect(result.files.map((f) => f.requests)).toEqual([2, 1]);
    expect(result.files[0]!.session).toMatchObject({ sessionId: 's1', agentId: null, subagentTasks: { a1b2c3: 'toolu_task' } });
    expect(result.files[1]!.session).toMatchObject({ sessionId: 's1', agentId: 'a1b2c3', startedBy: 'toolu_task' });
  });

  it('links through agent_progress records too, and leaves a subagent unlinked when its parent is not read', async () => {
    const agentLine = (line: object) => ({ ...line, isSidechain: true, agentId: 'ff00', sessionId: 's1' });
    const parent = [
      user('main task', '2026-01-01T00:00:00.000Z'),
      { ...base, type: 'progress', data: { type: 'agent_progress', agentId: 'ff00', prompt: 'p' }, parentToolUseID: 'toolu_9', toolUseID: 'x' },
      assistant('msg_1', [{ type: 'text', text: 'done' }], 1, '2026-01-01T00:00:01.000Z'),
    ];
    const subagent = [agentLine(user('p', '2026-01-01T00:00:02.000Z')), agentLine(assistant('msg_s', [{ type: 'text', text: 'x' }], 2, '2026-01-01T00:00:03.000Z'))];
    const both = await readRequests([
      { name: 's1.jsonl', bytes: jsonl(parent) },
      { name: 'agent-ff00.jsonl', bytes: jsonl(subagent) },
    ]);
    expect(both.files[1]!.session?.startedBy).toBe('toolu_9');
    const alone = await readRequests([{ name: 'agent-ff00.jsonl', bytes: jsonl(subagent) }]);
    expect(alone.files[0]!.session).toMatchObject({ agentId: 'ff00', startedBy: null });
  });
});

describe('Codex rollouts', () => {
  const line = (type: string, payload: unknown, timestamp: string) => ({ timestamp, type, payload });
  const tokens = (input: number, cached: number, output: number, t: string) =>
    line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output } } }, t);

  it('turns changed running totals into one request each, and ignores repeated snapshots', async () => {
    const result = await read('rollout-2026-01-01T00-00-00-abc.jsonl', [
      line('session_meta', { id: 'x', base_instructions: { text: 'You are Codex.' } }, '2026-01-01T00:00:00.000Z'),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the bug' }] }, '2026-01-01T00:00:01.000Z'),
      line('turn_context', { model: 'gpt-5.3-codex' }, '2026-01-01T00:00:01.500Z'),
      line('event_msg', { type: 'token_count', info: null }, '2026-01-01T00:00:01.600Z'),
      line('response_item', { type: 'reasoning', summary: [], encrypted_content: 'gAAA' }, '2026-01-01T00:00:03.000Z'),
      line('response_item', { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"cmd":"ls"}' }, '2026-01-01T00:00:03.100Z'),
      tokens(100, 20, 5, '2026-01-01T00:00:03.200Z'),
      line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'a.txt' }, '2026-01-01T00:00:03.300Z'),
      tokens(100, 20, 5, '2026-01-01T00:00:03.400Z'),
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }, '2026-01-01T00:00:05.000Z'),
      tokens(250, 80, 12, '2026-01-01T00:00:05.100Z'),
    ]);
    expect(result.files[0]?.format).toBe('codex-rollout');
    expect(result.requests).toHaveLength(2);
    const [first, second] = result.requests;
    expect(first!.format).toBe('openai-responses');
    expect(first!.model).toBe('gpt-5.3-codex');
    expect(first!.messageCount).toBe(1);
    expect(first!.recorded).toEqual({ input: 80, cacheRead: 20, cacheWrite5m: 0, cacheWrite1h: 0, output: 5 });
    expect(second!.messageCount).toBe(4);
    // Second call: (250 − 100) prompt tokens of which (80 − 20) cached; 12 − 5 output.
    expect(second!.recorded).toEqual({ input: 90, cacheRead: 60, cacheWrite5m: 0, cacheWrite1h: 0, output: 7 });
    expect(second!.timestamp).toBe(Date.parse('2026-01-01T00:00:03.300Z'));
    expect(second!.segments[0]?.category).toBe('system');
    expect(second!.notes.map((n) => n.code)).not.toContain('transcript_missing_system');
  });

  it('marks the call after a compacted line, which replaces the history', async () => {
    const result = await read('rollout-2026-01-01T00-00-00-abc.jsonl', [
      line('turn_context', { model: 'gpt-5.3-codex' }, '2026-01-01T00:00:00.000Z'),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] }, '2026-01-01T00:00:01.000Z'),
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] }, '2026-01-01T00:00:02.000Z'),
      tokens(100, 0, 5, '2026-01-01T00:00:02.100Z'),
      line('compacted', { message: 'synthetic summary' }, '2026-01-01T00:00:03.000Z'),
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'b' }] }, '2026-01-01T00:00:04.000Z'),
      tokens(150, 0, 8, '2026-01-01T00:00:04.100Z'),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'two' }] }, '2026-01-01T00:00:05.000Z'),
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'c' }] }, '2026-01-01T00:00:06.000Z'),
      tokens(220, 0, 9, '2026-01-01T00:00:06.100Z'),
    ]);
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 1, 3]);
    expect(result.requests.map((r) => r.notes.some((n) => n.code === 'transcript_compacted'))).toEqual([false, true, false]);
  });

  it('uses recorded base_instructions as the system prompt, and says the system prompt is missing when none is recorded', async () => {
    const turn = (meta: object) => [
      line('session_meta', { id: 'x', cli_version: '0.30.0', ...meta }, '2026-01-01T00:00:00.000Z'),
      line('turn_context', { model: 'gpt-5-codex' }, '2026-01-01T00:00:00.500Z'),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, '2026-01-01T00:00:01.000Z'),
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] }, '2026-01-01T00:00:02.000Z'),
      tokens(50, 0, 2, '2026-01-01T00:00:02.100Z'),
    ];
    const recorded = await read('rollout-a.jsonl', turn({ base_instructions: { text: 'You are a synthetic coding agent.' } }));
    const [withSystem] = recorded.requests;
    expect(withSystem!.segments.map((s) => s.category)).toEqual(['system', 'user']);
    expect(withSystem!.notes.map((n) => n.code)).toEqual(['transcript_missing_tools']);
    for (const meta of [{}, { base_instructions: null }, { base_instructions: { text: null } }]) {
      const older = await read('rollout-b.jsonl', turn(meta));
      const [request] = older.requests;
      expect(request!.segments.map((s) => s.category)).toEqual(['user']);
      expect(request!.notes.map((n) => n.code)).toEqual(['transcript_missing_system', 'transcript_missing_tools']);
    }
  });
});

describe('Codex rollouts as other codex-rs versions write them (SYNTHETIC, in the shapes of codex-rs protocol.rs / core/src/codex.rs)', () => {
  const line = (type: string, payload: unknown, timestamp: string) => ({ timestamp, type, payload });
  const usage = (input: number, cached: number, output: number) => ({ input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output });
  // TokenUsageInfo: total_token_usage is the running sum of every last_token_usage.
  const count = (last: number[], total: number[], t: string) =>
    line('event_msg', { type: 'token_count', info: { total_token_usage: usage(total[0]!, total[1]!, total[2]!), last_token_usage: usage(last[0]!, last[1]!, last[2]!), model_context_window: 258400 }, rate_limits: null }, t);
  const say = (role: string, text: string, t: string) => line('response_item', { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] }, t);
  const meta = (id: string, t: string, extra: object = {}) => line('session_meta', { id, timestamp: t, cwd: '/p', originator: 'codex_cli_rs', cli_version: '0.130.0', source: 'cli', ...extra }, t);
  // The parent: two calls (1000 prompt / 40 out, then 1200 prompt of which 960 cached / 30 out).
  const parentLines = [
    meta('parent', '2026-03-01T09:00:00.000Z'),
    line('turn_context', { model: 'gpt-5.2-codex' }, '2026-03-01T09:00:01.000Z'),
    say('user', 'fix it', '2026-03-01T09:00:01.100Z'),
    line('response_item', { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{}' }, '2026-03-01T09:00:03.000Z'),
    count([1000, 0, 40], [1000, 0, 40], '2026-03-01T09:00:03.100Z'),
    line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'ok' }, '2026-03-01T09:00:04.000Z'),
    say('assistant', 'fixed', '2026-03-01T09:00:06.000Z'),
    count([1200, 960, 30], [2200, 960, 70], '2026-03-01T09:00:06.100Z'),
  ];
  // The fork's own call: 1300 prompt of which 1152 cached, 25 out; its running total goes on from the parent's.
  const ownCall = [
    line('turn_context', { model: 'gpt-5.2-codex' }, '2026-03-02T15:00:30.000Z'),
    say('user', 'now a test', '2026-03-02T15:00:30.100Z'),
    say('assistant', 'added', '2026-03-02T15:00:33.000Z'),
    count([1300, 1152, 25], [3500, 2112, 95], '2026-03-02T15:00:33.100Z'),
  ];
  const forkMeta = meta('child', '2026-03-02T15:00:00.000Z', { forked_from_id: 'parent' });

  it('a fork counts only its own calls: the parent\'s copied token counts, times rewritten to the fork or kept, are no calls of it', async () => {
    const rewritten = parentLines.map((l, i) => ({ ...l, timestamp: `2026-03-02T15:00:00.${String(i + 1).padStart(3, '0')}Z` }));
    for (const copied of [rewritten, parentLines]) {
      const result = await read('rollout-2026-03-02T15-00-00-child.jsonl', [forkMeta, ...copied, ...ownCall]);
      expect(result.errors).toEqual([]);
      expect(result.requests.map((r) => r.recorded)).toEqual([{ input: 148, cacheRead: 1152, cacheWrite5m: 0, cacheWrite1h: 0, output: 25 }]);
      // Its request is the copied history and its own turn: fix it, call, output, fixed, now a test.
      expect(result.requests[0]!.messageCount).toBe(5);
    }
    // Read with the parent, every call is counted once: the parent's two and the fork's one.
    const both = await readRequests([
      { name: 'rollout-2026-03-01T09-00-00-parent.jsonl', bytes: jsonl(parentLines) },
      { name: 'rollout-2026-03-02T15-00-00-child.jsonl', bytes: jsonl([forkMeta, ...rewritten, ...ownCall]) },
    ]);
    expect(both.requests.map((r) => r.recorded?.output)).toEqual([40, 30, 25]);
  });

  it('a subagent spawned with its parent\'s meta but no copied token counts keeps its first call', async () => {
    const result = await read('rollout-2026-03-03T10-00-00-sub.jsonl', [
      meta('sub', '2026-03-03T10:00:00.000Z', { forked_from_id: 'parent', thread_source: 'subagent' }),
      { ...parentLines[0], timestamp: '2026-03-03T10:00:00.005Z' },
      line('turn_context', { model: 'gpt-5.2-codex' }, '2026-03-03T10:00:00.020Z'),
      say('user', 'review', '2026-03-03T10:00:00.030Z'),
      say('assistant', 'fine', '2026-03-03T10:00:02.400Z'),
      count([900, 0, 12], [900, 0, 12], '2026-03-03T10:00:02.500Z'),
    ]);
    expect(result.requests.map((r) => r.recorded)).toEqual([{ input: 900, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 12 }]);
  });

  it('a running total that starts again takes the call\'s last_token_usage (the difference would be negative)', async () => {
    const result = await read('rollout-2026-03-01T09-00-00-parent.jsonl', [
      ...parentLines,
      // Resumed into the same file without the usage carried over: the total restarts at this call.
      say('user', 'again', '2026-03-04T08:00:00.000Z'),
      say('assistant', 'ok', '2026-03-04T08:00:02.000Z'),
      count([800, 512, 20], [800, 512, 20], '2026-03-04T08:00:02.100Z'),
      say('user', 'more', '2026-03-04T08:01:00.000Z'),
      say('assistant', 'ok', '2026-03-04T08:01:02.000Z'),
      count([900, 768, 10], [1700, 1280, 30], '2026-03-04T08:01:02.100Z'),
    ]);
    expect(result.requests.map((r) => r.recorded && [r.recorded.input, r.recorded.cacheRead, r.recorded.output])).toEqual([
      [1000, 0, 40],
      [240, 960, 30],
      [288, 512, 20],
      [132, 768, 10],
    ]);
  });

  it('ghost_snapshot items (undo snapshots codex never sends) are no part of a request', async () => {
    const result = await read('rollout-2025-11-01T00-00-00-g.jsonl', [
      meta('g', '2025-11-01T00:00:00.000Z', { cli_version: '0.50.0' }),
      line('turn_context', { model: 'gpt-5-codex' }, '2025-11-01T00:00:00.500Z'),
      say('user', 'hi', '2025-11-01T00:00:01.000Z'),
      line('response_item', { type: 'ghost_snapshot', ghost_commit: { id: 'abc', parent: null, preexisting_untracked_files: [], preexisting_untracked_dirs: [] } }, '2025-11-01T00:00:01.100Z'),
      say('assistant', 'hello', '2025-11-01T00:00:02.000Z'),
      count([50, 0, 2], [50, 0, 2], '2025-11-01T00:00:02.100Z'),
    ]);
    const [request] = result.requests;
    expect(request!.messageCount).toBe(1);
    expect(request!.notes.map((n) => n.code)).not.toContain('unknown_shapes');
  });
});

describe('Codex rollouts of before session_meta (SYNTHETIC, in the shape codex-rs wrote until its 0.3x releases)', () => {
  const legacy = [
    { id: 'c27a914d-synthetic', timestamp: '2025-08-20T13:20:47.060Z', instructions: null, git: { branch: 'main' } },
    { record_type: 'state' },
    { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'list the files' }] },
    { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
    { type: 'function_call', id: 'fc_1', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_1' },
    { type: 'function_call_output', call_id: 'call_1', output: 'README.md' },
    { record_type: 'state' },
    { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'One file: README.md.' }] },
    { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'thanks' }] },
  ];

  it('each run of output items is one call with the history before it; no usage, no send time, no system prompt', async () => {
    for (const name of ['rollout-2025-08-20T13-20-47-c27a914d.jsonl', 'session.jsonl']) {
      const result = await read(name, legacy);
      expect(result.errors).toEqual([]);
      expect(result.files[0]?.format).toBe('codex-rollout');
      expect(result.requests.map((r) => [r.line, r.messageCount, r.recorded, r.timestamp])).toEqual([
        [4, 1, null, null],
        [8, 4, null, null],
      ]);
      expect(result.requests[1]!.segments.map((s) => s.category)).toEqual(['user', 'thinking', 'tool_call', 'tool_result']);
      // The header names no model, and the transcript records neither the system prompt nor the tools.
      expect(result.requests[1]!.notes.map((n) => n.code)).toEqual(['no_model', 'transcript_missing_system', 'transcript_missing_tools']);
    }
  });

  it('a line that is neither an item nor a state marker is located; the header alone makes no request', async () => {
    const result = await read('rollout-x.jsonl', [legacy[0], legacy[2], { payload: 1 }, legacy[7]]);
    expect(result.requests.map((r) => r.line)).toEqual([4]);
    expect(result.errors.map((e) => [e.line, e.message])).toEqual([[3, 'rollout line (of the format before session_meta) is neither a response item nor a state marker']]);
    expect((await read('rollout-y.jsonl', [legacy[0], legacy[1]])).requests).toEqual([]);
  });
});

describe('pi sessions', () => {
  const header = { type: 'session', version: 3, id: 'sess', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/x' };
  const msg = (id: string, parentId: string | null, message: unknown) => ({ type: 'message', id, parentId, timestamp: '2026-01-01T00:00:00.000Z', message });
  const usage = { input: 10, output: 5, cacheRead: 200, cacheWrite: 30 };
  const answer = (text: string, stopReason = 'stop') => ({ role: 'assistant', content: [{ type: 'text', text }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage, stopReason, timestamp: 1767225600000 });

  it('walks the tree from the leaf, applies compaction, and keeps failed calls out of later contexts', async () => {
    const result = await read('pi.jsonl', [
      header,
      msg('a1', null, { role: 'user', content: 'first', timestamp: 1 }),
      msg('a2', 'a1', answer('one')),
      msg('b1', 'a2', { role: 'user', content: 'abandoned branch', timestamp: 2 }),
      msg('b2', 'b1', answer('never on the path')),
      msg('c1', 'a2', { role: 'user', content: 'second', timestamp: 3 }),
      msg('c2', 'c1', answer('partial', 'aborted')),
      msg('c3', 'c2', { role: 'user', content: 'retry', timestamp: 4 }),
      { type: 'compaction', id: 'k1', parentId: 'c3', timestamp: '2026-01-01T00:00:00.000Z', summary: 'summary text', firstKeptEntryId: 'c1', tokensBefore: 1000 },
      msg('d1', 'k1', answer('after compaction')),
    ]);
    expect(result.files[0]?.format).toBe('pi-session');
    // On the leaf's path: a2, c2 (aborted, still sent) and d1 — not b2.
    expect(result.requests).toHaveLength(3);
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 3, 3]);
    // d1's context: the summary, then the kept entries c1 and c3 (c2 aborted, left out).
    const last = result.requests[2]!;
    expect(last.segments.map((s) => s.category)).toEqual(['user', 'user', 'user']);
    expect(result.requests.map((r) => r.notes.some((n) => n.code === 'transcript_compacted'))).toEqual([false, false, true]);
    expect(last.recorded).toEqual({ input: 10, cacheRead: 200, cacheWrite5m: 30, cacheWrite1h: 0, output: 5 });
  });

  it('reads version 1 sessions through pi\'s migration (compaction by entry index)', async () => {
    const result = await read('v1.jsonl', [
      { type: 'session', id: 'old', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/x', provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
      { type: 'message', timestamp: '2025-01-01T00:00:01.000Z', message: { role: 'user', content: [{ type: 'text', text: 'hello' }], timestamp: 1 } },
      { type: 'message', timestamp: '2025-01-01T00:00:02.000Z', message: answer('hi') },
      { type: 'message', timestamp: '2025-01-01T00:00:03.000Z', message: { role: 'user', content: [{ type: 'text', text: 'more' }], timestamp: 2 } },
      { type: 'compaction', timestamp: '2025-01-01T00:00:04.000Z', summary: 's', firstKeptEntryIndex: 3, tokensBefore: 10 },
      { type: 'message', timestamp: '2025-01-01T00:00:05.000Z', message: answer('after') },
    ]);
    expect(result.requests.map((r) => r.messageCount)).toEqual([1, 2]);
  });

  it('reports a broken tree with its line instead of guessing', async () => {
    const result = await read('broken.jsonl', [header, msg('a1', 'missing-parent', { role: 'user', content: 'x', timestamp: 1 })]);
    expect(result.requests).toHaveLength(0);
    expect(result.errors[0]).toMatchObject({ line: 2 });
    expect(result.errors[0]!.message).toMatch(/parentId/);
  });
});
