import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parseJournal, readHeader } from '../../src/core/clearing/journal/parse.ts';
import { replayJournal, ReplayError } from '../../src/core/clearing/journal/replay.ts';
import { assistant, journal, text, toolResult, user } from './helpers.ts';

const PI = path.resolve(__dirname, '../../../shared/fixtures/real/transcripts/pi');

function replayOf(source: string) {
  const parsed = parseJournal(source);
  if (!parsed.ok) throw new Error(`skip ${parsed.skip.reason}`);
  return replayJournal(parsed.journal);
}

describe('journal replay (synthetic v3)', () => {
  const source = journal('s-1', [
    user('u1', 'x'.repeat(400), 1_000), // 100 tokens
    assistant('a1', 2_000, { calls: [{ id: 'c1', name: 'read' }, { id: 'c2', name: 'read' }], usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0 } }),
    toolResult('r1', 'c1', 'read', text('y'.repeat(800)), 3_000), // 200 tokens
    toolResult('r2', 'c2', 'read', [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], 3_100),
    assistant('a2', 4_000, { text: 'done', usage: { input: 5, output: 8, cacheRead: 320, cacheWrite: 0 } }),
    user('u2', 'z'.repeat(40), 404_000), // 10 tokens, 400 s after a2
    assistant('a3', 405_000, { calls: [{ id: 'c3', name: 'grep' }], usage: null, stopReason: 'toolUse' }),
    toolResult('r3', 'c3', 'grep', text('fail'), 406_000, true),
    toolResult('r4', 'c-unknown', 'grep', text('stray'), 406_500),
    assistant('a4', 407_000, { text: 'ok', usage: { input: 1, output: 1, cacheRead: 400, cacheWrite: 0 } }),
  ]);

  it('finds pre-turn boundaries with their estimates, gaps, runs and owners', () => {
    const replay = replayOf(source);
    expect(replay.boundaries.map((b) => [b.runId, b.runOrdinal, b.api, b.estimate, b.gapMs, b.previousRunCompleted, b.startsBefore])).toEqual([
      // No usage before the first prompt: UTF-16 chars / 4.
      ['u1', 1, 'anthropic-messages', 100, null, false, 0],
      // Latest valid usage a2 = 5 + 8 + 320 = 333, plus the trailing prompt (10 tokens); gap from a2 (4 000 ms).
      ['u2', 2, 'anthropic-messages', 343, 400_000, true, 2],
    ]);
  });

  it('classifies tool results and reconstructs their identities', () => {
    const replay = replayOf(source);
    expect(replay.results.map((r) => [r.runId, r.callId, r.kind, r.tokens, r.startOrdinal])).toEqual([
      ['u1', 'c1', 'plain_text', 200, 1],
      ['u1', 'c2', 'opaque_or_mixed', 1, 2],
      ['u2', 'c3', 'error', 1, 3],
      ['u2', 'c-unknown', 'not_completed', 2, 0],
    ]);
    expect(replay.results[0]?.text).toBe('y'.repeat(800));
  });

  it('prices a request without usage by the heuristic fallback', () => {
    const replay = replayOf(source);
    const fallback = replay.requests.find((r) => r.usage === null);
    // Context before a3: latest valid usage (333) + the prompt (10).
    expect(fallback?.fallbackPrefixTokens).toBe(343);
    expect(replay.requests).toHaveLength(4);
  });

  it('follows the leaf back through a branch, not the abandoned sibling', () => {
    const branched = journal('s-2', [
      user('u1', 'q', 1_000),
      assistant('a1', 2_000, { text: 'first answer', stopReason: 'stop' }),
      { ...user('u2', 'abandoned', 3_000), parentId: 'a1' },
      assistant('a2', 4_000, { text: 'abandoned answer' }),
      { ...user('u3', 'kept', 900_000), parentId: 'a1' },
      assistant('a3', 901_000, { text: 'kept answer' }),
    ]);
    const replay = replayOf(branched);
    expect(replay.boundaries.map((b) => b.runId)).toEqual(['u1', 'u3']);
    // The cold gap counts the abandoned dispatch a2 (4 000 ms) as the latest preceding assistant message.
    expect(replay.boundaries[1]?.gapMs).toBe(896_000);
  });
});

describe('journal skip rules', () => {
  const base = [user('u1', 'q', 1), assistant('a1', 2, { text: 'a' })];
  const outcome = (source: string) => {
    const parsed = parseJournal(source);
    if (!parsed.ok) return parsed.skip.reason;
    try {
      replayJournal(parsed.journal);
      return 'ok';
    } catch (error) {
      return error instanceof ReplayError ? error.reason : 'threw';
    }
  };

  it('maps each observable fact to its reason', () => {
    expect(outcome(journal('s', base))).toBe('ok');
    expect(outcome(journal('s', base, { version: 4 }))).toBe('unsupported');
    expect(outcome(journal('s', base, { imported: true }))).toBe('imported');
    expect(outcome(journal('s', base, { parentSession: '/p.jsonl' }))).toBe('inherited');
    expect(outcome(journal('s', base, { version: undefined, branchedFrom: '/p.jsonl' }))).toBe('inherited');
    expect(outcome(journal('s', [user('u1', 'q', 1)]))).toBe('open');
    expect(outcome(journal('s', [user('u1', 'q', 1), assistant('a1', 2, { calls: [{ id: 'c', name: 'read' }] })]))).toBe('open');
    expect(outcome(journal('s', [user('u1', 'q', 1), assistant('a1', 2, { stopReason: 'aborted' })]))).toBe('interrupted');
    expect(outcome(journal('s', [user('u1', 'q', 1), assistant('a1', 2, { stopReason: 'error' })]))).toBe('interrupted');
    expect(outcome(journal('s', base) + '{broken\n')).toBe('invalid');
    expect(outcome(journal('s', [user('u1', 'q', 1), { ...assistant('a1', 2), parentId: 'missing' }]))).toBe('invalid');
    expect(outcome(journal('s', [user('u1', 'q', 1), user('u1', 'again', 2)]))).toBe('invalid');
    expect(outcome(journal('s', [{ ...user('u1', 'q', 1), parentId: 'a1' }, { ...assistant('a1', 2), parentId: 'u1' }]))).toBe('invalid');
    expect(outcome('not a header\n')).toBe('invalid');
  });

  it('locates an invalid line', () => {
    const parsed = parseJournal(journal('s', base) + '{broken\n');
    expect(parsed.ok ? null : parsed.skip).toEqual({ reason: 'invalid', line: 4, field: 'json' });
  });

  it('reads version 1 through the in-memory migration (linear chain, compaction index → id)', () => {
    const v1 = [
      JSON.stringify({ type: 'session', id: 'v1-session', timestamp: '2025-01-01T00:00:00.000Z', cwd: '/s', provider: 'anthropic', modelId: 'm', thinkingLevel: 'off' }),
      JSON.stringify({ type: 'message', timestamp: '2025-01-01T00:00:01.000Z', message: { role: 'user', content: 'x'.repeat(4000), timestamp: 1_000 } }),
      JSON.stringify({ type: 'message', timestamp: '2025-01-01T00:00:02.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'a' }], api: 'anthropic-messages', usage: { input: 1000, output: 10, cacheRead: 0, cacheWrite: 0 }, stopReason: 'stop', timestamp: 2_000 } }),
      JSON.stringify({ type: 'message', timestamp: '2025-01-01T00:00:03.000Z', message: { role: 'user', content: 'y'.repeat(40), timestamp: 3_000 } }),
      JSON.stringify({ type: 'message', timestamp: '2025-01-01T00:00:04.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'b' }], api: 'anthropic-messages', usage: { input: 1020, output: 10, cacheRead: 0, cacheWrite: 0 }, stopReason: 'stop', timestamp: 4_000 } }),
      JSON.stringify({ type: 'compaction', timestamp: '2025-01-01T00:00:05.000Z', summary: 's'.repeat(200), firstKeptEntryIndex: 3, tokensBefore: 1030 }),
      JSON.stringify({ type: 'message', timestamp: '2025-01-01T00:00:06.000Z', message: { role: 'user', content: 'z'.repeat(80), timestamp: 6_000 } }),
      JSON.stringify({ type: 'message', timestamp: '2025-01-01T00:00:07.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'c' }], api: 'anthropic-messages', usage: { input: 90, output: 10, cacheRead: 0, cacheWrite: 0 }, stopReason: 'stop', timestamp: 7_000 } }),
    ].join('\n');
    expect(readHeader(v1)?.version).toBe(1);
    const replay = replayOf(v1);
    expect(replay.boundaries.map((b) => b.runId)).toEqual(['00000001', '00000003', '00000006']);
    // After the compaction: summary (50) + kept entries from index 3 (prompt 10 + answer 1) + new prompt (20).
    expect(replay.boundaries[2]?.estimate).toBe(50 + 10 + 1 + 20);
    expect(replay.compactions).toEqual([{ pathIndex: 4, tokensBefore: 1030, summaryTokens: 50, drainTokens: 1030 - (50 + 11) }]);
    expect(Array.from(replay.contextStart)).toEqual([0, 0, 0, 0, 0, 2, 2]);
  });
});

const piPresent = fs.existsSync(PI);
(piPresent ? describe : describe.skip)(`real pi sessions (${piPresent ? 'present' : 'absent: ../shared/fixtures/real/transcripts/pi not found'})`, () => {
  it('replays large-session.jsonl (v1, migrated) completely', () => {
    const replay = replayOf(fs.readFileSync(path.join(PI, 'large-session.jsonl'), 'utf8'));
    expect(replay.requests).toHaveLength(453);
    expect(replay.boundaries).toHaveLength(88);
    expect(replay.results).toHaveLength(373);
    // The one openai-responses answer owns its boundary; the rest are anthropic-messages.
    expect(replay.boundaries.filter((b) => b.api === 'openai-responses')).toHaveLength(1);
  });

  it('skips before-compaction.jsonl as inherited (branchedFrom) and still parses its two compactions', () => {
    const source = fs.readFileSync(path.join(PI, 'before-compaction.jsonl'), 'utf8');
    const parsed = parseJournal(source);
    expect(parsed.ok ? null : parsed.skip.reason).toBe('inherited');
    const unmarked = source.replace(/"branchedFrom":"[^"]*"/, '"note":"synthetic edit"');
    const replay = replayOf(unmarked);
    expect(replay.compactions.map((c) => c.tokensBefore)).toEqual([175004, 185014]);
  });
});
