// Raw input → a stream of byte chunks, counted for progress, checked for abort, and gunzipped when it is gzip.

import { InputError, throwIfAborted } from './errors.ts';
import { gunzipChunks, hasGzipExtension, hasGzipMagic } from './gzip.ts';
import { formatBytes } from './limits.ts';

/** Uint8Array input is handed on in slices of this size so progress and abort stay responsive. */
const SLICE_BYTES = 4 * 1024 * 1024;

export type ByteInput = Uint8Array | ReadableStream<Uint8Array>;

export async function* rawChunks(input: ByteInput, onBytes: (n: number) => void, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  if (input instanceof Uint8Array) {
    for (let at = 0; at < input.byteLength; at += SLICE_BYTES) {
      throwIfAborted(signal);
      const slice = input.subarray(at, Math.min(at + SLICE_BYTES, input.byteLength));
      onBytes(slice.byteLength);
      yield slice;
    }
    return;
  }
  const reader = input.getReader();
  // An abort cancels the source at once: a read waiting on a stalled stream ends, and its producer is told.
  const cancelOnAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancelOnAbort, { once: true });
  try {
    for (;;) {
      throwIfAborted(signal);
      const { done, value } = await reader.read();
      throwIfAborted(signal);
      if (done) return;
      if (value.byteLength === 0) continue;
      onBytes(value.byteLength);
      yield value;
    }
  } finally {
    signal?.removeEventListener('abort', cancelOnAbort);
    // Stops the producer when reading ends early (abort, a file-level error); not awaited, since a producer
    // that never answers must not hold the reader.
    void reader.cancel().catch(() => undefined);
    try {
      reader.releaseLock();
    } catch {
      // A read still pending on a source that ignores cancel: the lock goes with the reader.
    }
  }
}

/**
 * The file's decompressed bytes. gzip is recognised by its magic bytes; a `.gz` name without them is an error
 * rather than a guess. Plain input is held to the same size limit as decompressed input.
 */
export async function* decodedChunks(
  name: string,
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let done = false;
  while (headBytes < 2) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.byteLength;
  }
  async function* all(): AsyncGenerator<Uint8Array> {
    yield* head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const first = head[0] ?? new Uint8Array(0);
  const magic = hasGzipMagic(first.byteLength >= 2 ? first : joinHead(head));
  if (magic) {
    yield* gunzipChunks(all(), maxBytes, signal);
    return;
  }
  if (hasGzipExtension(name) && headBytes > 0) {
    throw new InputError('the file name ends in .gz but the data does not start with the gzip magic bytes 1f 8b');
  }
  let total = 0;
  for await (const chunk of all()) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new InputError(`the file is larger than the limit of ${formatBytes(maxBytes)}`);
    yield chunk;
  }
}

function joinHead(head: Uint8Array[]): Uint8Array {
  const bytes: number[] = [];
  for (const part of head) for (const b of part) {
    bytes.push(b);
    if (bytes.length >= 2) return Uint8Array.from(bytes);
  }
  return Uint8Array.from(bytes);
}
