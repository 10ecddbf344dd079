// gzip decoding through the platform's DecompressionStream (browsers and Node ≥ 18), one chunk at a time, with a
// ceiling on the decompressed size.
//
// Concatenated members (what `cat a.gz b.gz` and log rotation produce): Node's stream decodes them all, but
// Chromium's stops after the first member with "Junk found after end of compressed data". When a stream fails
// that way, the next member is found in the last input chunks it was given: right after the finished member's
// 8-byte trailer, which ends with ISIZE (its decompressed size mod 2^32, little-endian), comes the gzip magic
// 1f 8b 08. Decoding then resumes there with a fresh stream.

import { InputError, throwIfAborted } from './errors.ts';
import { formatBytes } from './limits.ts';

/** gzip magic bytes 1f 8b. */
export function hasGzipMagic(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

export function hasGzipExtension(name: string): boolean {
  return /\.gz$/i.test(name);
}

export type DecompressorFactory = () => TransformStream<Uint8Array, Uint8Array>;

const platformGunzip: DecompressorFactory = () =>
  new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>;

/** Input bytes kept from the end of what a stream was given, to find where the next member starts. */
const TAIL_BYTES = 64;

interface MemberRun {
  /** Input that follows the member this stream finished, when the stream stopped at a member boundary. */
  rest: Uint8Array | null;
}

/**
 * Decompress `chunks` (gzip, any number of members) and yield the decompressed chunks. Throws InputError when the
 * data is truncated or corrupt, or when more than `maxBytes` come out.
 */
export async function* gunzipChunks(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  signal?: AbortSignal,
  createDecompressor: DecompressorFactory = platformGunzip,
): AsyncGenerator<Uint8Array> {
  const gunzip: Gunzip = { input: chunks[Symbol.asyncIterator](), total: 0, maxBytes, signal, createDecompressor };
  let prefix: Uint8Array | null = null;
  for (;;) {
    const run: MemberRun = { rest: null };
    yield* decodeWithOneStream(gunzip, prefix, run);
    if (run.rest === null) return;
    prefix = run.rest;
  }
}

/** One gunzip over all its members: the shared input, the decompressed bytes so far, the ceiling, the stream. */
interface Gunzip {
  readonly input: AsyncIterator<Uint8Array>;
  total: number;
  readonly maxBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly createDecompressor: DecompressorFactory;
}

/** What one stream's writer side saw: the input chunks it gave last, and the source's own failure if any. */
interface Feed {
  /** The last input chunks given to this stream (at least TAIL_BYTES before the newest one). */
  recent: Uint8Array[];
  inputError: unknown;
}

async function* decodeWithOneStream(gunzip: Gunzip, prefix: Uint8Array | null, run: MemberRun): AsyncGenerator<Uint8Array> {
  const stream = gunzip.createDecompressor();
  const reader = stream.readable.getReader();
  const feed: Feed = { recent: [], inputError: null };
  // The writer runs concurrently with the reader: the stream only accepts more input once its output is read.
  const pump = pumpInput(gunzip.input, prefix, stream.writable.getWriter(), feed);
  let produced = 0;
  /** The stream ended or failed on its own; false while stopping early (a limit, an abort, a consumer leaving). */
  let settled = false;
  try {
    for (;;) {
      throwIfAborted(gunzip.signal);
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        settled = true;
        await pump;
        run.rest = streamFailure(gunzip, feed, produced, error);
        return;
      }
      if (result.done) {
        settled = true;
        break;
      }
      produced += result.value.byteLength;
      gunzip.total += result.value.byteLength;
      if (gunzip.total > gunzip.maxBytes) {
        throw new InputError(
          `decompressed size exceeds the limit of ${formatBytes(gunzip.maxBytes)} per file (a gzip bomb, or raise the limit)`,
        );
      }
      yield result.value;
    }
    await pump;
    if (feed.inputError !== null) throw feed.inputError;
  } finally {
    // Node's DecompressionStream adapter may still deliver a chunk from a resume it scheduled when the last read
    // was served; delivered after cancel() it throws an uncaught ERR_INVALID_STATE (nodejs/node#64529). Waiting one
    // task lets that delivery land in the still-open stream first.
    if (!settled) await new Promise((resolve) => setTimeout(resolve, 0));
    await reader.cancel().catch(() => undefined);
    await pump;
  }
}

/**
 * Gives the stream `prefix` and then the input's chunks until the input ends (closing the stream), the stream fails
 * or the source fails (kept in `feed`). Chunks are pulled by hand (not for-await) so that stopping here does not
 * close the shared input iterator.
 */
async function pumpInput(
  input: AsyncIterator<Uint8Array>,
  prefix: Uint8Array | null,
  writer: WritableStreamDefaultWriter<Uint8Array>,
  feed: Feed,
): Promise<void> {
  let next: Uint8Array | null = prefix;
  for (;;) {
    if (next === null) {
      try {
        const step = await input.next();
        if (step.done) break;
        next = step.value;
      } catch (error) {
        // The source failed (abort, a broken stream): that error, not a gzip one, is what the caller sees.
        feed.inputError = error;
        await writer.abort(error).catch(() => undefined);
        return;
      }
    }
    remember(feed.recent, next);
    try {
      await writer.ready;
      await writer.write(next);
    } catch {
      // The stream failed on this chunk; the reader below gets the same failure and decides what it means.
      return;
    }
    next = null;
  }
  await writer.close().catch(() => undefined);
}

/**
 * The stream failed: the source's error, or the input where the next member starts (the stream stopped at a member
 * boundary), or else the data is truncated or corrupt.
 */
function streamFailure(gunzip: Gunzip, feed: Feed, produced: number, error: unknown): Uint8Array {
  if (feed.inputError !== null) throw feed.inputError;
  const rest = produced > 0 ? nextMemberStart(feed.recent, produced) : null;
  if (rest !== null) return rest;
  // Chromium prefixes its reason with the stream call that failed, which means nothing to a user.
  const reason = (error instanceof Error ? error.message : String(error)).replace(/^Failed to execute '[^']*' on '[^']*': /, '');
  throw new InputError(
    `gzip data is truncated or corrupt after ${gunzip.total.toLocaleString('en-US')} decompressed bytes (${reason})`,
  );
}

/** Keep the newest chunk plus enough older ones to hold TAIL_BYTES before it. */
function remember(recent: Uint8Array[], chunk: Uint8Array): void {
  recent.push(chunk);
  let older = 0;
  for (let i = recent.length - 2; i >= 0; i--) older += recent[i]!.byteLength;
  while (recent.length > 1 && older - recent[0]!.byteLength >= TAIL_BYTES) {
    older -= recent[0]!.byteLength;
    recent.shift();
  }
}

/**
 * Where the next member starts in the retained input: the first offset holding ISIZE of the finished member
 * followed by 1f 8b 08. Returns the bytes from the magic on, or null when there is no such place.
 */
export function nextMemberStart(recent: Uint8Array[], memberBytes: number): Uint8Array | null {
  let length = 0;
  for (const chunk of recent) length += chunk.byteLength;
  const tail = new Uint8Array(length);
  let at = 0;
  for (const chunk of recent) {
    tail.set(chunk, at);
    at += chunk.byteLength;
  }
  const size = memberBytes % 0x100000000;
  const isize = [size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, (size >>> 24) & 0xff];
  const magic = [0x1f, 0x8b, 0x08];
  for (let i = 0; i + 5 <= tail.length; i++) {
    if (tail[i] !== isize[0] || tail[i + 1] !== isize[1] || tail[i + 2] !== isize[2] || tail[i + 3] !== isize[3]) continue;
    // With tiny input chunks the stream fails on the first byte after the trailer, so the magic may be cut short
    // by the end of what it was given; the rest arrives with the next input chunks.
    const available = Math.min(magic.length, tail.length - (i + 4));
    let matches = true;
    for (let k = 0; k < available; k++) if (tail[i + 4 + k] !== magic[k]) matches = false;
    if (matches && (available === magic.length || i + 4 + available === tail.length)) return tail.subarray(i + 4);
  }
  return null;
}
