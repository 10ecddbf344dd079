// Claude Code session transcripts (~/.claude/projects/<slug>/<session>.jsonl; subagents in
// <session>/subagents/agent-*.jsonl, older versions flat beside it as agent-*.jsonl) → the Anthropic Messages
// requests the agent sent. One API response is written as several lines (one per content block) sharing
// `message.id`: they are merged into one assistant message, and the usage of the last line (the one with the final
// output_tokens) is the request's recorded usage. A `compact_boundary` system line starts the history afresh.
// Every other record type the agent writes (summary, custom-title, file-history-snapshot, progress,
// queue-operation, system notices such as stop_hook_summary, attachments, …) carries no message sent to the API
// and is skipped by type, whatever new types later versions add. Sidechain lines (a Task subagent's conversation,
// written into the main file by older versions) form a history and a thread of their own, one per subagent. The transcript does not record the
// system prompt or the tool definitions: each rebuilt request says so.

import type { ParsedRequest, ReadError } from '../model.ts';
import { isObject, stringField, type JsonObject } from '../input/json-value.ts';
import { recordedUsage } from '../input/usage.ts';
import { toEpochMs } from '../input/timestamp.ts';
import type { SessionLink, TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';
import { importRebuilt } from './transcript-requests.ts';

/** Record types that carry no message, from Claude Code 1.0–2.1 (a record of another type is skipped too). */
const METADATA_TYPES = new Set(['summary', 'custom-title', 'file-history-snapshot', 'queue-operation', 'progress', 'tag', 'agent-name', 'attachment']);

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
  /** The history was compacted since the lane's call before (a `compact_boundary` or compact-summary line). */
  compacted: boolean;
  /** 0 for the main conversation, then each sidechain in the order it first appears (ParsedRequest.thread). */
  thread: number;
}

function blocksOf(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

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
    const errors: ReadError[] = [];
    const calls: ApiCall[] = [];
    const byId = new Map<string, ApiCall>();
    // Each compaction starts a new history; calls keep a reference to the history they were made in. The main
    // conversation and each sidechain have their own.
    const histories = new Map<string, Message[]>();
    const lastSeen = new Map<string, number | null>();
    /** Lanes whose history was compacted since their last call: the next call there carries the record. */
    const compacted = new Set<string>();
    const session: SessionLink = { sessionId: null, agentId: null, startedBy: null, subagentTasks: {} };
    const lanes = new SidechainLanes();
    let sidechainLines = 0;
    let messageLines = 0;

    for (const { line, value } of records) {
      if (!isObject(value)) continue;
      const type = value['type'];
      session.sessionId ??= stringField(value, 'sessionId');
      linkSubagent(value, session);
      const sidechain = value['isSidechain'] === true;
      const lane = sidechain ? lanes.laneOf(value, line) : 'main';
      const at = toEpochMs(value['timestamp']);
      if (type === 'system' && value['subtype'] === 'compact_boundary') {
        histories.set(lane, []);
        compacted.add(lane);
        lastSeen.set(lane, at ?? lastSeen.get(lane) ?? null);
        continue;
      }
      if (type !== 'user' && type !== 'assistant') continue;
      const message = value['message'];
      if (!isObject(message)) {
        errors.push({ file: ctx.file, line, message: `${type} line has no "message" object` });
        continue;
      }
      messageLines++;
      if (sidechain) sidechainLines++;
      let messages = histories.get(lane);
      if (messages === undefined) {
        messages = [];
        histories.set(lane, messages);
      }
      if (type === 'user') {
        // The summary a compaction starts the history with; a version that wrote no boundary before it starts afresh here.
        if (value['isCompactSummary'] === true && !compacted.has(lane)) {
          messages = [];
          histories.set(lane, messages);
          compacted.add(lane);
        }
        appendBlocks(messages, 'user', blocksOf(message['content']));
        lastSeen.set(lane, at ?? lastSeen.get(lane) ?? null);
        continue;
      }
      const id = stringField(message, 'id');
      const model = stringField(message, 'model');
      // Claude Code writes locally generated notices (API errors, interruptions) as assistant lines with the
      // model "<synthetic>": they were never an API call.
      if (model === '<synthetic>' || id === null) {
        lastSeen.set(lane, at ?? lastSeen.get(lane) ?? null);
        continue;
      }
      let call = byId.get(id);
      if (call === undefined || call.history !== messages) {
        messages.push({ role: 'assistant', content: [] });
        call = { id, model, history: messages, at: messages.length - 1, usage: null, line, sentAt: lastSeen.get(lane) ?? null, compacted: compacted.delete(lane), thread: lanes.threadOf(lane) };
        byId.set(id, call);
        calls.push(call);
      }
      // A response's later blocks may be written after tool results of its earlier blocks: they still belong to
      // the one assistant message.
      call.history[call.at]!.content.push(...blocksOf(message['content']));
      if (message['usage'] !== undefined) call.usage = message['usage'];
      call.line = line;
    }

    if (messageLines === 0) {
      errors.push({ file: ctx.file, line: 0, message: 'a Claude Code file with no user or assistant lines (only session metadata such as summaries or snapshots): no API call to rebuild' });
    }
    // A file whose every message is a sidechain's is a subagent's own transcript.
    if (messageLines > 0 && sidechainLines === messageLines) session.agentId = subagentId(records);

    const requests: ParsedRequest[] = calls.map((call) =>
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
    return { requests, errors, session };
  },
};

/**
 * The parent session records which Task call started which subagent: in the Task result's `toolUseResult.agentId`
 * (beside the tool_result block naming the call) and in `agent_progress` records (`data.agentId`, `parentToolUseID`).
 */
function linkSubagent(value: JsonObject, session: SessionLink): void {
  if (value['isSidechain'] === true) return;
  const result = value['toolUseResult'];
  if (isObject(result) && typeof result['agentId'] === 'string') {
    const message = value['message'];
    const block = isObject(message) ? blocksOf(message['content']).find((b) => isObject(b) && b['type'] === 'tool_result') : undefined;
    if (isObject(block) && typeof block['tool_use_id'] === 'string') session.subagentTasks[result['agentId']] = block['tool_use_id'];
  }
  const data = value['data'];
  if (value['type'] === 'progress' && isObject(data) && typeof data['agentId'] === 'string' && typeof value['parentToolUseID'] === 'string') {
    session.subagentTasks[data['agentId']] ??= value['parentToolUseID'];
  }
}

function subagentId(records: readonly TranscriptRecord[]): string | null {
  for (const { value } of records) {
    if (isObject(value) && typeof value['agentId'] === 'string') return value['agentId'];
  }
  return null;
}

/**
 * Which sidechain a line belongs to. 2.x names the subagent (`agentId`); 1.0.x writes each Task subagent inline
 * with no id, its first line having `parentUuid: null`, and parallel subagents interleave: a line joins the
 * sidechain of the line its `parentUuid` (or, after a compaction, `logicalParentUuid`) names, and a line whose
 * parent is no sidechain line starts a new one.
 */
class SidechainLanes {
  private readonly byUuid = new Map<string, string>();
  private readonly threads = new Map<string, number>([['main', 0]]);

  threadOf(lane: string): number {
    let thread = this.threads.get(lane);
    if (thread === undefined) {
      thread = this.threads.size;
      this.threads.set(lane, thread);
    }
    return thread;
  }

  laneOf(value: JsonObject, line: number): string {
    const agentId = stringField(value, 'agentId');
    const uuid = stringField(value, 'uuid');
    const parent = stringField(value, 'parentUuid') ?? stringField(value, 'logicalParentUuid');
    const lane = agentId !== null ? `side:${agentId}` : ((parent !== null ? this.byUuid.get(parent) : undefined) ?? `side@${uuid ?? line}`);
    if (uuid !== null) this.byUuid.set(uuid, lane);
    return lane;
  }
}

/** Consecutive lines of one role form one API message (parallel tool results are written a line each). */
function appendBlocks(messages: Message[], role: Message['role'], blocks: unknown[]): void {
  const last = messages[messages.length - 1];
  if (last && last.role === role) last.content.push(...blocks);
  else messages.push({ role, content: [...blocks] });
}
