// What a file was read as, in words: the full label for headers, the agent alone for a column of agents.
import { describe, expect, it } from 'vitest';
import { agentLabel, formatLabel, readAsText } from '../../src/core/formats/labels.ts';

describe('format labels', () => {
  it('names transcripts by their agent and wire logs by their format; an unknown id stays itself', () => {
    expect(formatLabel('gemini-cli')).toBe('Gemini CLI session');
    expect(formatLabel('openai-chat')).toBe('OpenAI Chat Completions');
    expect(formatLabel('mixed')).toBe('mixed formats');
    expect(formatLabel(null)).toBe('unreadable');
    expect(formatLabel('some-new-format')).toBe('some-new-format');
  });

  it('gives the agent alone for each transcript importer, the full label for anything else', () => {
    expect(['claude-code', 'codex-rollout', 'gemini-cli', 'pi-session', 'cline-task', 'opencode-storage'].map(agentLabel)).toEqual([
      'Claude Code',
      'Codex',
      'Gemini CLI',
      'pi',
      'Cline',
      'opencode',
    ]);
    expect(agentLabel('har')).toBe('HAR capture');
    expect(agentLabel('anthropic-messages')).toBe('Anthropic Messages');
    expect(agentLabel(null)).toBe('unreadable');
  });

  it('lists the formats of a set of files once each, in first-seen order', () => {
    expect(readAsText([{ format: 'cline-task' }, { format: null }, { format: 'pi-session' }, { format: 'cline-task' }])).toBe('Cline task, pi session');
    expect(readAsText([{ format: null }])).toBe('no format');
  });
});
