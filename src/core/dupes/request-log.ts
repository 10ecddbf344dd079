// request-log-last-requests-v1: any request log the analyzer reads → blocks. An agent loop resends its whole
// history on every turn: that is how these APIs work, not duplication, so the log is measured by what each
// conversation's last request carries — the context one request sends — not by every request pooled, and a block
// is a duplicate only of another block of the same request (a system prompt each conversation sends once is
// not). The same tool result or file read twice inside one request is; near-duplicates are a separate measure.
import type { Category, ParsedRequest } from '../model.ts';
import { findConversations, type Conversations } from '../cache/conversations.ts';
import type { BlockSource, SourceBlock } from './types.ts';

/** Segment categories that are message text (the system prompt / instructions counted as a message). */
const MEASURED: ReadonlySet<Category> = new Set<Category>(['system', 'user', 'assistant', 'tool_result', 'thinking']);
/**
 * Message content out of scope, counted in ignoredParts: media, shapes the importer did not understand, and tool
 * calls — as in openai-chat-v1, where an assistant turn carrying only tool_calls contributes no block, a call's
 * arguments are not message text (the same command run twice is not context sent twice).
 */
const IGNORED: ReadonlySet<Category> = new Set<Category>(['tool_call', 'image', 'document', 'audio', 'other']);
// Tool definitions (`tools`) are request configuration, not messages: neither measured nor counted.

/**
 * The last request of each conversation (conversations as the cache analysis finds them: a request continuing
 * or editing an earlier one's messages joins its conversation), in file order; within a request, its segments
 * in serialization order: each system, user, assistant, tool-result or thinking segment is one block of its text.
 * `conversations`: the cache analysis's, when it ran already (finding them is most of the work on a long log).
 */
export function requestLogBlocks(requests: readonly ParsedRequest[], conversations: Conversations = findConversations(requests)): BlockSource {
  const { conversationOf } = conversations;
  const lastOf = new Map<number, number>();
  conversationOf.forEach((conversation, i) => lastOf.set(conversation, i));
  const blocks: SourceBlock[] = [];
  let ignoredParts = 0;
  requests.forEach((request, i) => {
    if (lastOf.get(conversationOf[i]!) !== i) return;
    for (const segment of request.segments) {
      if (MEASURED.has(segment.category)) {
        blocks.push({ text: segment.text, origin: { request: request.index, message: segment.messageIndex }, scope: i });
      } else if (IGNORED.has(segment.category)) {
        ignoredParts++;
      }
    }
  });
  return { adapter: null, mapping: 'request-log-last-requests-v1', blocks, ignoredParts };
}
