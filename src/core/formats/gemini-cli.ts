// Gemini CLI chat recordings (~/.gemini/tmp/<project hash>/chats/session-*.json, or .jsonl in later versions) →
// the requests the agent sent, one per `gemini` message that records `tokens` (the usageMetadata of the call that
// produced it; gemini-cli's TokensSummary: input = promptTokenCount including cached, output = candidates, cached,
// thoughts, tool = toolUsePromptTokenCount). The request of a message is every earlier message: user text, the
// model's text and tool calls, each call's recorded result. `info`/`error`/`warning` messages were never sent;
// thoughts are not sent back. The document form is `{sessionId, projectHash, startTime, messages[]}`; the JSONL form
// (gemini-cli's chatRecordingService) is a metadata line, message lines (a message written again with the same id
// replaces it), `{$set}` updates (a `messages` array there is a checkpoint that replaces the history) and
// `{$rewindTo: id}`, which drops that message and all after it from the history (calls already made stay
// requests: they were sent and billed). A call seen in an earlier file of the read (a `.json` session migrated
// whole into a `.jsonl` when resumed) is counted once, by session id and message id. There is no Gemini wire format here: requests are rebuilt as Chat
// Completions bodies so every segment is counted (an OpenAI-tokenizer estimate for a Gemini model); Google's cache
// rules are not modelled, and each request says so; the Gemini model's prices are (pricing/gemini.ts). The system prompt and tools are not recorded.

import type { ParsedRequest, ReadError, RecordedUsage } from '../model.ts';
import { isObject, numberField, stringField, type JsonObject } from '../input/json-value.ts';
import { toEpochMs } from '../input/timestamp.ts';
import type { SessionLink, TranscriptContext, TranscriptImport, TranscriptImporter, TranscriptRecord } from './types.ts';
import { note } from './notes.ts';
import { importRebuilt } from './transcript-requests.ts';

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

function isMetadata(value: unknown): value is JsonObject {
  return isObject(value) && typeof value['sessionId'] === 'string' && typeof value['projectHash'] === 'string';
}

function isMessage(value: unknown): value is JsonObject {
  return isObject(value) && typeof value['id'] === 'string' && MESSAGE_TYPES.has(String(value['type']));
}

/** Recorded usage in Anthropic's sense: cached tokens out of the input; thoughts are billed as output. */
export function geminiRecorded(tokens: unknown): RecordedUsage | null {
  if (!isObject(tokens)) return null;
  const input = numberField(tokens, 'input');
  if (input === null) return null;
  const cached = numberField(tokens, 'cached') ?? 0;
  const toolPrompt = numberField(tokens, 'tool') ?? 0;
  return {
    input: Math.max(0, input - cached) + toolPrompt,
    cacheRead: cached,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
    output: (numberField(tokens, 'output') ?? 0) + (numberField(tokens, 'thoughts') ?? 0),
  };
}

/** The text of a PartListUnion (a string, a part, or parts); non-text parts are kept as their JSON. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
  return parts
    .map((part) => (typeof part === 'string' ? part : isObject(part) && typeof part['text'] === 'string' ? part['text'] : JSON.stringify(part)))
    .join('');
}

/** A tool call's recorded result as the tool message's text: the functionResponse's `response`, else the parts. */
function resultText(result: unknown): string {
  const parts = Array.isArray(result) ? result : [result];
  const texts: string[] = [];
  for (const part of parts) {
    if (isObject(part) && isObject(part['functionResponse'])) {
      const response = part['functionResponse']['response'];
      texts.push(typeof response === 'string' ? response : JSON.stringify(response ?? null));
    } else if (part !== undefined && part !== null) texts.push(partsText(part));
  }
  return texts.join('\n');
}

/** One recorded message as the Chat Completions messages it contributes to later requests. */
function chatMessages(message: JsonObject): JsonObject[] {
  const type = message['type'];
  if (type === 'user') return [{ role: 'user', content: partsText(message['content']) }];
  if (type !== 'gemini') return [];
  const calls = Array.isArray(message['toolCalls']) ? message['toolCalls'].filter(isObject) : [];
  const text = partsText(message['content']);
  // A turn of tool calls only has no text: Chat Completions says so with `content: null`.
  const assistant: JsonObject = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
  if (calls.length > 0) {
    assistant['tool_calls'] = calls.map((call, i) => ({
      id: stringField(call, 'id') ?? `call_${i}`,
      type: 'function',
      function: { name: stringField(call, 'name') ?? '', arguments: JSON.stringify(call['args'] ?? {}) },
    }));
  }
  const out = [assistant];
  calls.forEach((call, i) => {
    if (call['result'] === undefined || call['result'] === null) return;
    out.push({ role: 'tool', tool_call_id: stringField(call, 'id') ?? `call_${i}`, content: resultText(call['result']) });
  });
  return out;
}

/** A call: the message that records its tokens, and the ids of the history before it when it was made. */
interface Call {
  id: string;
  before: string[];
  line: number;
}

export const geminiCliImporter: TranscriptImporter = {
  id: 'gemini-cli',
  matchesName: () => false,
  matchesRecords: (first) => {
    const head = first[0]?.value;
    if (!isMetadata(head)) return false;
    if (Array.isArray(head['messages'])) return head['messages'].length === 0 || head['messages'].some(isMessage);
    // JSONL: the metadata line, then message, `$set` and `$rewindTo` lines.
    return first.slice(1).every((r) => isMessage(r.value) || (isObject(r.value) && ('$set' in r.value || '$rewindTo' in r.value)));
  },
  importFile(records: readonly TranscriptRecord[], ctx: TranscriptContext): TranscriptImport {
    const errors: ReadError[] = [];
    const latest = new Map<string, JsonObject>();
    let live: string[] = [];
    const calls: Call[] = [];
    const called = new Set<string>();
    const session: SessionLink = { sessionId: null, agentId: null, startedBy: null, subagentTasks: {} };

    let inHistory = new Set<string>();
    const take = (message: JsonObject, line: number) => {
      const id = message['id'] as string;
      if (!inHistory.has(id)) {
        if (message['type'] === 'gemini' && !called.has(id)) {
          calls.push({ id, before: [...live], line });
          called.add(id);
        }
        live.push(id);
        inHistory.add(id);
      }
      latest.set(id, message);
    };
    const cutHistory = (length: number) => {
      live = live.slice(0, length);
      inHistory = new Set(live);
    };

    for (const { line, value } of records) {
      if (!isObject(value)) continue;
      if (isMetadata(value)) {
        session.sessionId ??= stringField(value, 'sessionId');
        if (Array.isArray(value['messages'])) value['messages'].forEach((m, i) => (isMessage(m) ? take(m, line) : errors.push(bad(ctx, line, `messages[${i}]`))));
        continue;
      }
      if (typeof value['$rewindTo'] === 'string') {
        const at = live.indexOf(value['$rewindTo']);
        cutHistory(at === -1 ? 0 : at);
        continue;
      }
      const update = value['$set'];
      if (isObject(update)) {
        const checkpoint: unknown = update['messages'];
        if (Array.isArray(checkpoint)) {
          cutHistory(0);
          for (const m of checkpoint as unknown[]) if (isMessage(m)) take(m, line);
        }
        continue;
      }
      if (isMessage(value)) take(value, line);
      else errors.push(bad(ctx, line, 'line'));
    }

    const requests: ParsedRequest[] = [];
    for (const call of calls) {
      const message = latest.get(call.id)!;
      const recorded = geminiRecorded(message['tokens']);
      // A response whose tokens were never written (interrupted, or a later call of the same turn) is no recorded call.
      if (recorded === null) continue;
      if (copiedCall(ctx, session.sessionId, call.id)) continue;
      const history = call.before.flatMap((id) => chatMessages(latest.get(id)!));
      const model = stringField(message, 'model');
      const request = importRebuilt(
        {
          format: 'openai-chat',
          body: { model, messages: history },
          line: call.line,
          timestamp: sentAt(call.before.map((id) => latest.get(id)!), message),
          recorded,
          missing: ['transcript_missing_system', 'transcript_missing_tools'],
        },
        ctx,
      );
      request.notes.push({ ...note('provider_not_modelled'), message: `${note('provider_not_modelled').message}; recorded: ${breakdown(message['tokens'] as JsonObject)}` });
      requests.push(request);
    }
    return { requests, errors, session };
  },
};

/**
 * Whether an earlier file of the read or folder counted this call already: a `.json` session resumed by a later
 * gemini-cli is written whole into a new `.jsonl` beside it (chatRecordingService migrates the record and leaves
 * the `.json`), so both hold its calls, under the same session id and message ids.
 */
function copiedCall(ctx: TranscriptContext, sessionId: string | null, messageId: string): boolean {
  if (sessionId === null || ctx.seenCalls === undefined) return false;
  return !ctx.seenCalls.claim(`gemini-cli\u0000${sessionId}`, messageId, ctx.file);
}

function bad(ctx: TranscriptContext, line: number, where: string): ReadError {
  return { file: ctx.file, line, message: `Gemini CLI ${where} is not a message record (no string "id" and a type of user, gemini, info, error, warning)` };
}

/** The call left after the last message before it (the user's turn or a tool result), else at its own time. */
function sentAt(before: JsonObject[], message: JsonObject): number | null {
  const previous = before[before.length - 1];
  return (previous ? toEpochMs(previous['timestamp']) : null) ?? toEpochMs(message['timestamp']);
}

function breakdown(tokens: JsonObject): string {
  const n = (key: string) => (numberField(tokens, key) ?? 0).toLocaleString('en-US');
  return `${n('input')} input (${n('cached')} cached), ${n('output')} output, ${n('thoughts')} thoughts, ${n('tool')} tool-use prompt`;
}
