// openai-chat-v1: a Chat Completions `messages[]` array (the resent-history case) → blocks.
// One-way import: it measures the texts the array holds and makes no claim about provider tokens.
import { refuse } from '../codes.ts';
import { MAX_MESSAGES, MAX_PARTS_PER_MESSAGE } from '../limits.ts';
import { isPlainObject, type SourceBlock, type SourceOutcome } from '../types.ts';

const ADAPTER = 'openai-chat-v1';
const MAPPING = 'openai-chat-messages-v1';

function refused(...args: Parameters<typeof refuse>): SourceOutcome {
  return { ok: false, refusal: refuse(...args), adapter: ADAPTER, mapping: MAPPING };
}

/**
 * Per message, in array order: string content → one block; null or absent content (e.g. an assistant turn
 * carrying only tool_calls) → no block; an array of parts → one block per `type: "text"` part, every other
 * part type ignored and counted. Any other content shape is refused. Other message fields are not read.
 */
export function openAiChatBlocks(envelope: Record<string, unknown>): SourceOutcome {
  const messages = envelope['messages'];
  if (!Array.isArray(messages)) return refused('MESSAGES_NOT_ARRAY', { field: 'messages' });
  if (messages.length > MAX_MESSAGES) {
    return refused('TOO_MANY_MESSAGES', { field: 'messages', limit: MAX_MESSAGES, actual: messages.length });
  }
  const blocks: SourceBlock[] = [];
  let ignoredParts = 0;
  for (let m = 0; m < messages.length; m++) {
    const message: unknown = messages[m];
    if (!isPlainObject(message)) return refused('MESSAGE_NOT_OBJECT', { field: 'messages', messageIndex: m });
    const content = message['content'];
    if (content === undefined || content === null) continue;
    if (typeof content === 'string') {
      blocks.push({ text: content, origin: { message: m } });
      continue;
    }
    if (!Array.isArray(content)) return refused('CONTENT_UNSUPPORTED', { field: 'content', messageIndex: m });
    if (content.length > MAX_PARTS_PER_MESSAGE) {
      return refused('TOO_MANY_PARTS', {
        field: 'content',
        messageIndex: m,
        limit: MAX_PARTS_PER_MESSAGE,
        actual: content.length,
      });
    }
    for (let p = 0; p < content.length; p++) {
      const part: unknown = content[p];
      if (!isPlainObject(part)) return refused('PART_NOT_OBJECT', { field: 'content', messageIndex: m, partIndex: p });
      const type = part['type'];
      // A part without a string `type` is not a content part shape the API defines.
      if (typeof type !== 'string') {
        return refused('CONTENT_UNSUPPORTED', { field: 'content', messageIndex: m, partIndex: p });
      }
      if (type !== 'text') {
        ignoredParts++;
        continue;
      }
      const text = part['text'];
      if (typeof text !== 'string') {
        return refused('PART_TEXT_NOT_STRING', { field: 'text', messageIndex: m, partIndex: p });
      }
      blocks.push({ text, origin: { message: m, part: p } });
    }
  }
  return { ok: true, source: { adapter: ADAPTER, mapping: MAPPING, blocks, ignoredParts } };
}
