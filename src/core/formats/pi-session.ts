// pi coding-agent sessions (`~/.pi/agent/sessions/<cwd-slug>/*.jsonl`, versions 1–3) → the requests the agent sent.
// The file is a tree; the context of the session is the path from the last entry back to the root, with pi's v1
// migration applied (src/core/clearing/journal/parse.ts reads the tree for both uses). Every assistant message on
// that path is one API call: its request is the context before it, with any compaction on the way applied (the
// summary, then the entries from `firstKeptEntryId` on). Errored or aborted assistant messages were sent, so they
// are requests, but pi leaves them out of later contexts. The request's wire format follows the message's `api`.
// pi does not record the system prompt or the tool definitions: each request says so.

import type { ParsedRequest, ReadError, RecordedUsage, WireFormat } from '../model.ts';
import { isObject, numberField, stringField, type JsonObject } from '../input/json-value.ts';
import { toEpochMs } from '../input/timestamp.ts';
import { parseJournalRecords, contextPath, type JournalEntry } from '../clearing/journal/parse.ts';
import type { TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';
import { importRebuilt } from './transcript-requests.ts';

const API_FORMAT: Record<string, WireFormat> = {
  'anthropic-messages': 'anthropic-messages',
  'openai-responses': 'openai-responses',
  'openai-codex-responses': 'openai-responses',
  'azure-openai-responses': 'openai-responses',
  'openai-completions': 'openai-chat',
};

type PiMessage = JsonObject;

function recorded(usage: unknown): RecordedUsage | null {
  if (!isObject(usage)) return null;
  const input = numberField(usage, 'input');
  if (input === null) return null;
  // pi's usage.input excludes cache tokens for every provider (prompt = input + cacheRead + cacheWrite).
  return { input, cacheRead: numberField(usage, 'cacheRead') ?? 0, cacheWrite5m: numberField(usage, 'cacheWrite') ?? 0, cacheWrite1h: 0, output: numberField(usage, 'output') ?? 0 };
}

/** The messages an entry contributes to the model's context, as pi's session context builder does. */
function contextMessage(entry: JournalEntry): PiMessage | null {
  const raw = entry.raw;
  if (entry.type === 'message' && isObject(raw['message'])) return raw['message'];
  if (entry.type === 'branch_summary' && typeof raw['summary'] === 'string') return { role: 'branchSummary', summary: raw['summary'] };
  if (entry.type === 'custom_message' && raw['display'] !== false) return { role: 'custom', content: raw['content'] };
  return null;
}

/** The context path rebuilt step by step: entries with compactions applied, as the model saw it at each call. */
function* callsAlongPath(
  path: JournalEntry[],
): Generator<{ entry: JournalEntry; message: PiMessage; context: PiMessage[]; sentAt: number | null; compacted: boolean }> {
  let context: { id: string; message: PiMessage }[] = [];
  /** A compaction entry since the call before: the next call carries the record. */
  let compacted = false;
  // The request left when the entry before the answer was written.
  let latestAt: number | null = null;
  for (const entry of path) {
    const at = entryTime(entry);
    if (entry.type === 'compaction') {
      const keptFrom = context.findIndex((c) => c.id === entry.raw['firstKeptEntryId']);
      const kept = keptFrom === -1 ? [] : context.slice(keptFrom);
      context = [{ id: entry.id, message: { role: 'compactionSummary', summary: entry.raw['summary'] } }, ...kept];
      compacted = true;
      latestAt = at ?? latestAt;
      continue;
    }
    const message = contextMessage(entry);
    if (message !== null && message['role'] === 'assistant') {
      yield { entry, message, context: context.map((c) => c.message), sentAt: latestAt, compacted };
      compacted = false;
      const stop = stringField(message, 'stopReason');
      if (stop !== 'error' && stop !== 'aborted') context.push({ id: entry.id, message });
    } else if (message !== null) context.push({ id: entry.id, message });
    latestAt = at ?? latestAt;
  }
}

function entryTime(entry: JournalEntry): number | null {
  const message = entry.raw['message'];
  return (isObject(message) ? toEpochMs(message['timestamp']) : null) ?? toEpochMs(entry.raw['timestamp']);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (isObject(c) && c['type'] === 'text' && typeof c['text'] === 'string' ? c['text'] : '')).join('\n');
}

function images(content: unknown): JsonObject[] {
  if (!Array.isArray(content)) return [];
  return content.filter((c): c is JsonObject => isObject(c) && c['type'] === 'image');
}

/** Messages that reach the model as user text (bash runs, summaries, custom messages), as pi renders them. */
function userText(message: PiMessage): string | null {
  switch (message['role']) {
    case 'bashExecution':
      return `Ran \`${String(message['command'] ?? '')}\`\n\`\`\`\n${String(message['output'] ?? '')}\n\`\`\``;
    case 'compactionSummary':
      return `The conversation history before this point was compacted into the following summary:\n\n<summary>\n${String(message['summary'] ?? '')}\n</summary>`;
    case 'branchSummary':
      return `The following is a summary of a branch that this conversation came back from:\n\n<summary>\n${String(message['summary'] ?? '')}\n</summary>`;
    case 'custom':
      return textOf(message['content']);
    default:
      return null;
  }
}

// ---- Anthropic Messages ---------------------------------------------------------------------------------------
/** What one pi message becomes in an Anthropic body: its message, or the blocks it adds to a tool-result run. */
interface AnthropicPart {
  element: { role: string; content: JsonObject[] };
  /** Tool results only: consecutive ones travel in one user message, as pi-ai sends them. */
  toolResults: boolean;
}

function anthropicPart(message: PiMessage): AnthropicPart | null {
  const role = message['role'];
  let blocks: JsonObject[];
  let blockRole = 'user';
  if (role === 'user') {
    const content = message['content'];
    blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : (Array.isArray(content) ? content : []).filter(isObject).map(anthropicUserPart);
  } else if (role === 'assistant') {
    blocks = (Array.isArray(message['content']) ? message['content'] : []).filter(isObject).map(anthropicAssistantPart).filter((b): b is JsonObject => b !== null);
    if (blocks.length === 0) return null;
    blockRole = 'assistant';
  } else if (role === 'toolResult') {
    const content: JsonObject[] = [{ type: 'text', text: textOf(message['content']) }, ...images(message['content']).map(anthropicUserPart)];
    blocks = [{ type: 'tool_result', tool_use_id: message['toolCallId'], content, is_error: message['isError'] === true }];
  } else {
    const text = userText(message);
    if (text === null) return null;
    blocks = [{ type: 'text', text }];
  }
  return { element: { role: blockRole, content: blocks }, toolResults: blocks.length > 0 && blocks.every((b) => b['type'] === 'tool_result') };
}

function anthropicBody(model: string | null, context: PiMessage[], parts: Converted<AnthropicPart | null>): JsonObject {
  const messages: AnthropicPart['element'][] = [];
  let lastToolResults = false;
  for (const message of context) {
    const part = parts.of(message);
    if (part === null) continue;
    const last = messages[messages.length - 1];
    // A run of tool results is one message: a new element, the converted blocks shared.
    if (last !== undefined && lastToolResults && part.toolResults && last.role === part.element.role) {
      messages[messages.length - 1] = { role: last.role, content: [...last.content, ...part.element.content] };
    } else messages.push(part.element);
    lastToolResults = part.toolResults;
  }
  return { model, messages };
}

function anthropicUserPart(part: JsonObject): JsonObject {
  if (part['type'] === 'image') return { type: 'image', source: { type: 'base64', media_type: part['mimeType'], data: part['data'] } };
  return { type: 'text', text: typeof part['text'] === 'string' ? part['text'] : '' };
}

function anthropicAssistantPart(part: JsonObject): JsonObject | null {
  switch (part['type']) {
    case 'text':
      return { type: 'text', text: part['text'] };
    case 'thinking':
      return part['redacted'] === true
        ? { type: 'redacted_thinking', data: part['thinkingSignature'] }
        : { type: 'thinking', thinking: part['thinking'], signature: part['thinkingSignature'] ?? '' };
    case 'toolCall':
      return { type: 'tool_use', id: part['id'], name: part['name'], input: part['arguments'] ?? {} };
    default:
      return null;
  }
}

// ---- OpenAI Responses -----------------------------------------------------------------------------------------
/** The input items one pi message becomes in a Responses body. */
function responsesItems(message: PiMessage): JsonObject[] {
  const role = message['role'];
  if (role === 'user') {
    const content = message['content'];
    const parts = typeof content === 'string' ? [{ type: 'input_text', text: content }] : (Array.isArray(content) ? content : []).filter(isObject).map((p) => (p['type'] === 'image' ? { type: 'input_image', image_url: `data:${String(p['mimeType'])};base64,${String(p['data'])}` } : { type: 'input_text', text: p['text'] }));
    return [{ type: 'message', role: 'user', content: parts }];
  }
  if (role === 'assistant') {
    const items: JsonObject[] = [];
    for (const part of (Array.isArray(message['content']) ? message['content'] : []).filter(isObject)) {
      if (part['type'] === 'text') items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: part['text'] }] });
      else if (part['type'] === 'thinking') items.push({ type: 'reasoning', summary: [{ type: 'summary_text', text: part['thinking'] }], encrypted_content: part['thinkingSignature'] ?? null });
      else if (part['type'] === 'toolCall') items.push({ type: 'function_call', call_id: part['id'], name: part['name'], arguments: JSON.stringify(part['arguments'] ?? {}) });
    }
    return items;
  }
  if (role === 'toolResult') return [{ type: 'function_call_output', call_id: message['toolCallId'], output: textOf(message['content']) }];
  const text = userText(message);
  return text === null ? [] : [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }];
}

function responsesBody(model: string | null, context: PiMessage[], items: Converted<JsonObject[]>): JsonObject {
  const input: JsonObject[] = [];
  for (const message of context) for (const item of items.of(message)) input.push(item);
  return { model, input };
}

// ---- OpenAI Chat Completions ----------------------------------------------------------------------------------
/** The Chat Completions message one pi message becomes, or null. */
function chatMessage(message: PiMessage): JsonObject | null {
  const role = message['role'];
  if (role === 'user') return { role: 'user', content: typeof message['content'] === 'string' ? message['content'] : textOf(message['content']) };
  if (role === 'assistant') {
    const parts = (Array.isArray(message['content']) ? message['content'] : []).filter(isObject);
    const calls = parts.filter((p) => p['type'] === 'toolCall').map((p) => ({ id: p['id'], type: 'function', function: { name: p['name'], arguments: JSON.stringify(p['arguments'] ?? {}) } }));
    const text = parts.filter((p) => p['type'] === 'text').map((p) => String(p['text'] ?? '')).join('');
    return calls.length > 0 ? { role: 'assistant', content: text === '' ? null : text, tool_calls: calls } : { role: 'assistant', content: text };
  }
  if (role === 'toolResult') return { role: 'tool', tool_call_id: message['toolCallId'], content: textOf(message['content']) };
  const text = userText(message);
  return text === null ? null : { role: 'user', content: text };
}

function chatBody(model: string | null, context: PiMessage[], converted: Converted<JsonObject | null>): JsonObject {
  const messages: JsonObject[] = [];
  for (const message of context) {
    const chatForm = converted.of(message);
    if (chatForm !== null) messages.push(chatForm);
  }
  return { model, messages };
}

/**
 * Each pi message converted once per wire format and read: every call's request holds the whole context, so
 * converting it again per call (joining each tool result's text anew) cost time in the square of the calls, and
 * the importers' element cache then had to compare fresh copies. Shared elements are found by identity.
 * Bodies are never mutated (the wire importers only read them), so sharing their parts is safe.
 */
class Converted<T> {
  private readonly known = new Map<PiMessage, T>();

  constructor(private readonly convert: (message: PiMessage) => T) {}

  of(message: PiMessage): T {
    if (this.known.has(message)) return this.known.get(message) as T;
    const value = this.convert(message);
    this.known.set(message, value);
    return value;
  }
}

/** Builds the bodies of one file's calls, in whichever wire format each call used. */
function bodyBuilders(): Record<WireFormat, (model: string | null, context: PiMessage[]) => JsonObject> {
  const anthropic = new Converted(anthropicPart);
  const responses = new Converted(responsesItems);
  const chat = new Converted(chatMessage);
  return {
    'anthropic-messages': (model, context) => anthropicBody(model, context, anthropic),
    'openai-responses': (model, context) => responsesBody(model, context, responses),
    'openai-chat': (model, context) => chatBody(model, context, chat),
  };
}

function isPiHeader(value: unknown): boolean {
  return isObject(value) && value['type'] === 'session' && typeof value['id'] === 'string';
}

export const piSessionImporter: TranscriptImporter = {
  id: 'pi-session',
  recordsCompactions: true,
  matchesName: () => false,
  matchesRecords: (first) => first.length > 0 && isPiHeader(first[0]!.value),
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport {
    const parsed = parseJournalRecords(records, { readForks: true });
    if (!parsed.ok) {
      const where = parsed.skip.field ? ` (field ${parsed.skip.field})` : '';
      return { requests: [], errors: [{ file: ctx.file, line: parsed.skip.line ?? 1, message: `pi session not readable: ${parsed.skip.reason}${where}` }] };
    }
    const path = contextPath(parsed.journal);
    if (path === null) return { requests: [], errors: [{ file: ctx.file, line: 1, message: 'pi session tree has a cycle' }] };
    const errors: ReadError[] = [];
    const requests: ParsedRequest[] = [];
    const bodies = bodyBuilders();
    for (const { entry, message, context, sentAt, compacted } of callsAlongPath(path)) {
      const api = stringField(message, 'api') ?? 'anthropic-messages';
      const format = API_FORMAT[api];
      if (format === undefined) {
        errors.push({ file: ctx.file, line: entry.line, message: `assistant message on api "${api.slice(0, 40)}" is not a wire format ctxray rebuilds (anthropic-messages, openai-responses, openai-completions)` });
        continue;
      }
      const model = stringField(message, 'model');
      requests.push(importRebuilt({ format, body: bodies[format](model, context), line: entry.line, timestamp: sentAt, recorded: recorded(message['usage']), missing: ['transcript_missing_system', 'transcript_missing_tools'], compacted }, ctx));
    }
    return { requests, errors };
  },
};
