// Hand-built ParsedRequest values for token and analysis tests (synthetic, not from any real log).
import { wireIdOf } from '../wire-ids.ts';
import type { Category, MediaInfo, ParsedRequest, Segment, WireFormat } from '../../src/core/model.ts';
import { contentHash } from '../../src/core/text/hash.ts';
import { utf8Length } from '../../src/core/text/utf8.ts';
import { emptyOptions } from '../../src/core/formats/request-parts.ts';

export interface SegmentSpec {
  category: Category;
  text?: string;
  wire?: string;
  messageIndex?: number;
  role?: string | null;
  toolName?: string | null;
  media?: MediaInfo | null;
  path?: string;
}

export function segment(spec: SegmentSpec): Segment {
  const text = spec.text ?? '';
  const wire = spec.wire ?? JSON.stringify(text);
  return {
    category: spec.category,
    path: spec.path ?? `messages[${spec.messageIndex ?? -1}].content`,
    text,
    wire,
    bytes: utf8Length(wire),
    hash: contentHash(wire),
    wireId: wireIdOf(wire),
    cacheMarker: null,
    position: 0,
    messageIndex: spec.messageIndex ?? -1,
    role: spec.role ?? null,
    toolName: spec.toolName ?? null,
    callId: null,
    media: spec.media ?? null,
    cacheable: true,
  };
}

export function request(
  format: WireFormat,
  model: string | null,
  segments: Segment[],
  extra: Partial<ParsedRequest> = {},
): ParsedRequest {
  const messageCount = new Set(segments.filter((s) => s.messageIndex >= 0).map((s) => s.messageIndex)).size;
  return {
    index: 0,
    line: 1,
    file: 0,
    format,
    model,
    segments,
    messageCount,
    topLevelCacheMarker: null,
    unknownShapes: [],
    notes: [],
    customId: null,
    timestamp: null,
    recorded: null,
    options: emptyOptions(),
    ...extra,
  };
}

/** A Chat message with string content as one segment. */
export function chatMessage(index: number, role: string, text: string): Segment {
  const category: Category = role === 'system' || role === 'developer' ? 'system' : role === 'tool' ? 'tool_result' : (role as Category);
  return segment({ category, text, messageIndex: index, role, path: `messages[${index}].content` });
}
