// OpenAI Chat Completions body → ParsedRequest. Serialization order: tools (rendered into a hidden system text),
// a json_schema response_format (rendered there too; category system), then messages in order; a system or developer message is simply messages[i] with category system.

import type { Category, ParsedRequest, RequestNote, RequestOptions } from '../model.ts';
import { copyWithout, isObject, objectField, stringField, type JsonObject } from '../input/json-value.ts';
import { inlineMedia, mediaFromUrl, referencedMedia } from './media.ts';
import { listBlockIdentity, withContentList } from './rendered-identity.ts';
import { addResponseFormat } from './response-format.ts';
import { assembleRequest, emptyOptions, jsonText, keepForeignFields } from './request-parts.ts';
import { note } from './notes.ts';
import { SegmentListBuilder, type ImportContext } from './segment-builder.ts';

const ROLE_CATEGORY: Record<string, Category> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool_result',
  function: 'tool_result',
};

export function importOpenAiChat(body: JsonObject, ctx: ImportContext): ParsedRequest {
  const builder = new SegmentListBuilder(ctx.store, 'openai-chat');

  const tools = body['tools'];
  if (Array.isArray(tools)) tools.forEach((tool, i) => builder.element('tools', i, tool, () => addToolDefinition(builder, tool, `tools[${i}]`)));
  else builder.malformed('tools', tools);
  // Legacy function calling (`functions` instead of `tools`).
  const functions = body['functions'];
  if (Array.isArray(functions)) {
    functions.forEach((fn, i) => builder.element('functions', i, fn, () => addToolDefinition(builder, fn, `functions[${i}]`)));
  }
  addResponseFormat(builder, body['response_format'], 'response_format');

  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  if (!Array.isArray(body['messages'])) builder.malformed('messages', body['messages']);
  messages.forEach((message, m) => builder.element('messages', m, message, () => addMessage(builder, message, m)));
  const notes: RequestNote[] = [];
  if (!Array.isArray(body['messages'])) notes.push(note('missing_message_array'));
  const foreign = keepForeignFields(builder, 'openai-chat', body);
  if (foreign) notes.push(foreign);

  return assembleRequest(
    {
      format: 'openai-chat',
      body,
      builder,
      messageCount: messages.length,
      options: openAiOptions(body),
      topLevelCacheMarker: null,
      notes,
    },
    ctx,
  );
}

function addToolDefinition(builder: SegmentListBuilder, tool: unknown, path: string): void {
  let name: string | null = null;
  if (isObject(tool)) {
    const fn = objectField(tool, 'function') ?? objectField(tool, 'custom');
    name = fn ? stringField(fn, 'name') : stringField(tool, 'name');
  }
  builder.add({ category: 'tools', path, text: jsonText(tool), block: tool, messageIndex: -1, role: null, toolName: name, cacheable: false });
}

function addMessage(builder: SegmentListBuilder, message: unknown, m: number): void {
  const path = `messages[${m}]`;
  if (!isObject(message)) {
    builder.unknown(path, typeof message, message, m, null);
    return;
  }
  const role = stringField(message, 'role');
  const category = role === null ? undefined : ROLE_CATEGORY[role];
  if (role === null || category === undefined) {
    builder.unknown(path, `role:${role ?? '(none)'}`, message, m, role);
    return;
  }
  const isResult = category === 'tool_result';
  const callId = isResult ? stringField(message, 'tool_call_id') : null;
  const toolName = isResult ? stringField(message, 'name') : null;
  const run = isResult ? ('tool_result' as const) : null;
  const content = message['content'];
  // The message without its tool calls: what its content's identity carries (role, name, tool_call_id).
  const container = messageWithout(message, ['tool_calls', 'function_call']);
  if (typeof content === 'string') {
    // A string content has no block of its own: the message is the block, rendered as a one-text-part list.
    builder.add({
      category,
      path: `${path}.content`,
      text: content,
      block: container,
      identity: withContentList(container, 'content', [{ type: 'text', text: content }]),
      messageIndex: m,
      role,
      callId,
      toolName,
      cacheable: false,
      run,
    });
  } else if (Array.isArray(content)) {
    content.forEach((part, p) =>
      addPart(builder, part, `${path}.content[${p}]`, m, role, category, callId, toolName, listBlockIdentity(container, 'content', part, p)),
    );
  } else if (content !== null && content !== undefined) {
    builder.unknown(`${path}.content`, typeof content, content, m, role);
  }
  const refusal = stringField(message, 'refusal');
  if (refusal !== null && role === 'assistant') {
    builder.add({ category: 'assistant', path: `${path}.refusal`, text: refusal, block: { refusal }, messageIndex: m, role, cacheable: false });
  }
  const toolCalls = message['tool_calls'];
  if (Array.isArray(toolCalls)) {
    toolCalls.forEach((call, c) => addToolCall(builder, call, `${path}.tool_calls[${c}]`, m, role));
  }
  const functionCall = objectField(message, 'function_call');
  if (functionCall !== null) {
    builder.add({
      category: 'tool_call',
      path: `${path}.function_call`,
      text: stringField(functionCall, 'arguments') ?? '',
      block: functionCall,
      messageIndex: m,
      role,
      toolName: stringField(functionCall, 'name'),
      cacheable: false,
      run: 'tool_use',
    });
  }
}

function addToolCall(builder: SegmentListBuilder, call: unknown, path: string, m: number, role: string): void {
  if (!isObject(call)) {
    builder.unknown(path, typeof call, call, m, role);
    return;
  }
  const fn = objectField(call, 'function');
  const custom = objectField(call, 'custom');
  if (fn === null && custom === null) {
    builder.unknown(path, `tool_call:${stringField(call, 'type') ?? '(no type)'}`, call, m, role);
    return;
  }
  builder.add({
    category: 'tool_call',
    path,
    // Function arguments are already JSON text; a custom tool's input is free text.
    text: fn ? (stringField(fn, 'arguments') ?? '') : (stringField(custom!, 'input') ?? ''),
    block: call,
    messageIndex: m,
    role,
    toolName: stringField(fn ?? custom!, 'name'),
    callId: stringField(call, 'id'),
    cacheable: false,
    run: 'tool_use',
  });
}

function addPart(
  builder: SegmentListBuilder,
  part: unknown,
  path: string,
  m: number,
  role: string,
  category: Category,
  callId: string | null,
  toolName: string | null,
  identity: unknown,
): void {
  if (!isObject(part)) {
    builder.unknown(path, typeof part, part, m, role);
    return;
  }
  const type = stringField(part, 'type');
  const run = category === 'tool_result' ? ('tool_result' as const) : null;
  // Spec fields written out, not spread from a shared object: a spread costs microseconds per part in V8.
  // Breakpoints are accepted on input parts, not on assistant output.
  const cacheable = role !== 'assistant';
  switch (type) {
    case 'text':
      builder.add({ path, block: part, identity, messageIndex: m, role, callId, toolName, run, category, text: stringField(part, 'text') ?? '', cacheable });
      return;
    case 'refusal':
      builder.add({ path, block: part, identity, messageIndex: m, role, callId, toolName, run, category: 'assistant', text: stringField(part, 'refusal') ?? '', cacheable: false });
      return;
    case 'image_url': {
      const image = part['image_url'];
      const url = isObject(image) ? stringField(image, 'url') : typeof image === 'string' ? image : null;
      if (url === null) break;
      builder.add({ path, block: part, identity, messageIndex: m, role, callId, toolName, run, category: 'image', text: '', media: mediaFromUrl('image', url), cacheable });
      return;
    }
    case 'input_audio': {
      const audio = objectField(part, 'input_audio');
      if (audio === null) break;
      const format = stringField(audio, 'format');
      builder.add({
        path, block: part, identity, messageIndex: m, role, callId, toolName, run,
        category: 'audio',
        text: '',
        media: inlineMedia('audio', format ? `audio/${format}` : null, stringField(audio, 'data') ?? ''),
        cacheable,
      });
      return;
    }
    case 'file': {
      const file = objectField(part, 'file');
      if (file === null) break;
      const data = stringField(file, 'file_data');
      const media = data !== null ? mediaFromUrl('document', data, 'application/pdf') : referencedMedia('document', 'file', null);
      builder.add({ path, block: part, identity, messageIndex: m, role, callId, toolName, run, category: 'document', text: '', media, cacheable });
      return;
    }
    default:
      break;
  }
  builder.unknown(path, type ?? '(no type)', part, m, role);
}

function messageWithout(message: JsonObject, keys: string[]): JsonObject {
  return keys.some((key) => Object.hasOwn(message, key)) ? copyWithout(message, keys) : message;
}

/** Options shared by Chat Completions and Responses bodies. */
export function openAiOptions(body: JsonObject): RequestOptions {
  const options = emptyOptions();
  const choice = body['tool_choice'];
  if (typeof choice === 'string') options.toolChoice = choice;
  else if (isObject(choice)) {
    const type = stringField(choice, 'type') ?? 'object';
    const fn = objectField(choice, 'function');
    const name = (fn ? stringField(fn, 'name') : null) ?? stringField(choice, 'name');
    options.toolChoice = name ? `${type}:${name}` : type;
  }
  const reasoning = objectField(body, 'reasoning');
  options.thinking = stringField(body, 'reasoning_effort') ?? (reasoning ? stringField(reasoning, 'effort') : null);
  options.promptCacheKey = stringField(body, 'prompt_cache_key');
  options.cacheRoutingUser = stringField(body, 'user');
  options.promptCacheRetention = stringField(body, 'prompt_cache_retention');
  const cacheOptions = objectField(body, 'prompt_cache_options');
  const mode = cacheOptions ? cacheOptions['mode'] : null;
  options.promptCacheMode = mode === 'implicit' || mode === 'explicit' ? mode : null;
  options.stream = body['stream'] === true;
  return options;
}
