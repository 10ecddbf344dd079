// The one shared model every importer produces and every analysis reads.
// Importers (src/core/formats/) turn a wire format into ParsedRequest; nothing downstream looks at raw JSON again.

/** Wire formats of raw request bodies. Transcript formats rebuild requests in one of these. */
export type WireFormat = 'anthropic-messages' | 'openai-chat' | 'openai-responses';

/** Which provider's cache rules and tokenizer family apply. */
export type Provider = 'anthropic' | 'openai';

export function providerOf(format: WireFormat): Provider {
  return format === 'anthropic-messages' ? 'anthropic' : 'openai';
}

/** The file recorded this call's usage but not its body (`usage_only`): there is nothing in it to explain. */
export function isUsageOnly(request: Pick<ParsedRequest, 'notes'>): boolean {
  return request.notes.some((note) => note.code === 'usage_only');
}

/** Requests, every one usage-only: nothing in them to break down (false for none). */
export function allUsageOnly(requests: readonly Pick<ParsedRequest, 'notes'>[]): boolean {
  return requests.length > 0 && requests.every(isUsageOnly);
}

/**
 * Segment categories. The first eight have fixed palette colours (src/render/palette.ts); the order here is the
 * order of that palette and of every legend and table.
 */
export const CATEGORIES = [
  'system',
  'tools',
  'user',
  'assistant',
  'tool_call',
  'tool_result',
  'thinking',
  'image',
  'document',
  'audio',
  'other',
  // No block of the request: the system prompt and tools a transcript did not record, sized from recorded usage
  // (recorded prompt − reconstructed, src/core/cache/inferred.ts). Never a segment the importers build.
  'setup_inferred',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** A cache_control marker as Anthropic defines it (`ttl` defaults to 5m), or an OpenAI explicit breakpoint. */
export interface CacheMarker {
  ttl: '5m' | '1h';
}

/** Non-text content the model sees; tokens are estimated from its size, not by tokenizing base64. */
export interface MediaInfo {
  kind: 'image' | 'document' | 'audio';
  /** Where the bytes come from: inline base64, a URL, or a provider-side file id. */
  source: 'base64' | 'url' | 'file' | 'unknown';
  mediaType: string | null;
  /** Decoded byte length when inline (base64 length × 3/4), else 0. */
  dataBytes: number;
  /** Pixel size when it can be read from the image header bytes, else null. */
  width: number | null;
  height: number | null;
}

/**
 * One block of a request. Requests that resend the same block at the same place may share one Segment object
 * (the importers reuse them), so treat segments as read-only.
 */
export interface Segment {
  category: Category;
  /** JSON path of the block inside the request body, e.g. `messages[3].content[1]`. */
  path: string;
  /**
   * The text the model reads for this block, as tokenizers count it: plain text for text blocks, the JSON of
   * a tool definition or tool call arguments, '' for media (see `media`). Interned: equal texts are one string.
   */
  text: string;
  /**
   * Identity for cache-prefix comparison: the block's JSON as sent (key order kept) without its cache_control
   * marker, in the form the provider renders: a string content is written as the one-text-block list it stands
   * for, and the first block of a list carries its message's fields (role, call id), so a string and the same
   * text as one block are one identity (src/core/formats/rendered-identity.ts). Interned, so `===` compares
   * identities in O(1) after the first sighting. Always JSON.stringify output (compact, keys unique): the optimized
   * scenario's identities rely on it (src/core/cache/optimized-ids.ts).
   */
  wire: string;
  /** UTF-8 byte length of `wire`. */
  bytes: number;
  /** Content hash of `wire`: 16 hex digits (cyrb64-style, see src/core/text/hash.ts). Not a security hash. */
  hash: string;
  /**
   * Number of the distinct `wire` in the read that built this segment (0, 1, 2, ... in order of first sighting),
   * so per-wire memos of the analysis are arrays instead of maps keyed by long strings. A hint: every memo confirms
   * it against `wire` (src/core/text/wire-memo.ts), so segments of different reads never share a wrong value.
   */
  wireId: number;
  /** Block-level cache_control (Anthropic) or prompt_cache_breakpoint (OpenAI), or null. */
  cacheMarker: CacheMarker | null;
  /**
   * Anthropic lookback position: 0-based index in serialization order where a run of consecutive tool_use
   * blocks, or of consecutive tool_result blocks, shares one position.
   */
  position: number;
  /** Index of the message (or Responses input item) this block belongs to; -1 for tools, system, instructions. */
  messageIndex: number;
  /** Role of that message, when it has one. */
  role: string | null;
  /** Tool name for tool definitions, tool calls and tool results, when known. */
  toolName: string | null;
  /** Tool call id linking tool_call and tool_result segments, when known. */
  callId: string | null;
  /** Present for image, document and audio segments. */
  media: MediaInfo | null;
  /** Anthropic: may carry a cache_control marker (not thinking, not empty text). */
  cacheable: boolean;
}

/** The provider's usage as recorded next to a request (gateway response, batch output, transcript). */
export interface RecordedUsage {
  /** Prompt tokens NOT read from or written to the cache (Anthropic's sense: excludes cache tokens). */
  input: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  output: number;
  /** The response says it ran in fast mode (Anthropic's `usage.speed: "fast"`): billed at the fast-mode rates. */
  speed?: 'fast';
}

/** The prompt tokens recorded usage counts: uncached input, cache reads and cache writes of either TTL. */
export function recordedPromptTokens(usage: Pick<RecordedUsage, 'input' | 'cacheRead' | 'cacheWrite5m' | 'cacheWrite1h'>): number {
  return usage.input + usage.cacheRead + usage.cacheWrite5m + usage.cacheWrite1h;
}

export type UsageProblemReason = 'negative' | 'not_integer' | 'not_finite' | 'over_context_window';

/** One impossible value in recorded usage (src/core/input/usage-check.ts). */
export interface UsageProblem {
  /** The field as recorded (`usage.input_tokens`), or the recorded prompt or output as a whole. */
  field: string;
  /** The value; a non-finite one as its name (`Infinity`), which JSON cannot hold as a number. */
  value: number | string;
  reason: UsageProblemReason;
}

/** A block shape the importer did not understand: counted and reported, never silently dropped. */
export interface UnknownShape {
  path: string;
  /** The `type` (or role) that was not recognized; never payload text. */
  shape: string;
}

export interface ParsedRequest {
  /** 0-based position in file order, over all files of one analysis. */
  index: number;
  /** 1-based line of the record (JSONL), or 1-based record number inside a JSON array / batch body. */
  line: number;
  /** Which input file (index into the analysis' file list). */
  file: number;
  /**
   * Which agent thread of its file, when a transcript holds several: a Claude Code 1.0.x Task subagent written
   * inline gets a thread of its own (0 or absent is the main one), so what is inferred per session file is
   * inferred per subagent, as for the subagent files of later versions.
   */
  thread?: number;
  format: WireFormat;
  /** Model id exactly as written in the request, or null when absent. */
  model: string | null;
  segments: Segment[];
  /** Number of messages (Chat/Anthropic) or input items (Responses); conversation matching compares these. */
  messageCount: number;
  /** Top-level (automatic) cache_control, Anthropic only. */
  topLevelCacheMarker: CacheMarker | null;
  unknownShapes: UnknownShape[];
  /** Fixed-code notes about the request, e.g. `previous_response_id`. No payload text. */
  notes: RequestNote[];
  /** Envelope id (batch custom_id), kept for matching outputs; never written to reports. */
  customId: string | null;
  /**
   * Sent through a Batch API (an Anthropic Message Batches or OpenAI Batch file): billed at half the list price.
   * Absent for every other request.
   */
  batch?: true;
  /** Milliseconds since the epoch, when the log records when the request was sent. */
  timestamp: number | null;
  recorded: RecordedUsage | null;
  /** Why the usage recorded beside this request was refused (then `recorded` is null); absent when it was not. */
  rejectedUsage?: UsageProblem[];
  /** Request options that change caching or billing. */
  options: RequestOptions;
}

/** The file and agent thread a request was sent in: the unit a transcript's sessions are inferred over. */
export const threadKey = (request: Pick<ParsedRequest, 'file' | 'thread'>): string => `${request.file}\u0000${request.thread ?? 0}`;

export interface RequestOptions {
  toolChoice: string | null;
  /** Anthropic extended thinking enabled, or an OpenAI reasoning effort. */
  thinking: string | null;
  promptCacheKey: string | null;
  /**
   * OpenAI `user`: routes cache lookups when there is no prompt_cache_key (the key replaces it for routing). Used
   * only to keep cache entries apart; never written to any output.
   */
  cacheRoutingUser: string | null;
  promptCacheRetention: string | null;
  /** GPT-5.6+ `prompt_cache_options.mode`. */
  promptCacheMode: 'implicit' | 'explicit' | null;
  stream: boolean;
  /** Responses API server-side state: the file does not hold what this points at. */
  previousResponseId: boolean;
  /**
   * Anthropic `mcp_servers` (MCP connector): the server fetches their tool definitions and runs their calls, so
   * the prompt billed holds hidden tools and can sum server-side iterations.
   */
  mcpServers: boolean;
}

export type RequestNoteCode =
  | 'previous_response_id'
  /** Responses `item_reference`: an input item given only by id (server-side state). */
  | 'item_reference'
  | 'system_role_in_messages'
  | 'unknown_shapes'
  | 'no_model'
  | 'transcript_missing_tools'
  | 'transcript_missing_system'
  /**
   * The transcript records a compaction of the history before this call (Claude Code `compact_boundary`, pi
   * `compaction` entry, Codex `compacted`): the first call rebuilt after it.
   */
  | 'transcript_compacted'
  /** Text held an unpaired UTF-16 surrogate (a JSON escape such as \ud800 alone); counted as U+FFFD. */
  | 'lone_surrogate'
  /** The body lacks the message list its wire format requires (`messages`, or `input` for Responses). */
  | 'missing_message_array'
  /** Top-level content fields of another wire format were present; kept as `other` segments, not dropped. */
  | 'foreign_fields'
  /** Rebuilt from a provider ctxray does not model (Gemini): tokens estimated, its cache rules not modelled. */
  | 'provider_not_modelled'
  /** The file records the call's usage but not its body (a usage-only log): nothing to break down. */
  | 'usage_only'
  /**
   * Anthropic `context_management` (server-side compaction, context editing): the prompt billed may not be the
   * prompt sent (recorded usage can sum a compaction pass), so the request is left out of accuracy figures.
   */
  | 'context_management'
  /** Recorded usage held an impossible value (negative, fractional, non-finite, over the context window): not used. */
  | 'recorded_usage_rejected';

export interface RequestNote {
  code: RequestNoteCode;
  message: string;
}

/** A record that could not be read. `line` is 1-based (JSONL line, or record number in an array). */
export interface ReadError {
  file: number;
  line: number;
  message: string;
  /** Set when the file is a JSON array (or batch body): `line` then holds this record number, not a line. */
  recordNumber?: number;
}
