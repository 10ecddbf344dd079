// Caps of the duplicate-context contract. At the cap passes; one over is refused (`unknown`).

/** Envelope size in bytes, counted on the envelope's UTF-8 bytes after any gzip decompression (1 MiB). */
export const MAX_ENVELOPE_BYTES = 1_048_576;
/**
 * Request-log size in bytes after any gzip decompression (2 GiB). Every block of the log is held for measuring,
 * so a small gzip file must not inflate to the reader's 8 GiB ceiling first.
 */
export const MAX_LOG_BYTES = 2 * 1024 * 1024 * 1024;
/** Blocks in a native envelope, and blocks an adapter may produce. */
export const MAX_BLOCKS = 1000;
/** JSON nesting depth; the top-level object or array is depth 1. */
export const MAX_DEPTH = 32;
/** openai-chat-v1: messages per envelope. */
export const MAX_MESSAGES = 1000;
/** openai-chat-v1: content parts per message. */
export const MAX_PARTS_PER_MESSAGE = 1000;
