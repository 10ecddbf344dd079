// A Gemini API call (generateContent / streamGenerateContent, on the Gemini API or Vertex AI) as it travels over
// HTTP: its body rebuilt as a Chat Completions body (there is no Gemini wire format; see gemini-cli.ts) and its
// recorded usageMetadata in Anthropic's sense. Request shape per the API reference: `contents[]` of
// `{role: user|model, parts[]}` where a part is `text`, `inlineData`, `fileData`, `functionCall` or
// `functionResponse`; `systemInstruction` (`system_instruction` in REST snake case) and `tools[].functionDeclarations`.

import type { RecordedUsage } from '../model.ts';
import { isObject, numberField, stringField, type JsonObject } from '../input/json-value.ts';
import { geminiRecorded } from './gemini-cli.ts';

/** Whether a URL is a Gemini model call: `…/models/<model>:generateContent` or `:streamGenerateContent`. */
export function isGeminiCall(url: string): boolean {
  return /\/models\/[^/:?]+:(?:stream)?generateContent(?:$|\?)/i.test(url);
}

/** The model a Gemini call URL names (`…/models/gemini-2.5-flash:generateContent` → gemini-2.5-flash). */
export function geminiModel(url: string): string | null {
  const match = /\/models\/([^/:?]+):/.exec(url);
  return match ? decodeURIComponent(match[1]!) : null;
}

function field(body: JsonObject, camel: string, snake: string): unknown {
  return body[camel] ?? body[snake];
}

/** The text of a part; non-text parts are kept as their JSON so their bytes still count. */
function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (isObject(part) && typeof part['text'] === 'string') return part['text'];
  return JSON.stringify(part ?? null);
}

function parts(content: unknown): unknown[] {
  if (!isObject(content)) return [];
  return Array.isArray(content['parts']) ? (content['parts'] as unknown[]) : [];
}

function callOf(part: unknown): JsonObject | null {
  if (!isObject(part)) return null;
  const call = part['functionCall'] ?? part['function_call'];
  return isObject(call) ? call : null;
}

function responseOf(part: unknown): JsonObject | null {
  if (!isObject(part)) return null;
  const response = part['functionResponse'] ?? part['function_response'];
  return isObject(response) ? response : null;
}

/** One `contents[]` entry as the Chat Completions messages it stands for. */
function contentMessages(content: unknown, callIds: { next: number }): JsonObject[] {
  const role = isObject(content) ? content['role'] : undefined;
  const all = parts(content);
  const calls = all.map(callOf).filter((call): call is JsonObject => call !== null);
  const results = all.map(responseOf).filter((result): result is JsonObject => result !== null);
  const text = all
    .filter((part) => callOf(part) === null && responseOf(part) === null)
    .map(partText)
    .join('');
  const out: JsonObject[] = [];
  if (role === 'model') {
    const assistant: JsonObject = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
    if (calls.length > 0) {
      assistant['tool_calls'] = calls.map((call) => ({
        id: stringField(call, 'id') ?? `call_${callIds.next++}`,
        type: 'function',
        function: { name: stringField(call, 'name') ?? '', arguments: JSON.stringify(call['args'] ?? {}) },
      }));
    }
    out.push(assistant);
    return out;
  }
  for (const result of results) {
    const response = result['response'];
    out.push({ role: 'tool', tool_call_id: stringField(result, 'id') ?? stringField(result, 'name') ?? '', content: typeof response === 'string' ? response : JSON.stringify(response ?? null) });
  }
  if (text !== '' || results.length === 0) out.push({ role: 'user', content: text });
  return out;
}

function chatTools(tools: unknown): JsonObject[] {
  if (!Array.isArray(tools)) return [];
  const out: JsonObject[] = [];
  for (const tool of tools) {
    if (!isObject(tool)) continue;
    const declarations = tool['functionDeclarations'] ?? tool['function_declarations'];
    if (!Array.isArray(declarations)) continue;
    for (const declaration of declarations) {
      if (!isObject(declaration)) continue;
      const fn: JsonObject = { name: stringField(declaration, 'name') ?? '' };
      if (typeof declaration['description'] === 'string') fn['description'] = declaration['description'];
      const parameters = declaration['parameters'] ?? declaration['parametersJsonSchema'];
      if (parameters !== undefined) fn['parameters'] = parameters;
      out.push({ type: 'function', function: fn });
    }
  }
  return out;
}

/** A generateContent body as the Chat Completions body the rest of ctxray reads (model from the URL). */
export function geminiAsChat(body: JsonObject, model: string | null): JsonObject {
  const messages: JsonObject[] = [];
  const system = field(body, 'systemInstruction', 'system_instruction');
  const systemText = typeof system === 'string' ? system : parts(system).map(partText).join('');
  if (systemText !== '') messages.push({ role: 'system', content: systemText });
  const callIds = { next: 0 };
  const contents = Array.isArray(body['contents']) ? (body['contents'] as unknown[]) : [];
  for (const content of contents) messages.push(...contentMessages(content, callIds));
  const chat: JsonObject = { model: model ?? stringField(body, 'model'), messages };
  const tools = chatTools(body['tools']);
  if (tools.length > 0) chat['tools'] = tools;
  return chat;
}

/** The usageMetadata of one response object or stream chunk, or null. */
export function geminiUsageMetadata(value: unknown): JsonObject | null {
  if (!isObject(value)) return null;
  const usage = value['usageMetadata'] ?? value['usage_metadata'];
  return isObject(usage) ? usage : null;
}

/**
 * The recorded usage of a Gemini response: the last usageMetadata of its chunks (each stream chunk carries the
 * running totals). promptTokenCount includes the cached tokens; thoughts are billed as output.
 */
export function geminiRecordedUsage(chunks: readonly unknown[]): RecordedUsage | null {
  let last: JsonObject | null = null;
  for (const chunk of chunks) last = geminiUsageMetadata(chunk) ?? last;
  if (last === null) return null;
  const count = (key: string) => numberField(last, key) ?? 0;
  if (numberField(last, 'promptTokenCount') === null) return null;
  return geminiRecorded({
    input: count('promptTokenCount'),
    cached: count('cachedContentTokenCount'),
    output: count('candidatesTokenCount'),
    thoughts: count('thoughtsTokenCount'),
    tool: count('toolUsePromptTokenCount'),
  });
}
