// Anthropic Messages API body → ParsedRequest. Serialization order (the order the prompt cache hashes): tools,
// then system, then messages.

import type { Category, MediaInfo, ParsedRequest, RequestNote } from '../model.ts';
import { copyWithout, isObject, stringField, type JsonObject } from '../input/json-value.ts';
import { inlineMedia, referencedMedia } from './media.ts';
import { listBlockIdentity, withContentList } from './rendered-identity.ts';
import { addResponseFormat } from './response-format.ts';
import { TASK_BUDGET_PATH } from '../tokens/claude.ts';
import { assembleRequest, emptyOptions, jsonText, keepForeignFields } from './request-parts.ts';
import { cacheMarkerOf } from './cache-markers.ts';
import { note } from './notes.ts';
import { SegmentListBuilder, type ImportContext, type SegmentSpec } from './segment-builder.ts';
import { utf8Length } from '../text/utf8.ts';

/** Client tool calls and results: the blocks Anthropic's lookback counts as runs. */
const TOOL_USE_TYPES = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);
/** Results of server tools (web search, web fetch, code execution, MCP, advisor, tool search). */
const SERVER_RESULT_TYPE = /^(web_search|web_fetch|code_execution|bash_code_execution|text_editor_code_execution|tool_search_tool|mcp|advisor)_tool_result$/;

export function importAnthropicMessages(body: JsonObject, ctx: ImportContext): ParsedRequest {
  const builder = new SegmentListBuilder(ctx.store, 'anthropic-messages');
  const notes: RequestNote[] = [];

  const tools = body['tools'];
  if (Array.isArray(tools)) {
    tools.forEach((tool, i) =>
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
  } else builder.malformed('tools', tools);
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

  const system = body['system'];
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
    system.forEach((block, i) => builder.element('system', i, block, () => addBlock(builder, block, `system[${i}]`, -1, 'system', null)));
  } else builder.malformed('system', system);

  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  if (!Array.isArray(body['messages'])) builder.malformed('messages', body['messages']);
  let systemInMessages = false;
  messages.forEach((message, m) => {
    if (isObject(message) && message['role'] === 'system') systemInMessages = true;
    builder.element('messages', m, message, () => addMessage(builder, message, m));
  });
  if (systemInMessages) notes.push(note('system_role_in_messages'));
  // Server-side compaction: the recorded usage may sum a compaction pass over a much longer prompt.
  if (body['context_management'] !== undefined && body['context_management'] !== null) notes.push(note('context_management'));
  if (!Array.isArray(body['messages'])) notes.push(note('missing_message_array'));
  const foreign = keepForeignFields(builder, 'anthropic-messages', body);
  if (foreign) notes.push(foreign);

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

  return assembleRequest(
    {
      format: 'anthropic-messages',
      body,
      builder,
      messageCount: messages.length,
      options,
      topLevelCacheMarker: cacheMarkerOf(body),
      notes,
    },
    ctx,
  );
}

function addMessage(builder: SegmentListBuilder, message: unknown, m: number): void {
  const path = `messages[${m}]`;
  if (!isObject(message)) {
    builder.unknown(path, typeof message, message, m, null);
    return;
  }
  const role = stringField(message, 'role');
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    builder.unknown(path, `role:${role ?? '(none)'}`, message, m, role);
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
  } else if (Array.isArray(content)) {
    content.forEach((block, b) => addBlock(builder, block, `${path}.content[${b}]`, m, role, { message, index: b }));
  } else if (content !== undefined && content !== null) {
    builder.unknown(`${path}.content`, typeof content, content, m, role);
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

function addBlock(
  builder: SegmentListBuilder,
  block: unknown,
  path: string,
  messageIndex: number,
  role: string,
  place: BlockPlace | null,
): void {
  if (!isObject(block)) {
    builder.unknown(path, typeof block, block, messageIndex, role);
    return;
  }
  const type = stringField(block, 'type');
  const identity = blockIdentity(block, place);
  // Each segment spec below is written out field by field: an object spread costs microseconds per block in V8,
  // and a hostile log can hold millions of blocks (a reordered history took 10 µs per block).
  switch (type) {
    case 'text': {
      const text = stringField(block, 'text') ?? '';
      builder.add({ path, block, identity, messageIndex, role, category: roleCategory(role), text, cacheable: text !== '' });
      return;
    }
    case 'image':
    case 'document': {
      const media = sourceMedia(type, block['source']);
      if (media === null) {
        builder.unknown(path, `${type}.source:${sourceType(block['source'])}`, block, messageIndex, role);
        return;
      }
      builder.add({ path, block, identity, messageIndex, role, category: type, text: sourceText(block['source']), media, cacheable: true });
      return;
    }
    case 'search_result': {
      builder.add({ path, block, identity, messageIndex, role, category: roleCategory(role), text: flattenText(block['content']), cacheable: true });
      return;
    }
    case 'thinking':
      builder.add({ path, block, identity, messageIndex, role, category: 'thinking', text: stringField(block, 'thinking') ?? '', cacheable: false });
      return;
    case 'redacted_thinking':
      builder.add({ path, block, identity, messageIndex, role, category: 'thinking', text: stringField(block, 'data') ?? '', cacheable: false });
      return;
    case 'tool_addition': {
      const tool = block['tool'];
      builder.add({
        path, block, identity, messageIndex, role,
        category: 'tools',
        text: jsonText(tool),
        toolName: isObject(tool) ? (stringField(tool, 'name') ?? stringField(tool, 'tool_name')) : null,
        cacheable: true,
      });
      return;
    }
    case 'compaction': {
      // A summary of earlier turns written by the server; the model reads its content (or the opaque form).
      const text = stringField(block, 'content') ?? stringField(block, 'encrypted_content') ?? '';
      builder.add({ path, block, identity, messageIndex, role, category: roleCategory(role), text, cacheable: text !== '' });
      return;
    }
    case 'container_upload':
      builder.add({ path, block, identity, messageIndex, role, category: 'document', text: '', media: referencedMedia('document', 'file', null), cacheable: true });
      return;
    default:
      break;
  }
  if (type !== null && TOOL_USE_TYPES.has(type)) {
    builder.add({
      path, block, identity, messageIndex, role,
      category: 'tool_call',
      text: jsonText(block['input'] ?? {}),
      toolName: stringField(block, 'name'),
      callId: stringField(block, 'id'),
      cacheable: true,
      run: type === 'tool_use' ? 'tool_use' : null,
    });
    return;
  }
  if (type === 'tool_result' || (type !== null && SERVER_RESULT_TYPE.test(type))) {
    addToolResult(builder, block, identity, type, path, messageIndex, role);
    return;
  }
  builder.unknown(path, type ?? '(no type)', block, messageIndex, role);
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

function addToolResult(
  builder: SegmentListBuilder,
  block: JsonObject,
  identity: unknown,
  type: string,
  path: string,
  messageIndex: number,
  role: string,
): void {
  const callId = stringField(block, 'tool_use_id');
  const nested: SegmentSpec[] = [];
  const content = block['content'];
  let text: string;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const parts: string[] = [];
    content.forEach((item, k) => {
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
    text = parts.join('\n');
  } else text = content === undefined || content === null ? '' : jsonText(content);
  builder.add({
    category: 'tool_result',
    path,
    text,
    block,
    identity,
    messageIndex,
    role,
    callId,
    cacheable: true,
    run: type === 'tool_result' ? 'tool_result' : null,
  });
  for (const spec of nested) builder.add(spec);
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
