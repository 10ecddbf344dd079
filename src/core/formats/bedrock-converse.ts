// An Amazon Bedrock Converse call (`POST /model/{modelId}/converse` or `/converse-stream`) as it travels over HTTP:
// its body rebuilt as an Anthropic Messages body (Converse is Bedrock's own shape of the same conversation) and its
// recorded usage. Request shape per the Bedrock runtime API reference (Converse): `messages[]` of
// `{role, content[]}` where a block is `text`, `image`, `document`, `toolUse`, `toolResult`, `reasoningContent` or
// `cachePoint` (a cache breakpoint after the block before it); `system[]` of `{text}` / `{cachePoint}`;
// `toolConfig.tools[]` of `{toolSpec: {name, description, inputSchema: {json}}}` / `{cachePoint}`;
// `inferenceConfig.maxTokens`. Usage (`usage` of the response, or of a stream's `metadata` event):
// `inputTokens` (the uncached input: the cache tokens are counted apart, as Anthropic counts them),
// `outputTokens`, `cacheReadInputTokens`, `cacheWriteInputTokens`.

import type { RecordedUsage } from '../model.ts';
import { isObject, numberField, stringField, type JsonObject } from '../input/json-value.ts';

const CONVERSE = /\/model\/([^/?#]+)\/converse(?:-stream)?\/?(?:[?#]|$)/;

/** Whether a URL is a Bedrock Converse call. */
export function isConverseCall(url: string): boolean {
  return CONVERSE.test(url);
}

/** The model a Converse URL names (`/model/us.anthropic.claude-sonnet-4-5%3A0/converse` → its decoded id). */
export function converseModel(url: string): string | null {
  const match = CONVERSE.exec(url);
  if (match === null) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}

/** Whether a Bedrock model id is a Claude model (the others are not modelled here: no Anthropic tokenizer or cache). */
export function isClaudeModel(model: string | null): boolean {
  return model !== null && /(^|[.:/])anthropic\.|claude/i.test(model);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function cacheControl(point: JsonObject): JsonObject {
  const ttl = stringField(point, 'ttl');
  return ttl === null ? { type: 'ephemeral' } : { type: 'ephemeral', ttl };
}

/** Converse blocks → Messages blocks; a `cachePoint` marks the block before it, as `cache_control` does. */
function blocks(content: unknown[], convert: (block: JsonObject) => JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    const point = block['cachePoint'];
    if (isObject(point)) {
      const last = out.at(-1);
      if (last !== undefined) out[out.length - 1] = { ...last, cache_control: cacheControl(point) };
      continue;
    }
    out.push(convert(block));
  }
  return out;
}

function bytesSource(source: unknown, mediaType: string): JsonObject {
  if (isObject(source) && typeof source['text'] === 'string') return { type: 'text', media_type: 'text/plain', data: source['text'] };
  const data = isObject(source) && typeof source['bytes'] === 'string' ? source['bytes'] : '';
  return { type: 'base64', media_type: mediaType, data };
}

function resultContent(content: unknown): JsonObject[] {
  return list(content).flatMap((part): JsonObject[] => {
    if (!isObject(part)) return [];
    if (typeof part['text'] === 'string') return [{ type: 'text', text: part['text'] }];
    if ('json' in part) return [{ type: 'text', text: JSON.stringify(part['json']) }];
    return [contentBlock(part)];
  });
}

function contentBlock(block: JsonObject): JsonObject {
  if (typeof block['text'] === 'string') return { type: 'text', text: block['text'] };
  const image = block['image'];
  if (isObject(image)) return { type: 'image', source: bytesSource(image['source'], `image/${stringField(image, 'format') ?? 'png'}`) };
  const document = block['document'];
  if (isObject(document)) return { type: 'document', source: bytesSource(document['source'], `application/${stringField(document, 'format') ?? 'pdf'}`) };
  const use = block['toolUse'];
  if (isObject(use)) return { type: 'tool_use', id: stringField(use, 'toolUseId') ?? '', name: stringField(use, 'name') ?? '', input: use['input'] ?? {} };
  const result = block['toolResult'];
  if (isObject(result)) {
    const out: JsonObject = { type: 'tool_result', tool_use_id: stringField(result, 'toolUseId') ?? '', content: resultContent(result['content']) };
    if (result['status'] === 'error') out['is_error'] = true;
    return out;
  }
  const reasoning = block['reasoningContent'];
  if (isObject(reasoning)) {
    const text = reasoning['reasoningText'];
    if (isObject(text)) return { type: 'thinking', thinking: stringField(text, 'text') ?? '', signature: stringField(text, 'signature') ?? '' };
    if (typeof reasoning['redactedContent'] === 'string') return { type: 'redacted_thinking', data: reasoning['redactedContent'] };
  }
  // Any other block (citationsContent, guardContent, video, …) is kept as it is: its bytes still count.
  return block;
}

function tool(spec: JsonObject): JsonObject {
  const toolSpec = isObject(spec['toolSpec']) ? spec['toolSpec'] : spec;
  const schema = toolSpec['inputSchema'];
  const out: JsonObject = { name: stringField(toolSpec, 'name') ?? '', input_schema: isObject(schema) && 'json' in schema ? schema['json'] : (schema ?? {}) };
  const description = stringField(toolSpec, 'description');
  if (description !== null) out['description'] = description;
  return out;
}

/** A Converse request body as the Anthropic Messages body it stands for. */
export function converseAsMessages(body: JsonObject, model: string | null): JsonObject {
  const out: JsonObject = {};
  if (model !== null) out['model'] = model;
  const config = body['inferenceConfig'];
  const maxTokens = isObject(config) ? numberField(config, 'maxTokens') : null;
  if (maxTokens !== null) out['max_tokens'] = maxTokens;
  const system = blocks(list(body['system']), contentBlock);
  if (system.length > 0) out['system'] = system;
  const toolConfig = body['toolConfig'];
  const tools = isObject(toolConfig) ? blocks(list(toolConfig['tools']), tool) : [];
  if (tools.length > 0) out['tools'] = tools;
  out['messages'] = list(body['messages']).map((message) => {
    if (!isObject(message)) return message;
    return { role: stringField(message, 'role') ?? 'user', content: blocks(list(message['content']), contentBlock) };
  });
  return out;
}

/** The usage a Converse response records: the last `usage` with `inputTokens` (the body's, or a stream's metadata). */
export function converseRecordedUsage(chunks: readonly unknown[]): RecordedUsage | null {
  let usage: JsonObject | null = null;
  for (const chunk of chunks) {
    if (!isObject(chunk)) continue;
    const metadata = isObject(chunk['metadata']) ? chunk['metadata'] : chunk;
    const candidate = metadata['usage'];
    if (isObject(candidate) && numberField(candidate, 'inputTokens') !== null) usage = candidate;
  }
  if (usage === null) return null;
  const count = (key: string) => numberField(usage, key) ?? 0;
  return { input: count('inputTokens'), cacheRead: count('cacheReadInputTokens'), cacheWrite5m: count('cacheWriteInputTokens'), cacheWrite1h: 0, output: count('outputTokens') };
}
