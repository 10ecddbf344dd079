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

/** One API call: an assistant message (possibly written over several lines) and the history it answered. */
interface ApiCall {
  id: string;
  model: string | null;
  history: Message[];
  /** Index in `history` of the call's assistant message; the request is everything before it. */
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
    const calls: ApiCall[] = [];
    const byId = new Map<string, ApiCall>();
    // Each compaction starts a new history; calls keep a reference to the history they were made in.
    let messages: Message[] = [];
    let lastSeenAt: number | null = null;

    for (const { line, value } of records) {
      if (!isObject(value)) continue;
      const type = value['type'];
      const at = toEpochMs(value['timestamp']);
      if (type === 'system' && value['subtype'] === 'compact_boundary') {
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
      let call = byId.get(id);
      if (call === undefined || call.history !== messages) {
        messages.push({ role: 'assistant', content: [] });
        call = { id, model, history: messages, at: messages.length - 1, usage: null, line, sentAt: lastSeenAt };
        byId.set(id, call);
        calls.push(call);
      }
      // A response's later blocks may be written after tool results of its earlier blocks: they still belong to
      // the one assistant message.
      call.history[call.at]!.content.push(...blocksOf(message['content']));
      if (message['usage'] !== undefined) call.usage = message['usage'];
      call.line = line;
    }

    const requests: ParsedRequest[] = calls.map((call) =>
      importRebuilt(
        {
          format: 'anthropic-messages',
          body: { model: call.model, messages: call.history.slice(0, call.at) as unknown as JsonObject[] },
          line: call.line,
          timestamp: call.sentAt,
          recorded: recordedUsage(call.usage, 'anthropic-messages'),
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
