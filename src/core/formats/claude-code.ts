// Claude Code session transcripts (~/.claude/projects/<slug>/<session>.jsonl; subagents in
// <session>/subagents/agent-*.jsonl, older versions flat beside it as agent-*.jsonl) → the Anthropic Messages
// requests the agent sent. One API response is written as several lines (one per content block) sharing
// `message.id`: they are merged into one assistant message, and the usage of the last line (the one with the final
// output_tokens) is the request's recorded usage. A `compact_boundary` system line starts the history afresh.
// Every other record type the agent writes (summary, custom-title, file-history-snapshot, progress,
// queue-operation, system notices such as stop_hook_summary, attachments, …) carries no message sent to the API
// and is skipped by type, whatever new types later versions add. Sidechain lines (a Task subagent's conversation,
// written into the main file by older versions) form a history and a thread of their own, one per subagent (the
// walk over the lines is claude-code-calls.ts). The transcript does not record the
// system prompt or the tool definitions: each rebuilt request says so.

import type { ParsedRequest } from '../model.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';
import { recordedUsage } from '../input/usage.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';
import { importRebuilt } from './transcript-requests.ts';
import { ClaudeCodeCalls } from './claude-code-calls.ts';

/** Record types that carry no message, from Claude Code 1.0–2.1 (a record of another type is skipped too). */
const METADATA_TYPES = new Set(['summary', 'custom-title', 'file-history-snapshot', 'queue-operation', 'progress', 'tag', 'agent-name', 'attachment']);

/** A user or assistant line as Claude Code writes it: the API message plus the session's bookkeeping fields. */
function isMessageRecord(value: JsonObject): boolean {
  const type = value['type'];
  return (type === 'user' || type === 'assistant') && isObject(value['message']) && ('sessionId' in value || 'parentUuid' in value || 'uuid' in value);
}

/** Any line Claude Code writes: a typed record with its session bookkeeping, or one of its metadata types. */
function isClaudeCodeRecord(value: unknown): boolean {
  if (!isObject(value) || typeof value['type'] !== 'string') return false;
  if (METADATA_TYPES.has(value['type'])) return true;
  return 'sessionId' in value || 'parentUuid' in value || 'leafUuid' in value;
}

export const claudeCodeImporter: TranscriptImporter = {
  id: 'claude-code',
  recordsCompactions: true,
  matchesName: () => false,
  // Every line of the head is Claude Code's, and one carries a message — or the head is all metadata (a session
  // opening with snapshots and summaries), whose message lines come later.
  matchesRecords: (first) =>
    first.length > 0 &&
    first.every((r) => isClaudeCodeRecord(r.value)) &&
    first.some((r) => isObject(r.value) && (isMessageRecord(r.value) || METADATA_TYPES.has(String(r.value['type'])) || 'sessionId' in r.value)),
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport {
    const walk = new ClaudeCodeCalls({ file: ctx.file, keepMessages: true, ...(ctx.seenCalls !== undefined && { seen: ctx.seenCalls }) });
    for (const { line, value } of records) walk.add(line, value);
    walk.finish();
    // A call an earlier file recorded (a resumed or copied session) is counted there only.
    const requests: ParsedRequest[] = walk.calls.filter((call) => !call.duplicate).map((call) =>
      importRebuilt(
        {
          format: 'anthropic-messages',
          body: { model: call.model, messages: call.history.slice(0, call.at) as unknown as JsonObject[] },
          line: call.line,
          timestamp: call.sentAt,
          recorded: recordedUsage(call.usage, 'anthropic-messages'),
          missing: ['transcript_missing_system', 'transcript_missing_tools'],
          compacted: call.compacted,
          thread: call.thread,
        },
        ctx,
      ),
    );
    return { requests, errors: walk.errors, session: walk.session };
  },
};
