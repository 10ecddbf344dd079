// OpenAI Responses body → ParsedRequest. Serialization order: tools, a json_schema text.format (category system),
// instructions (category system), then the input string or input items in order.

import type { Category, MediaInfo, ParsedRequest, RequestNote } from '../model.ts';
import { isObject, objectField, stringField, type JsonObject } from '../input/json-value.ts';
import { inlineMedia, mediaFromUrl, referencedMedia } from './media.ts';
import { openAiOptions } from './openai-chat.ts';
import { listBlockIdentity, withContentList } from './rendered-identity.ts';
import { addResponseFormat } from './response-format.ts';
import { assembleRequest, jsonText, keepForeignFields } from './request-parts.ts';
import { note } from './notes.ts';
import { SegmentListBuilder, type BlockOwner, type ImportContext, type SegmentSpec } from './segment-builder.ts';

const ROLE_CATEGORY: Record<string, Category> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
};

/** Hosted-tool call items: the call (and, for some, its result) in one item. */
const CALL_ITEMS = new Set([
  'function_call',
  'custom_tool_call',
  'file_search_call',
  'web_search_call',
  'computer_call',
  'code_interpreter_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
  'mcp_call',
  'mcp_approval_request',
  'tool_search_call',
]);

/** Items that return a result to the model. */
const OUTPUT_ITEMS = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'computer_call_output',
  'local_shell_call_output',
  'shell_call_output',
  'apply_patch_call_output',
  'mcp_approval_response',
  'mcp_list_tools',
  'tool_search_output',
]);

export function importOpenAiResponses(body: JsonObject, ctx: ImportContext): ParsedRequest {
  const builder = new SegmentListBuilder(ctx.store, 'openai-responses');
  const notes: RequestNote[] = [];

  builder.listOf('tools', body['tools']).forEach((tool, i) =>
    builder.element('tools', i, tool, () => {
      const name = isObject(tool) ? (stringField(tool, 'name') ?? stringField(tool, 'server_label') ?? stringField(tool, 'type')) : null;
      builder.add({ category: 'tools', path: `tools[${i}]`, text: jsonText(tool), block: tool, messageIndex: -1, role: null, toolName: name, cacheable: false });
    }),
  );
  const text = objectField(body, 'text');
  if (text !== null) addResponseFormat(builder, text['format'], 'text.format');

  const instructions = body['instructions'];
  if (typeof instructions === 'string') {
    builder.element('instructions', -1, instructions, () =>
      builder.add({ category: 'system', path: 'instructions', text: instructions, block: instructions, messageIndex: -1, role: 'system', cacheable: false }),
    );
  } else if (Array.isArray(instructions)) {
    instructions.forEach((item, i) => builder.element('instructions', i, item, () => addItem({ builder, messageIndex: -1, forced: 'system' }, item, `instructions[${i}]`)));
  } else builder.malformed('instructions', instructions);

  const input = body['input'];
  let messageCount = 0;
  if (typeof input === 'string') {
    messageCount = 1;
    builder.element('input', -1, input, () =>
      builder.add({ category: 'user', path: 'input', text: input, block: input, messageIndex: 0, role: 'user', cacheable: false }),
    );
  } else if (Array.isArray(input)) {
    messageCount = input.length;
    input.forEach((item, i) => builder.element('input', i, item, () => addItem({ builder, messageIndex: i, forced: null }, item, `input[${i}]`)));
    if (input.some((item) => isObject(item) && item['type'] === 'item_reference')) notes.push(note('item_reference'));
  } else builder.malformed('input', input);
  if (typeof input !== 'string' && !Array.isArray(input)) notes.push(note('missing_message_array'));
  const foreign = keepForeignFields(builder, 'openai-responses', body);
  if (foreign) notes.push(foreign);

  const options = openAiOptions(body);
  if (typeof body['previous_response_id'] === 'string' && body['previous_response_id'] !== '') {
    options.previousResponseId = true;
    notes.push(note('previous_response_id'));
  }
  return assembleRequest(
    { format: 'openai-responses', body, builder, messageCount, options, topLevelCacheMarker: null, notes },
    ctx,
  );
}

/** An item's builder, its message index (-1 for instructions) and the category its messages are forced to. */
interface ItemScope {
  readonly builder: SegmentListBuilder;
  readonly messageIndex: number;
  readonly forced: Category | null;
}

/** What a content part's segment carries from its message: index, role, category. */
interface PartOwner extends BlockOwner {
  readonly category: Category;
}

function addItem(scope: ItemScope, item: unknown, path: string): void {
  const { builder, messageIndex } = scope;
  if (!isObject(item)) {
    builder.unknown(path, typeof item, item, { messageIndex, role: null });
    return;
  }
  const type = stringField(item, 'type');
  // A message may omit `type` (EasyInputMessage: just role + content).
  if (type === 'message' || (type === null && typeof item['role'] === 'string')) addMessage(scope, item, path);
  else if (type === null) builder.unknown(path, '(no type)', item, { messageIndex, role: null });
  else if (CALL_ITEMS.has(type)) addCall(builder, item, path, messageIndex);
  else if (OUTPUT_ITEMS.has(type)) addOutput(scope, item, type, path);
  else {
    const spec = itemSpec(type, item, path, messageIndex);
    if (spec === null) builder.unknown(path, type, item, { messageIndex, role: null });
    else builder.add(spec);
  }
}

function addCall(builder: SegmentListBuilder, item: JsonObject, path: string, index: number): void {
  builder.add({
    path, block: item, messageIndex: index, role: null,
    category: 'tool_call',
    text: callText(item),
    toolName: stringField(item, 'name') ?? stringField(item, 'server_label'),
    callId: stringField(item, 'call_id') ?? stringField(item, 'id'),
    cacheable: false,
    run: 'tool_use',
  });
}

/** The segment of an item that is neither a message, a call nor an output; null for a type not known here. */
function itemSpec(type: string, item: JsonObject, path: string, index: number): SegmentSpec | null {
  // Spec fields written out, not spread from a shared object: a spread costs microseconds per item in V8.
  switch (type) {
    case 'reasoning': {
      // Encrypted reasoning is what the model reads back; without it, the summary / reasoning text.
      const encrypted = stringField(item, 'encrypted_content');
      return { path, block: item, messageIndex: index, role: null, category: 'thinking', text: encrypted ?? [textsOf(item['summary']), textsOf(item['content'])].filter(Boolean).join('\n'), cacheable: false };
    }
    case 'image_generation_call': {
      // The generated image, sent back as base64 PNG: the model sees an image, not that text.
      const result = stringField(item, 'result');
      return {
        path, block: item, messageIndex: index, role: null,
        category: 'image',
        text: '',
        media: result !== null ? inlineMedia('image', 'image/png', result) : referencedMedia('image', 'unknown', null),
        callId: stringField(item, 'id'),
        cacheable: false,
      };
    }
    case 'item_reference':
      // Noted once per request by the caller: its content is server-side state.
      return { path, block: item, messageIndex: index, role: null, category: 'other', text: '', cacheable: false };
    case 'compaction':
      // An opaque summary of earlier turns the model reads back.
      return { path, block: item, messageIndex: index, role: null, category: 'other', text: stringField(item, 'encrypted_content') ?? '', cacheable: false };
    case 'additional_tools':
      return { path, block: item, messageIndex: index, role: null, category: 'tools', text: jsonText(item['tools'] ?? item), cacheable: false };
    case 'compaction_trigger':
    case 'program':
    case 'program_output':
      return { path, block: item, messageIndex: index, role: null, category: 'other', text: jsonText(item), cacheable: false };
    default:
      return null;
  }
}

function addMessage(scope: ItemScope, item: JsonObject, path: string): void {
  const { builder, messageIndex: index } = scope;
  const role = stringField(item, 'role');
  const category = scope.forced ?? (role === null ? undefined : ROLE_CATEGORY[role]);
  if (category === undefined) {
    builder.unknown(path, `role:${role ?? '(none)'}`, item, { messageIndex: index, role });
    return;
  }
  const owner: PartOwner = { messageIndex: index, role, category };
  const content = item['content'];
  if (typeof content === 'string') {
    // Renders as the one text part it stands for (output_text in an assistant message, input_text elsewhere).
    const part = { type: role === 'assistant' ? 'output_text' : 'input_text', text: content };
    builder.add({ category, path: `${path}.content`, text: content, block: item, identity: withContentList(item, 'content', [part]), messageIndex: index, role, cacheable: false });
    return;
  }
  if (!Array.isArray(content)) {
    builder.unknown(`${path}.content`, typeof content, content, owner);
    return;
  }
  content.forEach((part, p) => {
    const spec = partSpec(part, `${path}.content[${p}]`, owner);
    if (spec === null) builder.unknown(`${path}.content[${p}]`, partType(part), part, owner);
    else {
      // partSpec's object is this part's own: completed in place rather than copied by a spread.
      spec.identity = listBlockIdentity(item, 'content', part, p);
      builder.add(spec);
    }
  });
}

function partType(part: unknown): string {
  return isObject(part) ? (stringField(part, 'type') ?? '(no type)') : typeof part;
}

/** The segment of one content part, or null for a part this importer does not know. */
function partSpec(part: unknown, path: string, owner: PartOwner): SegmentSpec | null {
  if (!isObject(part)) return null;
  const { messageIndex, role, category } = owner;
  switch (stringField(part, 'type')) {
    case 'input_text':
      return { path, block: part, messageIndex, role, category, text: stringField(part, 'text') ?? '', cacheable: true };
    case 'output_text':
    case 'text':
    case 'summary_text':
    case 'reasoning_text':
      return { path, block: part, messageIndex, role, category, text: stringField(part, 'text') ?? '', cacheable: false };
    case 'refusal':
      return { path, block: part, messageIndex, role, category: 'assistant', text: stringField(part, 'refusal') ?? '', cacheable: false };
    case 'input_image':
    case 'computer_screenshot':
      return { path, block: part, messageIndex, role, category: 'image', text: '', media: imagePartMedia(part), cacheable: true };
    case 'input_file':
      return { path, block: part, messageIndex, role, category: 'document', text: '', media: filePartMedia(part), cacheable: true };
    case 'input_audio':
      return { path, block: part, messageIndex, role, category: 'audio', text: '', media: audioPartMedia(part), cacheable: true };
    default:
      return null;
  }
}

function imagePartMedia(part: JsonObject): MediaInfo {
  const url = stringField(part, 'image_url');
  return url !== null ? mediaFromUrl('image', url) : referencedMedia('image', stringField(part, 'file_id') ? 'file' : 'unknown', null);
}

function filePartMedia(part: JsonObject): MediaInfo {
  const data = stringField(part, 'file_data');
  if (data !== null) return mediaFromUrl('document', data, 'application/pdf');
  return stringField(part, 'file_url') !== null ? referencedMedia('document', 'url', null) : referencedMedia('document', 'file', null);
}

function audioPartMedia(part: JsonObject): MediaInfo {
  const audio = objectField(part, 'input_audio');
  const data = audio ? stringField(audio, 'data') : null;
  const format = audio ? stringField(audio, 'format') : null;
  return data !== null ? mediaFromUrl('audio', `data:audio/${format ?? 'wav'};base64,${data}`) : referencedMedia('audio', 'unknown', null);
}

/** A tool call's text: its arguments / input / action, else the item's JSON. */
function callText(item: JsonObject): string {
  for (const key of ['arguments', 'input', 'code', 'action', 'query', 'queries']) {
    const value = item[key];
    if (typeof value === 'string') return withOutput(value, item);
    if (value !== undefined && value !== null) return withOutput(jsonText(value), item);
  }
  return jsonText(item);
}

/** mcp_call items carry their result too; the model reads both. */
function withOutput(text: string, item: JsonObject): string {
  const output = item['output'];
  if (typeof output === 'string' && output !== '') return `${text}\n${output}`;
  return text;
}

function addOutput(scope: ItemScope, item: JsonObject, type: string, path: string): void {
  const { builder, messageIndex: index } = scope;
  const owner: PartOwner = { messageIndex: index, role: null, category: 'tool_result' };
  const callId = stringField(item, 'call_id') ?? stringField(item, 'approval_request_id') ?? stringField(item, 'id');
  const toolName = stringField(item, 'server_label');
  const output = type === 'mcp_list_tools' ? item['tools'] : (item['output'] ?? item['tools'] ?? item['approve']);
  if (Array.isArray(output) && output.length > 0 && type !== 'mcp_list_tools') {
    // One segment per part, like a message's content: each part keeps its own cache marker, and the first
    // carries the item (its call_id) so the output's routing stays part of its identity.
    output.forEach((part, k) => {
      const partPath = `${path}.output[${k}]`;
      const identity = listBlockIdentity(item, 'output', part, k);
      const spec = partSpec(part, partPath, owner);
      const text = spec === null ? jsonText(part) : spec.text;
      builder.add(
        spec !== null && spec.media
          ? { ...spec, identity, callId, run: 'tool_result' }
          : { block: part, messageIndex: index, role: null, callId, toolName, identity, path: partPath, category: 'tool_result', text, cacheable: spec?.cacheable ?? false, run: 'tool_result' },
      );
    });
    return;
  }
  const nested: SegmentSpec[] = [];
  let text: string;
  let identity: unknown;
  if (typeof output === 'string') {
    text = output;
    // A string output renders as the one input_text part it stands for.
    identity = withContentList(item, 'output', [{ type: 'input_text', text: output }]);
  } else if (Array.isArray(output) && type !== 'mcp_list_tools') text = '';
  else if (isObject(output)) {
    // A single part (a computer_call_output screenshot) or structured output.
    const spec = partSpec(output, `${path}.output`, owner);
    if (spec !== null && spec.media) {
      nested.push({ ...spec, callId, cacheable: false, nested: true });
      text = '';
    } else text = spec !== null ? spec.text : jsonText(output);
  } else text = output === undefined || output === null ? '' : jsonText(output);
  builder.add({ block: item, messageIndex: index, role: null, callId, toolName, identity, path, category: 'tool_result', text, cacheable: false, run: 'tool_result' });
  for (const spec of nested) builder.add(spec);
}

function textsOf(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts.map((p) => (isObject(p) ? (stringField(p, 'text') ?? '') : '')).filter(Boolean).join('\n');
}
