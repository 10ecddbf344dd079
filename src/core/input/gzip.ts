// gzip decoding through the platform's DecompressionStream (browsers and Node ≥ 18), one chunk at a time, with a
// ceiling on the decompressed size. Concatenated gzip members are decoded as one stream by the platform.

import { InputError, throwIfAborted } from './errors.ts';
import { formatBytes } from './limits.ts';

/** gzip magic bytes 1f 8b. */
export function hasGzipMagic(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

export function hasGzipExtension(name: string): boolean {
  return /\.gz$/i.test(name);
}

/**
 * Decompress `chunks` (gzip) and yield the decompressed chunks. Throws InputError when the data is truncated or
 * corrupt, or when more than `maxBytes` come out.
 */
export async function* gunzipChunks(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  const stream = new DecompressionStream('gzip');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // The writer runs concurrently with the reader below: DecompressionStream only accepts more input once its
  // output is being read. Its failure surfaces through reader.read() as well, so it is caught, not rethrown.
  let inputError: unknown = null;
  const pump = (async () => {
    try {
      for await (const chunk of chunks) {
        await writer.ready;
        await writer.write(chunk as Uint8Array<ArrayBuffer>);
      }
      await writer.close();
    } catch (error) {
      inputError = error;
      await writer.abort(error).catch(() => undefined);
    }
  })();
  let produced = 0;
  try {
    for (;;) {
      throwIfAborted(signal);
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        if (inputError !== null) throw inputError;
        const reason = error instanceof Error ? error.message : String(error);
        throw new InputError(
          `gzip data is truncated or corrupt after ${produced.toLocaleString('en-US')} decompressed bytes (${reason})`,
        );
      }
      if (result.done) break;
      produced += result.value.byteLength;
      if (produced > maxBytes) {
        throw new InputError(
          `decompressed size exceeds the limit of ${formatBytes(maxBytes)} per file (a gzip bomb, or raise the limit)`,
        );
      }
      yield result.value;
    }
    if (inputError !== null) throw inputError;
  } finally {
    await reader.cancel().catch(() => undefined);
    await pump;
  }
}
