// Structured outputs: a `json_schema` response format (OpenAI Chat `response_format`, Responses `text.format`;
// Anthropic `output_config.format`, or the beta's `output_format`) is rendered into the prompt the model reads, so it is billed and it is part of the prompt's identity (a schema
// whose properties are reordered is a different prompt). One segment, after the tools, carries it.
import { isObject, objectField, stringField } from '../input/json-value.ts';
import { jsonText } from './request-parts.ts';
import type { SegmentListBuilder } from './segment-builder.ts';

/** Paths of the response-format segment in either API; the token counter recognises the segment by them. */
export const RESPONSE_FORMAT_PATHS: ReadonlySet<string> = new Set(['response_format', 'text.format', 'output_config.format', 'output_format']);

/**
 * Adds the segment of a `json_schema` response format (`path` says where it was). `json_object` and `text`
 * formats add no prompt text (a recorded `json_object` request bills exactly its messages), so they add none.
 */
export function addResponseFormat(builder: SegmentListBuilder, format: unknown, path: string): void {
  if (!isObject(format) || stringField(format, 'type') !== 'json_schema') return;
  const named = objectField(format, 'json_schema') ?? format;
  builder.element(path, -1, format, () =>
    builder.add({
      category: 'system',
      path,
      text: jsonText(format),
      block: format,
      messageIndex: -1,
      role: null,
      toolName: stringField(named, 'name'),
      cacheable: false,
    }),
  );
}
