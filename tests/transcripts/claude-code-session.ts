// A synthetic Claude Code session file (JSONL), shared by the Vitest transcript tests and the browser e2e.
// Free of project imports so the Playwright specs can load it too.

export interface SessionUsage { input: number; read: number; write5m: number; output: number }

/** One synthetic Claude Code session: a user turn before each API call, each call recorded with its usage. */
export function syntheticClaudeCodeSession(id: string, start: string, calls: SessionUsage[]): string {
  const lines: object[] = [];
  let parent: string | null = null;
  calls.forEach((usage, i) => {
    const time = new Date(Date.parse(start) + i * 60_000).toISOString();
    const userId = `${id}-u${i}`;
    lines.push({ type: 'user', uuid: userId, parentUuid: parent, sessionId: id, timestamp: time, message: { role: 'user', content: `synthetic question ${i} of ${id}` } });
    const assistantId = `${id}-a${i}`;
    lines.push({
      type: 'assistant',
      uuid: assistantId,
      parentUuid: userId,
      sessionId: id,
      timestamp: time,
      requestId: `req_${id}_${i}`,
      message: {
        id: `msg_${id}_${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: `synthetic answer ${i} of ${id}` }],
        usage: {
          input_tokens: usage.input,
          cache_read_input_tokens: usage.read,
          cache_creation_input_tokens: usage.write5m,
          cache_creation: { ephemeral_5m_input_tokens: usage.write5m, ephemeral_1h_input_tokens: 0 },
          output_tokens: usage.output,
        },
      },
    });
    parent = assistantId;
  });
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/**
 * The same lines as a subagent's own transcript: every line a sidechain of `agentId` (session id kept). Its calls
 * are its own, as a real subagent's are: message and request ids get the agent's prefix (the same ids in two
 * files are one call, counted once).
 */
export function asSubagent(text: string, agentId: string): string {
  return (
    text
      .trim()
      .split('\n')
      .map((line) => {
        const value = JSON.parse(line) as { requestId?: string; message?: { id?: string } };
        const message = value.message?.id === undefined ? value.message : { ...value.message, id: `${agentId}_${value.message.id}` };
        const requestId = value.requestId === undefined ? {} : { requestId: `${agentId}_${value.requestId}` };
        return JSON.stringify({ ...value, ...requestId, message, isSidechain: true, agentId });
      })
      .join('\n') + '\n'
  );
}
