// Claude Code session transcripts (~/.claude/projects/<slug>/<session>.jsonl; subagents in
// <session>/subagents/agent-*.jsonl, each read as its own conversation) → the Anthropic Messages requests the
// agent sent. One API response is written as several lines (one per content block) sharing `message.id`: they are
// merged into one assistant message, and the usage of the last line (the one with the final output_tokens) is the
// request's recorded usage. A `compact_boundary` system line starts the history afresh. The transcript does not
// record the system prompt or the tool definitions: each rebuilt request says so.

import type { ParsedRequest, ReadError } from '../model.ts';
import { isObject, stringField, type JsonObject } from '../input/json-value.ts';
import { recordedUsage } from '../input/usage.ts';
import { toEpochMs } from '../input/timestamp.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './registry.ts';
import { importRebuilt } from './transcript-requests.ts';

const CONVERSATION_TYPES = new Set(['user', 'assistant']);

interface Message {
  role: 'user' | 'assistant';
  content: unknown[];
}

interface PendingResponse {
  id: string;
  model: string | null;
  /** Index in `messages` of the assistant message being assembled. */
  at: number;
  usage: unknown;
  line: number;
  sentAt: number | null;
}

function blocksOf(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function isClaudeCodeLine(value: unknown): boolean {
  return isObject(value) && typeof value['type'] === 'string' && ('sessionId' in value || 'parentUuid' in value || value['type'] === 'file-history-snapshot');
}

export const claudeCodeImporter: TranscriptImporter = {
  id: 'claude-code',
  matchesName: () => false,
  matchesRecords: (first) => {
    const conversational = first.filter((r) => isObject(r.value) && CONVERSATION_TYPES.has(String(r.value['type'])));
    return first.length > 0 && first.every((r) => isClaudeCodeLine(r.value)) && (conversational.length > 0 || first.some((r) => isObject(r.value) && 'sessionId' in r.value));
  },
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport {
    const errors: ReadError[] = [];
    const rebuilt: { messages: Message[]; pending: PendingResponse }[] = [];
    let messages: Message[] = [];
    let pending: PendingResponse | null = null;
    let lastSeenAt: number | null = null;

    const closePending = () => {
      if (pending) rebuilt.push({ messages: messages.slice(0, pending.at).map((m) => ({ ...m, content: [...m.content] })), pending });
      pending = null;
    };

    for (const { line, value } of records) {
      if (!isObject(value)) continue;
      const type = value['type'];
      const at = toEpochMs(value['timestamp']);
      if (type === 'system' && value['subtype'] === 'compact_boundary') {
        closePending();
        messages = [];
        lastSeenAt = at ?? lastSeenAt;
        continue;
      }
      if (type !== 'user' && type !== 'assistant') continue;
      const message = value['message'];
      if (!isObject(message)) {
        errors.push({ file: ctx.file, line, message: `${type} line has no "message" object` });
        continue;
      }
      if (type === 'user') {
        closePending();
        appendBlocks(messages, 'user', blocksOf(message['content']));
        lastSeenAt = at ?? lastSeenAt;
        continue;
      }
      const id = stringField(message, 'id');
      const model = stringField(message, 'model');
      // Claude Code writes locally generated notices (API errors, interruptions) as assistant lines with the
      // model "<synthetic>": they were never an API call.
      if (model === '<synthetic>' || id === null) {
        lastSeenAt = at ?? lastSeenAt;
        continue;
      }
      if (pending === null || pending.id !== id) {
        closePending();
        messages.push({ role: 'assistant', content: [] });
        pending = { id, model, at: messages.length - 1, usage: null, line, sentAt: lastSeenAt };
      }
      messages[pending.at]!.content.push(...blocksOf(message['content']));
      if (message['usage'] !== undefined) pending.usage = message['usage'];
      pending.line = line;
    }
    closePending();

    const requests: ParsedRequest[] = rebuilt.map(({ messages: context, pending: response }) =>
      importRebuilt(
        {
          format: 'anthropic-messages',
          body: { model: response.model, messages: context as unknown as JsonObject[] },
          line: response.line,
          timestamp: response.sentAt,
          recorded: recordedUsage(response.usage, 'anthropic-messages'),
          missing: ['transcript_missing_system', 'transcript_missing_tools'],
        },
        ctx,
      ),
    );
    return { requests, errors };
  },
};

/** Consecutive lines of one role form one API message (parallel tool results are written a line each). */
function appendBlocks(messages: Message[], role: Message['role'], blocks: unknown[]): void {
  const last = messages[messages.length - 1];
  if (last && last.role === role) last.content.push(...blocks);
  else messages.push({ role, content: [...blocks] });
}
