// The API calls a Claude Code transcript records, walked line by line: which lines are one call (the lines of one
// response share `message.id` within one history), the model, the recorded usage (the call's last line that has
// one), the send time (the lane's last user, notice or boundary line before it), and the compactions. The full
// importer (claude-code.ts) keeps each history's messages to rebuild the requests; the folder's usage pass
// (src/core/folder/usage-pass.ts) walks the same lines without them, so both count the same calls.
import type { ReadError } from '../model.ts';
import { isObject, stringField, type JsonObject } from '../input/json-value.ts';
import { toEpochMs } from '../input/timestamp.ts';
import type { SeenCalls } from '../input/seen-calls.ts';
import type { SessionLink } from './types.ts';

export interface Message {
  role: 'user' | 'assistant';
  content: unknown[];
}

/** One API call: an assistant message (possibly written over several lines) and the history it answered. */
export interface ApiCall {
  id: string;
  model: string | null;
  /** The history the call was made in (its lane's since the last compaction); empty when messages are not kept. */
  history: Message[];
  /** Index in `history` of the call's assistant message; the request is everything before it. */
  at: number;
  /** `main`, or the sidechain's lane (SidechainLanes). */
  lane: string;
  usage: unknown;
  line: number;
  sentAt: number | null;
  /** The history was compacted since the lane's call before (a `compact_boundary` or compact-summary line). */
  compacted: boolean;
  /** 0 for the main conversation, then each sidechain in the order it first appears (ParsedRequest.thread). */
  thread: number;
  /** An earlier file already recorded this call (same message and request id): kept in the history, not a request. */
  duplicate: boolean;
}

export function blocksOf(content: unknown): unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

/** Consecutive lines of one role form one API message (parallel tool results are written a line each). */
function appendBlocks(messages: Message[], role: Message['role'], blocks: unknown[]): void {
  const last = messages[messages.length - 1];
  if (last && last.role === role) last.content.push(...blocks);
  else messages.push({ role, content: [...blocks] });
}

export interface CallWalkOptions {
  file: number;
  /** Keep each history's messages (the full importer); the usage pass needs only the calls. */
  keepMessages: boolean;
  /** Calls counted by earlier files of the read or folder (input/seen-calls.ts). */
  seen?: SeenCalls;
}

export class ClaudeCodeCalls {
  readonly calls: ApiCall[] = [];
  readonly errors: ReadError[] = [];
  readonly session: SessionLink = { sessionId: null, agentId: null, startedBy: null, subagentTasks: {} };
  private readonly byId = new Map<string, ApiCall>();
  // Each compaction starts a new history; calls keep a reference to the history they were made in. The main
  // conversation and each sidechain have their own.
  private readonly histories = new Map<string, Message[]>();
  private readonly lastSeen = new Map<string, number | null>();
  /** Lanes whose history was compacted since their last call: the next call there carries the record. */
  private readonly compacted = new Set<string>();
  private sidechainLines = 0;
  private messageLines = 0;
  private firstAgentId: string | null = null;
  private readonly lanes = new SidechainLanes();

  constructor(private readonly options: CallWalkOptions) {}

  /** One parsed line of the file, in order. */
  add(line: number, value: unknown): void {
    if (!isObject(value)) return;
    const type = value['type'];
    this.session.sessionId ??= stringField(value, 'sessionId');
    if (this.firstAgentId === null && typeof value['agentId'] === 'string') this.firstAgentId = value['agentId'];
    linkSubagent(value, this.session);
    const sidechain = value['isSidechain'] === true;
    const lane = sidechain ? this.lanes.laneOf(value, line) : 'main';
    const at = toEpochMs(value['timestamp']);
    if (type === 'system' && value['subtype'] === 'compact_boundary') {
      this.histories.set(lane, []);
      this.compacted.add(lane);
      this.seen(lane, at);
      return;
    }
    if (type !== 'user' && type !== 'assistant') return;
    const message = value['message'];
    if (!isObject(message)) {
      this.errors.push({ file: this.options.file, line, message: `${type} line has no "message" object` });
      return;
    }
    this.messageLines++;
    if (sidechain) this.sidechainLines++;
    let messages = this.histories.get(lane);
    if (messages === undefined) {
      messages = [];
      this.histories.set(lane, messages);
    }
    if (type === 'user') {
      // The summary a compaction starts the history with; a version that wrote no boundary before it starts afresh here.
      if (value['isCompactSummary'] === true && !this.compacted.has(lane)) {
        messages = [];
        this.histories.set(lane, messages);
        this.compacted.add(lane);
      }
      if (this.options.keepMessages) appendBlocks(messages, 'user', blocksOf(message['content']));
      this.seen(lane, at);
      return;
    }
    this.assistant({ line, lane, at, message, messages, requestId: stringField(value, 'requestId'), sessionId: stringField(value, 'sessionId') });
  }

  private seen(lane: string, at: number | null): void {
    this.lastSeen.set(lane, at ?? this.lastSeen.get(lane) ?? null);
  }

  private assistant(line: { line: number; lane: string; at: number | null; message: JsonObject; messages: Message[]; requestId: string | null; sessionId: string | null }): void {
    const { lane, message, messages } = line;
    const id = stringField(message, 'id');
    const model = stringField(message, 'model');
    // Claude Code writes locally generated notices (API errors, interruptions) as assistant lines with the
    // model "<synthetic>": they were never an API call.
    if (model === '<synthetic>' || id === null) {
      this.seen(lane, line.at);
      return;
    }
    let call = this.byId.get(id);
    if (call === undefined || call.history !== messages) {
      if (this.options.keepMessages) messages.push({ role: 'assistant', content: [] });
      const sentAt = this.lastSeen.get(lane) ?? null;
      const compacted = this.compacted.delete(lane);
      const key = callKey(line.requestId, line.sessionId);
      const duplicate = key !== null && this.options.seen !== undefined && !this.options.seen.claim(id, key, this.options.file);
      call = { id, model, history: messages, at: messages.length - 1, lane, usage: null, line: line.line, sentAt, compacted, thread: this.lanes.threadOf(lane), duplicate };
      this.byId.set(id, call);
      this.calls.push(call);
    }
    // A response's later blocks may be written after tool results of its earlier blocks: they still belong to
    // the one assistant message.
    if (this.options.keepMessages) call.history[call.at]!.content.push(...blocksOf(message['content']));
    if (message['usage'] !== undefined) call.usage = message['usage'];
    call.line = line.line;
  }

  /** Ends the walk: the file-level error of a file without messages, and the subagent id of a subagent's own file. */
  finish(): void {
    if (this.messageLines === 0) {
      this.errors.push({ file: this.options.file, line: 0, message: 'a Claude Code file with no user or assistant lines (only session metadata such as summaries or snapshots): no API call to rebuild' });
    }
    // A file whose every message is a sidechain's is a subagent's own transcript.
    if (this.messageLines > 0 && this.sidechainLines === this.messageLines) this.session.agentId = this.firstAgentId;
  }
}

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

/**
 * What names a call beside its message id: the request id, or where a line has none (Bedrock responses, Claude
 * Code up to 1.0.8) the line's session id, as ccusage keys it; null when neither is written.
 */
function callKey(requestId: string | null, sessionId: string | null): string | null {
  if (requestId !== null) return requestId;
  return sessionId === null ? null : `\u0001session:${sessionId}`;
}
