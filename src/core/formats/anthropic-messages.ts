// Anthropic Messages API body → ParsedRequest. Serialization order (the order the prompt cache hashes): tools,
// then system, then messages.

import type { Category, MediaInfo, ParsedRequest, RequestNote, RequestOptions } from '../model.ts';
import { copyWithout, isObject, stringField, type JsonObject } from '../input/json-value.ts';
import { inlineMedia, referencedMedia } from './media.ts';
import { listBlockIdentity, withContentList } from './rendered-identity.ts';
import { addResponseFormat } from './response-format.ts';
import { TASK_BUDGET_PATH } from '../tokens/claude.ts';
import { assembleMessagesRequest, emptyOptions, jsonText } from './request-parts.ts';
import { cacheMarkerOf } from './cache-markers.ts';
import { note } from './notes.ts';
import { SegmentListBuilder, type BlockOwner, type ImportContext, type SegmentSpec } from './segment-builder.ts';
import { utf8Length } from '../text/utf8.ts';

/** Client tool calls and results: the blocks Anthropic's lookback counts as runs. */
const TOOL_USE_TYPES = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);
/** Results of server tools (web search, web fetch, code execution, MCP, advisor, tool search). */
const SERVER_RESULT_TYPE = /^(web_search|web_fetch|code_execution|bash_code_execution|text_editor_code_execution|tool_search_tool|mcp|advisor)_tool_result$/;

export function importAnthropicMessages(body: JsonObject, ctx: ImportContext): ParsedRequest {
  const builder = new SegmentListBuilder(ctx.store, 'anthropic-messages');
  const notes: RequestNote[] = [];

  addTools(builder, body['tools']);
  const outputConfig = body['output_config'];
  if (isObject(outputConfig)) {
    addResponseFormat(builder, outputConfig['format'], 'output_config.format');
    // A task budget is told to the model in hidden text: part of the prompt and of its identity.
    const budget = outputConfig['task_budget'];
    if (isObject(budget)) {
      builder.element(TASK_BUDGET_PATH, -1, budget, () =>
        builder.add({ category: 'system', path: TASK_BUDGET_PATH, text: jsonText(budget), block: budget, messageIndex: -1, role: null, cacheable: false }),
      );
    }
  }
  addResponseFormat(builder, body['output_format'], 'output_format');
  addSystem(builder, body['system']);

  const messages = builder.listOf('messages', body['messages']);
  let systemInMessages = false;
  messages.forEach((message, m) => {
    if (isObject(message) && message['role'] === 'system') systemInMessages = true;
    builder.element('messages', m, message, () => addMessage(builder, message, m));
  });
  if (systemInMessages) notes.push(note('system_role_in_messages'));
  // Server-side compaction: the recorded usage may sum a compaction pass over a much longer prompt.
  if (body['context_management'] !== undefined && body['context_management'] !== null) notes.push(note('context_management'));
  return assembleMessagesRequest(
    { format: 'anthropic-messages', body, builder, options: anthropicOptions(body), topLevelCacheMarker: cacheMarkerOf(body), notes },
    ctx,
  );
}

function addTools(builder: SegmentListBuilder, tools: unknown): void {
  builder.listOf('tools', tools).forEach((tool, i) =>
    builder.element('tools', i, tool, () =>
      builder.add({
        category: 'tools',
        path: `tools[${i}]`,
        text: jsonText(withoutMarker(tool)),
        block: tool,
        messageIndex: -1,
        role: null,
        toolName: isObject(tool) ? stringField(tool, 'name') : null,
        cacheable: true,
      }),
    ),
  );
}

function addSystem(builder: SegmentListBuilder, system: unknown): void {
  if (typeof system === 'string') {
    builder.element('system', -1, system, () =>
      builder.add({
        category: 'system',
        path: 'system',
        text: system,
        block: system,
        // A string system prompt renders as the one text block it stands for.
        identity: { type: 'text', text: system },
        messageIndex: -1,
        role: 'system',
        cacheable: system !== '',
      }),
    );
  } else if (Array.isArray(system)) {
    system.forEach((block, i) => builder.element('system', i, block, () => addBlock({ builder, messageIndex: -1, role: 'system' }, block, `system[${i}]`, null)));
  } else builder.malformed('system', system);
}

function anthropicOptions(body: JsonObject): RequestOptions {
  const options = emptyOptions();
  options.toolChoice = toolChoice(body['tool_choice']);
  const thinking = body['thinking'];
  if (isObject(thinking) && typeof thinking['type'] === 'string' && thinking['type'] !== 'disabled') {
    options.thinking = thinking['type'];
  }
  const effort = isObject(body['output_config']) ? body['output_config']['effort'] : undefined;
  if (typeof effort === 'string') options.thinking = options.thinking ? `${options.thinking}:${effort}` : effort;
  options.stream = body['stream'] === true;
  const mcpServers = body['mcp_servers'];
  options.mcpServers = Array.isArray(mcpServers) && mcpServers.length > 0;
  return options;
}

function addMessage(builder: SegmentListBuilder, value: unknown, m: number): void {
  const path = `messages[${m}]`;
  const message = builder.messageObject(path, value, m);
  if (message === null) return;
  const role = stringField(message, 'role');
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    builder.unknown(path, `role:${role ?? '(none)'}`, message, { messageIndex: m, role });
    return;
  }
  const content = message['content'];
  if (typeof content === 'string') {
    builder.add({
      category: roleCategory(role),
      path: `${path}.content`,
      text: content,
      block: message,
      identity: withContentList(message, 'content', [{ type: 'text', text: content }]),
      messageIndex: m,
      role,
      cacheable: content !== '',
    });
    return;
  }
  const scope: BlockScope = { builder, messageIndex: m, role };
  if (Array.isArray(content)) {
    content.forEach((block, b) => addBlock(scope, block, `${path}.content[${b}]`, { message, index: b }));
  } else if (content !== undefined && content !== null) {
    builder.unknown(`${path}.content`, typeof content, content, scope);
  }
}

function roleCategory(role: string): Category {
  if (role === 'assistant') return 'assistant';
  if (role === 'system') return 'system';
  return 'user';
}

function toolChoice(choice: unknown): string | null {
  if (typeof choice === 'string') return choice;
  if (!isObject(choice) || typeof choice['type'] !== 'string') return null;
  return typeof choice['name'] === 'string' ? `${choice['type']}:${choice['name']}` : choice['type'];
}

function withoutMarker(block: unknown): unknown {
  return isObject(block) && Object.hasOwn(block, 'cache_control') ? copyWithout(block, ['cache_control']) : block;
}

/** Where a message's content block sits, for its identity (see rendered-identity.ts); null outside messages. */
interface BlockPlace {
  message: JsonObject;
  index: number;
}

/** The builder and the owner (message index and role) of the blocks being added. */
interface BlockScope extends BlockOwner {
  readonly builder: SegmentListBuilder;
  readonly role: string;
}

/** Adds a block of one known type (the table below); `identity` as blockIdentity gives it. */
type AddBlock = (scope: BlockScope, block: JsonObject, path: string, identity: unknown) => void;

// Each segment spec below is written out field by field: an object spread costs microseconds per block in V8,
// and a hostile log can hold millions of blocks (a reordered history took 10 µs per block).
const BLOCK_ADDERS = new Map<string, AddBlock>([
  ['text', (scope, block, path, identity) => {
    const { messageIndex, role } = scope;
    const text = stringField(block, 'text') ?? '';
    scope.builder.add({ path, block, identity, messageIndex, role, category: roleCategory(role), text, cacheable: text !== '' });
  }],
  ['image', addMediaBlock],
  ['document', addMediaBlock],
  ['search_result', (scope, block, path, identity) => {
    const { messageIndex, role } = scope;
    scope.builder.add({ path, block, identity, messageIndex, role, category: roleCategory(role), text: flattenText(block['content']), cacheable: true });
  }],
  ['thinking', (scope, block, path, identity) => {
    const { messageIndex, role } = scope;
    scope.builder.add({ path, block, identity, messageIndex, role, category: 'thinking', text: stringField(block, 'thinking') ?? '', cacheable: false });
  }],
  ['redacted_thinking', (scope, block, path, identity) => {
    const { messageIndex, role } = scope;
    scope.builder.add({ path, block, identity, messageIndex, role, category: 'thinking', text: stringField(block, 'data') ?? '', cacheable: false });
  }],
  ['tool_addition', (scope, block, path, identity) => {
    const { messageIndex, role } = scope;
    const tool = block['tool'];
    scope.builder.add({
      path, block, identity, messageIndex, role,
      category: 'tools',
      text: jsonText(tool),
      toolName: isObject(tool) ? (stringField(tool, 'name') ?? stringField(tool, 'tool_name')) : null,
      cacheable: true,
    });
  }],
  ['compaction', (scope, block, path, identity) => {
    const { messageIndex, role } = scope;
    // A summary of earlier turns written by the server; the model reads its content (or the opaque form).
    const text = stringField(block, 'content') ?? stringField(block, 'encrypted_content') ?? '';
    scope.builder.add({ path, block, identity, messageIndex, role, category: roleCategory(role), text, cacheable: text !== '' });
  }],
  ['container_upload', (scope, block, path, identity) => {
    const { messageIndex, role } = scope;
    scope.builder.add({ path, block, identity, messageIndex, role, category: 'document', text: '', media: referencedMedia('document', 'file', null), cacheable: true });
  }],
]);

function addBlock(scope: BlockScope, block: unknown, path: string, place: BlockPlace | null): void {
  if (!isObject(block)) {
    scope.builder.unknown(path, typeof block, block, scope);
    return;
  }
  const type = stringField(block, 'type');
  const identity = blockIdentity(block, place);
  const add = type === null ? undefined : BLOCK_ADDERS.get(type);
  if (add !== undefined) add(scope, block, path, identity);
  else if (type !== null && TOOL_USE_TYPES.has(type)) addToolUse(scope, block, path, identity);
  else if (type === 'tool_result' || (type !== null && SERVER_RESULT_TYPE.test(type))) addToolResult(scope, block, path, identity);
  else scope.builder.unknown(path, type ?? '(no type)', block, scope);
}

function addMediaBlock(scope: BlockScope, block: JsonObject, path: string, identity: unknown): void {
  const { messageIndex, role } = scope;
  const type = block['type'] === 'image' ? 'image' : 'document';
  const media = sourceMedia(type, block['source']);
  if (media === null) {
    scope.builder.unknown(path, `${type}.source:${sourceType(block['source'])}`, block, scope);
    return;
  }
  scope.builder.add({ path, block, identity, messageIndex, role, category: type, text: sourceText(block['source']), media, cacheable: true });
}

function addToolUse(scope: BlockScope, block: JsonObject, path: string, identity: unknown): void {
  const { messageIndex, role } = scope;
  scope.builder.add({
    path, block, identity, messageIndex, role,
    category: 'tool_call',
    text: jsonText(block['input'] ?? {}),
    toolName: stringField(block, 'name'),
    callId: stringField(block, 'id'),
    cacheable: true,
    run: block['type'] === 'tool_use' ? 'tool_use' : null,
  });
}

/**
 * A content block's identity: a tool_result whose content is a string renders as that text in one text block;
 * the first block of a message carries the message (its role) around it.
 */
function blockIdentity(block: JsonObject, place: BlockPlace | null): unknown {
  const content = block['content'];
  const rendered = block['type'] === 'tool_result' && typeof content === 'string' ? withContentList(block, 'content', [{ type: 'text', text: content }]) : block;
  const inMessage = place === null ? undefined : listBlockIdentity(place.message, 'content', rendered, place.index);
  return inMessage ?? (rendered === block ? undefined : rendered);
}

function addToolResult(scope: BlockScope, block: JsonObject, path: string, identity: unknown): void {
  const { messageIndex, role } = scope;
  const nested: SegmentSpec[] = [];
  const content = block['content'];
  let text: string;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) text = resultListText(scope, block, path, nested);
  else text = content === undefined || content === null ? '' : jsonText(content);
  scope.builder.add({
    category: 'tool_result',
    path,
    text,
    block,
    identity,
    messageIndex,
    role,
    callId: stringField(block, 'tool_use_id'),
    cacheable: true,
    run: block['type'] === 'tool_result' ? 'tool_result' : null,
  });
  for (const spec of nested) scope.builder.add(spec);
}

/** The text of a tool result's content list; its images and documents go to `nested` (segments of their own). */
function resultListText(scope: BlockScope, block: JsonObject, path: string, nested: SegmentSpec[]): string {
  const { messageIndex, role } = scope;
  const callId = stringField(block, 'tool_use_id');
  const parts: string[] = [];
  (block['content'] as unknown[]).forEach((item, k) => {
    const itemPath = `${path}.content[${k}]`;
    if (!isObject(item)) {
      parts.push(jsonText(item));
      return;
    }
    const itemType = stringField(item, 'type');
    if (itemType === 'text') parts.push(stringField(item, 'text') ?? '');
    else if (itemType === 'image' || itemType === 'document') {
      const media = sourceMedia(itemType, item['source']);
      if (media === null) parts.push(jsonText(item));
      else {
        const sourced = sourceText(item['source']);
        nested.push({
          category: itemType,
          path: itemPath,
          text: sourced,
          block: item,
          messageIndex,
          role,
          callId,
          media,
          cacheable: false,
          nested: true,
        });
      }
    } else if (itemType === 'search_result') parts.push(flattenText(item['content']));
    else parts.push(jsonText(item));
  });
  return parts.join('\n');
}

function sourceType(source: unknown): string {
  return isObject(source) ? (stringField(source, 'type') ?? '(no type)') : '(none)';
}

/** Media described by an image/document `source`; null for a source type this importer does not know. */
function sourceMedia(kind: 'image' | 'document', source: unknown): MediaInfo | null {
  if (!isObject(source)) return null;
  const mediaType = stringField(source, 'media_type');
  switch (source['type']) {
    case 'base64':
      return inlineMedia(kind, mediaType, stringField(source, 'data') ?? '');
    case 'url':
      return referencedMedia(kind, 'url', mediaType);
    case 'file':
      return referencedMedia(kind, 'file', mediaType);
    case 'text': {
      // A plain-text document: the model reads the text itself, which is what `text` carries.
      const data = stringField(source, 'data') ?? '';
      return { kind, source: 'unknown', mediaType: mediaType ?? 'text/plain', dataBytes: utf8Length(data), width: null, height: null };
    }
    case 'content':
      return { kind, source: 'unknown', mediaType: null, dataBytes: 0, width: null, height: null };
    default:
      return null;
  }
}

/** Text the model reads from a document source: plain-text data or content blocks; '' for binary sources. */
function sourceText(source: unknown): string {
  if (!isObject(source)) return '';
  if (source['type'] === 'text') return stringField(source, 'data') ?? '';
  if (source['type'] === 'content') return flattenText(source['content']);
  return '';
}

/** Text of a string or of an array of text blocks (search results, document content). */
function flattenText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : jsonText(content);
  return content
    .map((item) => (isObject(item) && item['type'] === 'text' ? (stringField(item, 'text') ?? '') : jsonText(item)))
    .join('\n');
}
