// Helpers for the hostile-input tests. Every input built here is synthetic test data.
import { readRequests, type ReadOptions, type ReadResult } from '../../src/core/input/index.ts';

export const utf8 = new TextEncoder();

export function read(name: string, data: string | Uint8Array, options?: ReadOptions): Promise<ReadResult> {
  return readRequests([{ name, bytes: typeof data === 'string' ? utf8.encode(data) : data }], options);
}

/** What behaviour means for a read: per request its format, model and segments (category, path, text). */
export function behaviour(result: ReadResult): unknown {
  return {
    requests: result.requests.map((r) => ({
      format: r.format,
      model: r.model,
      segments: r.segments.map((s) => [s.category, s.path, s.text, s.toolName, s.callId]),
      unknownShapes: r.unknownShapes,
    })),
    errors: result.errors,
  };
}

/** JSON text with `extra` spliced in as the first members of the top-level object (keys JSON.stringify cannot write). */
export function withLeadingMembers(body: object, extra: string): string {
  const json = JSON.stringify(body);
  return `{${extra},${json.slice(1)}`;
}
