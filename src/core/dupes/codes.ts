// Fixed vocabulary of the duplicate-context record: reason codes and the located detail of a refusal.
// Everything here is a code or an index; no value read from the input is ever copied into a record.

/** Why a run is `unknown`. The meaning of each code is documented in docs/dupes.md. */
export const REASON_CODES = [
  'ENVELOPE_TOO_LARGE',
  'INVALID_UTF8',
  'TOO_DEEP',
  'INVALID_JSON',
  'NOT_AN_OBJECT',
  'UNKNOWN_SUITE',
  'UNKNOWN_ADAPTER',
  'BLOCKS_NOT_ARRAY',
  'BLOCK_NOT_OBJECT',
  'BLOCK_TEXT_NOT_STRING',
  'TOO_MANY_BLOCKS',
  'MESSAGES_NOT_ARRAY',
  'TOO_MANY_MESSAGES',
  'MESSAGE_NOT_OBJECT',
  'CONTENT_UNSUPPORTED',
  'TOO_MANY_PARTS',
  'PART_NOT_OBJECT',
  'PART_TEXT_NOT_STRING',
  'TRACE_NOT_OBJECT',
  'EVENTS_NOT_ARRAY',
  'EVENT_NOT_OBJECT',
  'EVENT_INPUTS_NOT_STRING',
  'EVENT_OUTPUTS_NOT_STRING',
  'NO_BLOCKS',
  'INPUT_UNREADABLE',
  'UNSUPPORTED_INPUT',
  'INCOMPLETE_INPUT',
  'LOG_TOO_LARGE',
  'LIMIT_RECORDS',
  'LIMIT_BLANK_LINES',
  'LIMIT_REQUESTS',
  'LIMIT_SEGMENTS',
  'LIMIT_TEXTS',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** One fixed sentence per code, used by the markdown view and mirrored in docs/dupes.md. */
export const REASON_MEANINGS: Record<ReasonCode, string> = {
  ENVELOPE_TOO_LARGE: 'The envelope is larger than 1,048,576 bytes (1 MiB).',
  INVALID_UTF8: 'The envelope bytes are not valid UTF-8.',
  TOO_DEEP: 'JSON nesting is deeper than 32 levels.',
  INVALID_JSON: 'The envelope is not valid JSON.',
  NOT_AN_OBJECT: 'The envelope is not a JSON object.',
  UNKNOWN_SUITE: 'The suite is missing or is not "v1".',
  UNKNOWN_ADAPTER: 'The adapter is not one this version knows (openai-chat-v1, conereplay-v1).',
  BLOCKS_NOT_ARRAY: '`blocks` is missing or is not an array.',
  BLOCK_NOT_OBJECT: 'A block is not an object.',
  BLOCK_TEXT_NOT_STRING: "A block's `text` is missing or is not a string.",
  TOO_MANY_BLOCKS: 'The envelope has more than 1000 blocks.',
  MESSAGES_NOT_ARRAY: '`messages` is missing or is not an array.',
  TOO_MANY_MESSAGES: 'There are more than 1000 messages.',
  MESSAGE_NOT_OBJECT: 'A message is not an object.',
  CONTENT_UNSUPPORTED: "A message's content is neither a string, null/absent, nor an array of typed parts.",
  TOO_MANY_PARTS: 'A message has more than 1000 content parts.',
  PART_NOT_OBJECT: 'A content part is not an object.',
  PART_TEXT_NOT_STRING: 'A part of type "text" has no string `text`.',
  TRACE_NOT_OBJECT: '`trace` is missing or is not an object.',
  EVENTS_NOT_ARRAY: '`trace.events` is missing or is not an array.',
  EVENT_NOT_OBJECT: 'A trace event is not an object.',
  EVENT_INPUTS_NOT_STRING: "A trace event's `inputs` is missing or is not a string.",
  EVENT_OUTPUTS_NOT_STRING: "A trace event's `outputs` is missing or is not a string.",
  NO_BLOCKS: 'The input holds no measurable block; an empty run is not a pass.',
  INPUT_UNREADABLE: 'The input could not be read or decoded.',
  UNSUPPORTED_INPUT: 'The input is neither an envelope nor a request log ctxray reads.',
  INCOMPLETE_INPUT: 'Some records of the log could not be read and no duplicate was found in the rest.',
  LOG_TOO_LARGE: 'The request log is larger than 2,147,483,648 bytes (2 GiB) after gzip decompression.',
  LIMIT_RECORDS: 'The request log has more records than the reader\'s work limit (1,000,000 per file by default).',
  LIMIT_BLANK_LINES: 'The request log has more blank lines than the reader\'s work limit (1,000,000 per file by default).',
  LIMIT_REQUESTS: 'The request log has more requests than the reader\'s work limit (200,000 by default).',
  LIMIT_SEGMENTS: 'The request log has more segments than the reader\'s work limit (8,000,000 by default, 1,000,000 of them built anew rather than resent).',
  LIMIT_TEXTS: 'The request log has more distinct texts than the reader\'s work limit (1,000,000 by default).',
};

/** Which field of the input a refusal points at; names come from the contract, never from the input. */
export type DetailField =
  | 'suite'
  | 'adapter'
  | 'blocks'
  | 'text'
  | 'messages'
  | 'content'
  | 'trace'
  | 'events'
  | 'inputs'
  | 'outputs';

/** Where a refusal happened. Only the members that apply are present. */
export interface RefusalDetail {
  field?: DetailField;
  /** 0-based index of the block / message / content part / trace event concerned. */
  blockIndex?: number;
  messageIndex?: number;
  partIndex?: number;
  eventIndex?: number;
  /** 0-based byte offset in the (decompressed) input. */
  byteOffset?: number;
  /** The cap that was exceeded, and how much was found (when it is known exactly). */
  limit?: number;
  actual?: number;
  /** Request logs: how many records could not be read (see INCOMPLETE_INPUT / UNSUPPORTED_INPUT). */
  skippedRecords?: number;
  /** Request logs: the 1-based line (record number in a JSON array) where a work limit (LIMIT_*) stopped the read. */
  line?: number;
}

export interface Refusal {
  reason: ReasonCode;
  detail: RefusalDetail;
}

export function refuse(reason: ReasonCode, detail: RefusalDetail = {}): Refusal {
  return { reason, detail };
}
