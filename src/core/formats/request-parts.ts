// The parts of a ParsedRequest every importer shares: default options, content fields of another wire format, and
// the assembly of the request itself.

import type { CacheMarker, ParsedRequest, RequestNote, RequestOptions, WireFormat } from '../model.ts';
import type { JsonObject } from '../input/json-value.ts';
import { OUTSIDE_MESSAGES, type ImportContext, type SegmentListBuilder } from './segment-builder.ts';
import { note } from './notes.ts';

export function emptyOptions(): RequestOptions {
  return {
    toolChoice: null,
    thinking: null,
    promptCacheKey: null,
    cacheRoutingUser: null,
    promptCacheRetention: null,
    promptCacheMode: null,
    stream: false,
    previousResponseId: false,
    mcpServers: false,
  };
}

/**
 * Top-level fields that carry prompt content in each wire format (tools are common to all three). A body read
 * under the wrong format (`--format anthropic` on a Responses body) would otherwise lose another format's fields
 * without a word.
 */
const CONTENT_FIELDS: Record<WireFormat, readonly string[]> = {
  'anthropic-messages': ['system', 'messages'],
  'openai-chat': ['messages', 'functions'],
  'openai-responses': ['instructions', 'input'],
};

/**
 * Keep every content field that belongs to another wire format as an `other` segment at its own path (so its
 * tokens still count and the unknown-shape list names it) and return the note that says so, or null.
 */
export function keepForeignFields(builder: SegmentListBuilder, format: WireFormat, body: JsonObject): RequestNote | null {
  const own = new Set(CONTENT_FIELDS[format]);
  let found = false;
  for (const [other, fields] of Object.entries(CONTENT_FIELDS)) {
    if (other === format) continue;
    for (const field of fields) {
      if (own.has(field) || !(field in body) || body[field] === null) continue;
      own.add(field); // a field two other formats share is kept once
      builder.unknown(field, `foreign:${field}`, body[field], OUTSIDE_MESSAGES);
      found = true;
    }
  }
  return found ? note('foreign_fields') : null;
}


export interface RequestParts {
  format: WireFormat;
  body: JsonObject;
  builder: SegmentListBuilder;
  messageCount: number;
  options: RequestOptions;
  topLevelCacheMarker: CacheMarker | null;
  notes: RequestNote[];
}

export function assembleRequest(parts: RequestParts, ctx: ImportContext): ParsedRequest {
  const model = typeof parts.body['model'] === 'string' ? parts.body['model'] : null;
  const notes = [...parts.notes];
  if (model === null) notes.push(note('no_model'));
  if (parts.builder.hasLoneSurrogate) notes.push(note('lone_surrogate'));
  if (parts.builder.unknownShapes.length > 0) notes.push(note('unknown_shapes'));
  return {
    index: ctx.index,
    line: ctx.line,
    file: ctx.file,
    format: parts.format,
    model,
    segments: parts.builder.segments,
    messageCount: parts.messageCount,
    topLevelCacheMarker: parts.topLevelCacheMarker,
    unknownShapes: parts.builder.unknownShapes,
    notes,
    customId: null,
    timestamp: null,
    recorded: null,
    options: parts.options,
  };
}

/**
 * The request of a body whose prompt is its `messages` list (Chat Completions, Messages): noted last when the list
 * is missing and when fields of another format's content are kept.
 */
export function assembleMessagesRequest(parts: Omit<RequestParts, 'messageCount'>, ctx: ImportContext): ParsedRequest {
  const messages = parts.body['messages'];
  if (!Array.isArray(messages)) parts.notes.push(note('missing_message_array'));
  const foreign = keepForeignFields(parts.builder, parts.format, parts.body);
  if (foreign) parts.notes.push(foreign);
  return assembleRequest({ ...parts, messageCount: Array.isArray(messages) ? messages.length : 0 }, ctx);
}

/** JSON of a value for `text` (tool definitions, call arguments, structured results). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? '';
}

