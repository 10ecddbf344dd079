// Which files of a folder are one session (src/core/folder/groups.ts) and the session id a Claude Code file's first
// lines carry. Paths and ids are SYNTHETIC, made up by this test.
import { describe, expect, it } from 'vitest';
import { claudeCodeSessionId, isFlatAgentFile, sessionGroups } from '../../src/core/folder/index.ts';

describe('sessionGroups', () => {
  it('puts a session with its subagents (nested and flat), a task with its other part, and every other file alone', () => {
    const paths = [
      'p-a/agent-f1.jsonl', // flat, lines carry session s1
      'p-a/agent-f2.jsonl', // flat, its session is not in the folder
      'p-a/s1.jsonl',
      'p-a/s1/subagents/agent-n1.jsonl',
      'p-a/s2.jsonl',
      'p-a/s9/subagents/agent-n9.jsonl', // nested under a session that is not there
      'tasks/t1/api_conversation_history.json',
      'tasks/t1/task_metadata.json',
      'tasks/t1/ui_messages.json',
      'gemini/chats/session-1.json',
    ];
    const peeked: number[] = [];
    const groups = sessionGroups(paths, (i) => {
      peeked.push(i);
      return ({ 0: 's1', 1: 's7' } as Record<number, string>)[i] ?? null;
    });
    // Only the flat agent files are peeked at.
    expect(peeked).toEqual([0, 1]);
    expect(groups.map((group) => group.map((i) => paths[i]))).toEqual([
      ['p-a/agent-f2.jsonl'],
      ['p-a/s1.jsonl', 'p-a/agent-f1.jsonl', 'p-a/s1/subagents/agent-n1.jsonl'],
      ['p-a/s2.jsonl'],
      ['p-a/s9/subagents/agent-n9.jsonl'],
      ['tasks/t1/api_conversation_history.json', 'tasks/t1/task_metadata.json', 'tasks/t1/ui_messages.json'],
      ['gemini/chats/session-1.json'],
    ]);
  });

  it('matches a flat agent file only to a session file of the same folder', () => {
    const paths = ['p-a/agent-x.jsonl', 'p-b/s1.jsonl', 's1.jsonl'];
    expect(sessionGroups(paths, () => 's1')).toEqual([[0], [1], [2]]);
    expect(sessionGroups(['agent-x.jsonl', 's1.jsonl'], () => 's1')).toEqual([[1, 0]]);
    expect(sessionGroups([], () => null)).toEqual([]);
  });

  it('tells flat agent files from nested ones', () => {
    expect(isFlatAgentFile('p/agent-1.jsonl')).toBe(true);
    expect(isFlatAgentFile('agent-1.jsonl')).toBe(true);
    expect(isFlatAgentFile('p/s/subagents/agent-1.jsonl')).toBe(false);
    expect(isFlatAgentFile('p/agent-1.json')).toBe(false);
    expect(isFlatAgentFile('p/my-agent-1.jsonl')).toBe(false);
  });
});

describe('claudeCodeSessionId', () => {
  it('reads the first sessionId of the whole lines in a file head', () => {
    const head = ['{"type":"summary","summary":"synthetic"}', '{"type":"user","sessionId":"s-1","isSidechain":true}', '{"sessionId":"s-2"}', ''].join('\n');
    expect(claudeCodeSessionId(head)).toBe('s-1');
  });

  it('skips broken and non-object lines, and a last line cut by the head', () => {
    expect(claudeCodeSessionId('not json\n[1,2]\n{"sessionId":""}\n{"sessionId":"s-3"}\n')).toBe('s-3');
    expect(claudeCodeSessionId('{"sessionId":"s-4"}')).toBeNull();
    expect(claudeCodeSessionId('{"sessionId":"s-5"')).toBeNull();
    expect(claudeCodeSessionId('')).toBeNull();
    expect(claudeCodeSessionId('{"sessionId":7}\nnull\n')).toBeNull();
  });
});
