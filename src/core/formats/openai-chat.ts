// OpenAI Chat Completions body → ParsedRequest. Serialization order: tools (rendered into a hidden system text),
// a json_schema response_format (rendered there too; category system), then messages in order; a system or developer message is simply messages[i] with category system.

import type { Category, MediaInfo, ParsedRequest, RequestOptions } from '../model.ts';
import { copyWithout, isObject, objectField, stringField, type JsonObject } from '../input/json-value.ts';
import { inlineMedia, mediaFromUrl, referencedMedia } from './media.ts';
import { listBlockIdentity, withContentList } from './rendered-identity.ts';
import { addResponseFormat } from './response-format.ts';
import { assembleMessagesRequest, emptyOptions, jsonText } from './request-parts.ts';
import { SegmentListBuilder, type BlockOwner, type ImportContext } from './segment-builder.ts';

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

  builder.listOf('tools', body['tools']).forEach((tool, i) => builder.element('tools', i, tool, () => addToolDefinition(builder, tool, `tools[${i}]`)));
  // Legacy function calling (`functions` instead of `tools`).
  const functions = body['functions'];
  if (Array.isArray(functions)) {
    functions.forEach((fn, i) => builder.element('functions', i, fn, () => addToolDefinition(builder, fn, `functions[${i}]`)));
  }
  addResponseFormat(builder, body['response_format'], 'response_format');

  builder.listOf('messages', body['messages']).forEach((message, m) => builder.element('messages', m, message, () => addMessage(builder, message, m)));
  return assembleMessagesRequest({ format: 'openai-chat', body, builder, options: openAiOptions(body), topLevelCacheMarker: null, notes: [] }, ctx);
}

function addToolDefinition(builder: SegmentListBuilder, tool: unknown, path: string): void {
  let name: string | null = null;
  if (isObject(tool)) {
    const fn = objectField(tool, 'function') ?? objectField(tool, 'custom');
    name = fn ? stringField(fn, 'name') : stringField(tool, 'name');
  }
  builder.add({ category: 'tools', path, text: jsonText(tool), block: tool, messageIndex: -1, role: null, toolName: name, cacheable: false });
}

/** One message's builder and what each of its parts carries (made once a message, on the path that builds it). */
interface MessageScope extends BlockOwner {
  readonly builder: SegmentListBuilder;
  readonly role: string;
  readonly category: Category;
  readonly callId: string | null;
  readonly toolName: string | null;
  readonly run: 'tool_result' | null;
  /** Breakpoints are accepted on input parts, not on assistant output. */
  readonly cacheable: boolean;
}

function addMessage(builder: SegmentListBuilder, value: unknown, m: number): void {
  const path = `messages[${m}]`;
  const message = builder.messageObject(path, value, m);
  if (message === null) return;
  const role = stringField(message, 'role');
  const category = role === null ? undefined : ROLE_CATEGORY[role];
  if (role === null || category === undefined) {
    builder.unknown(path, `role:${role ?? '(none)'}`, message, { messageIndex: m, role });
    return;
  }
  const isResult = category === 'tool_result';
  const scope: MessageScope = {
    builder,
    messageIndex: m,
    role,
    category,
    callId: isResult ? stringField(message, 'tool_call_id') : null,
    toolName: isResult ? stringField(message, 'name') : null,
    run: isResult ? 'tool_result' : null,
    cacheable: role !== 'assistant',
  };
  addContent(scope, message, path);
  const refusal = stringField(message, 'refusal');
  if (refusal !== null && role === 'assistant') {
    builder.add({ category: 'assistant', path: `${path}.refusal`, text: refusal, block: { refusal }, messageIndex: m, role, cacheable: false });
  }
  const toolCalls = message['tool_calls'];
  if (Array.isArray(toolCalls)) {
    toolCalls.forEach((call, c) => addToolCall(scope, call, `${path}.tool_calls[${c}]`));
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

/** A message's content: one text, or a list of parts. */
function addContent(scope: MessageScope, message: JsonObject, path: string): void {
  const { builder, messageIndex, role, category, callId, toolName, run } = scope;
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
      messageIndex,
      role,
      callId,
      toolName,
      cacheable: false,
      run,
    });
  } else if (Array.isArray(content)) {
    content.forEach((part, p) => addPart(scope, part, `${path}.content[${p}]`, listBlockIdentity(container, 'content', part, p)));
  } else if (content !== null && content !== undefined) {
    builder.unknown(`${path}.content`, typeof content, content, scope);
  }
}

function addToolCall(scope: MessageScope, call: unknown, path: string): void {
  const { builder, messageIndex, role } = scope;
  if (!isObject(call)) {
    builder.unknown(path, typeof call, call, scope);
    return;
  }
  const fn = objectField(call, 'function');
  const custom = objectField(call, 'custom');
  if (fn === null && custom === null) {
    builder.unknown(path, `tool_call:${stringField(call, 'type') ?? '(no type)'}`, call, scope);
    return;
  }
  builder.add({
    category: 'tool_call',
    path,
    // Function arguments are already JSON text; a custom tool's input is free text.
    text: fn ? (stringField(fn, 'arguments') ?? '') : (stringField(custom!, 'input') ?? ''),
    block: call,
    messageIndex,
    role,
    toolName: stringField(fn ?? custom!, 'name'),
    callId: stringField(call, 'id'),
    cacheable: false,
    run: 'tool_use',
  });
}

function addPart(scope: MessageScope, part: unknown, path: string, identity: unknown): void {
  const { builder, messageIndex: m, role, callId, toolName, run, cacheable } = scope;
  if (!isObject(part)) {
    builder.unknown(path, typeof part, part, scope);
    return;
  }
  const type = stringField(part, 'type');
  // Spec fields written out, not spread from a shared object: a spread costs microseconds per part in V8.
  switch (type) {
    case 'text':
      builder.add({ path, block: part, identity, messageIndex: m, role, callId, toolName, run, category: scope.category, text: stringField(part, 'text') ?? '', cacheable });
      return;
    case 'refusal':
      builder.add({ path, block: part, identity, messageIndex: m, role, callId, toolName, run, category: 'assistant', text: stringField(part, 'refusal') ?? '', cacheable: false });
      return;
    default: {
      const media = partMedia(type, part);
      if (media === null) break;
      builder.add({ path, block: part, identity, messageIndex: m, role, callId, toolName, run, category: media.kind, text: '', media, cacheable });
      return;
    }
  }
  builder.unknown(path, type ?? '(no type)', part, scope);
}

/** The media of an image, audio or file part; null for another type or a part without its media object. */
function partMedia(type: string | null, part: JsonObject): MediaInfo | null {
  switch (type) {
    case 'image_url': {
      const image = part['image_url'];
      const url = isObject(image) ? stringField(image, 'url') : typeof image === 'string' ? image : null;
      return url === null ? null : mediaFromUrl('image', url);
    }
    case 'input_audio': {
      const audio = objectField(part, 'input_audio');
      if (audio === null) return null;
      const format = stringField(audio, 'format');
      return inlineMedia('audio', format ? `audio/${format}` : null, stringField(audio, 'data') ?? '');
    }
    case 'file': {
      const file = objectField(part, 'file');
      if (file === null) return null;
      const data = stringField(file, 'file_data');
      return data !== null ? mediaFromUrl('document', data, 'application/pdf') : referencedMedia('document', 'file', null);
    }
    default:
      return null;
  }
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
