// Hand-made requests for the conversation, findings and near-duplicate tests (synthetic, not from any real log).
import { wireIdOf } from '../wire-ids.ts';
import type { CacheMarker, ParsedRequest, Segment, WireFormat } from '../../src/core/model.ts';
import { contentHash } from '../../src/core/text/hash.ts';
import { emptyOptions } from '../../src/core/formats/request-parts.ts';

export interface SyntheticTool {
  name: string;
  /** Wire JSON of the definition; defaults to a small schema with keys in the usual order. */
  wire?: string;
}

export interface SyntheticMessage {
  role: 'user' | 'assistant' | 'system' | 'developer' | 'tool';
  text: string;
  marker?: CacheMarker;
  category?: Segment['category'];
}

export interface SyntheticRequest {
  format?: WireFormat;
  model?: string | null;
  tools?: (string | SyntheticTool)[];
  /** Top-level system blocks (Anthropic) or instructions (Responses). */
  system?: { text: string; marker?: CacheMarker }[];
  messages: SyntheticMessage[];
  topLevelMarker?: CacheMarker;
  timestamp?: number;
}

const toolWire = (name: string) =>
  `{"name":"${name}","description":"synthetic tool ${name}","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}`;

function segment(partial: Partial<Segment> & Pick<Segment, 'category' | 'path' | 'wire'>): Segment {
  return {
    text: partial.wire,
    bytes: partial.wire.length,
    hash: contentHash(partial.wire),
    wireId: wireIdOf(partial.wire),
    cacheMarker: null,
    position: 0,
    messageIndex: -1,
    role: null,
    toolName: null,
    callId: null,
    media: null,
    cacheable: true,
    ...partial,
  };
}

export function makeRequest(spec: SyntheticRequest, index = 0): ParsedRequest {
  const segments: Segment[] = [];
  (spec.tools ?? []).forEach((tool, i) => {
    const name = typeof tool === 'string' ? tool : tool.name;
    const wire = typeof tool === 'string' ? toolWire(tool) : (tool.wire ?? toolWire(tool.name));
    segments.push(segment({ category: 'tools', path: `tools[${i}]`, wire, toolName: name }));
  });
  (spec.system ?? []).forEach((block, i) => {
    segments.push(
      segment({
        category: 'system',
        path: `system[${i}]`,
        wire: JSON.stringify({ type: 'text', text: block.text }),
        text: block.text,
        cacheMarker: block.marker ?? null,
      }),
    );
  });
  spec.messages.forEach((message, i) => {
    segments.push(
      segment({
        category: message.category ?? (message.role === 'tool' ? 'tool_result' : message.role === 'developer' ? 'system' : message.role),
        path: `messages[${i}].content[0]`,
        wire: JSON.stringify({ type: 'text', text: message.text }),
        text: message.text,
        messageIndex: i,
        role: message.role,
        cacheMarker: message.marker ?? null,
      }),
    );
  });
  segments.forEach((s, position) => {
    s.position = position;
  });
  return {
    index,
    line: index + 1,
    file: 0,
    format: spec.format ?? 'anthropic-messages',
    model: spec.model === undefined ? 'claude-sonnet-4-5' : spec.model,
    segments,
    messageCount: spec.messages.length,
    topLevelCacheMarker: spec.topLevelMarker ?? null,
    unknownShapes: [],
    notes: [],
    customId: null,
    timestamp: spec.timestamp ?? null,
    recorded: null,
    options: emptyOptions(),
  };
}

export function makeRequests(specs: SyntheticRequest[]): ParsedRequest[] {
  return specs.map((spec, index) => makeRequest(spec, index));
}

/** An agent loop's turn n: the first user message, then n (assistant, user) exchanges, all labelled synthetic. */
export function loopMessages(topic: string, turns: number): SyntheticMessage[] {
  const messages: SyntheticMessage[] = [{ role: 'user', text: `synthetic ${topic}: task` }];
  for (let t = 1; t <= turns; t++) {
    messages.push({ role: 'assistant', text: `synthetic ${topic}: step ${t}` });
    messages.push({ role: 'user', text: `synthetic ${topic}: result ${t}` });
  }
  return messages;
}
