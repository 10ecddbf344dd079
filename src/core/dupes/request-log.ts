// request-log-messages-v1: any request log the analyzer reads → blocks, the resent-history case.
// Every request contributes its message text again, so history resent turn after turn shows up as copies.
import type { Category, ParsedRequest } from '../model.ts';
import type { BlockSource, SourceBlock } from './types.ts';

/** Segment categories that are message text (the system prompt / instructions counted as a message). */
const MEASURED: ReadonlySet<Category> = new Set<Category>([
  'system',
  'user',
  'assistant',
  'tool_call',
  'tool_result',
  'thinking',
]);
/** Message content out of scope (media, shapes the importer did not understand): counted in ignoredParts. */
const IGNORED: ReadonlySet<Category> = new Set<Category>(['image', 'document', 'audio', 'other']);
// Tool definitions (`tools`) are request configuration, not messages: neither measured nor counted.

/**
 * Requests in file order; within a request, its segments in serialization order: each system, user,
 * assistant, tool-call (arguments JSON), tool-result or thinking segment is one block of its text.
 */
export function requestLogBlocks(requests: readonly ParsedRequest[]): BlockSource {
  const blocks: SourceBlock[] = [];
  let ignoredParts = 0;
  for (const request of requests) {
    for (const segment of request.segments) {
      if (MEASURED.has(segment.category)) {
        blocks.push({ text: segment.text, origin: { request: request.index, message: segment.messageIndex } });
      } else if (IGNORED.has(segment.category)) {
        ignoredParts++;
      }
    }
  }
  return { adapter: null, mapping: 'request-log-messages-v1', blocks, ignoredParts };
}
