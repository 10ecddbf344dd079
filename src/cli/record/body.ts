// The bytes of one body as they stream past the proxy: collected up to the record limit, then decoded (the
// content-encodings undone) for the capture. Forwarding never waits on any of this.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Bodies above this are forwarded but not written: the input reader skips JSONL lines over 256 MiB anyway. */
export const MAX_RECORDED_BODY = 256 * 1024 * 1024;

/** Collects up to `limit` bytes of a body as it streams past. */
export class BodyTap {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  overflow = false;

  constructor(private readonly limit = MAX_RECORDED_BODY) {}

  /** Adds a chunk; false once the body has passed the limit (what was collected is dropped). */
  add(chunk: Buffer): boolean {
    if (this.overflow) return false;
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.overflow = true;
      this.chunks.length = 0;
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const DECODERS: Record<string, (bytes: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify<Buffer, zlib.ZlibOptions, Buffer>(zlib.gunzip),
  'x-gzip': promisify<Buffer, zlib.ZlibOptions, Buffer>(zlib.gunzip),
  deflate: promisify<Buffer, zlib.ZlibOptions, Buffer>(zlib.inflate),
  br: promisify<Buffer, zlib.BrotliOptions, Buffer>(zlib.brotliDecompress),
};

const MIB = 1024 * 1024;

/**
 * The body as the application sent it: each content-encoding undone in reverse order, inflating no further than
 * the record limit. An encoding Node cannot undo (zstd on Node 20) or a broken stream leaves the body unwritten.
 */
export async function decodedBody(tap: BodyTap, contentEncoding: string | string[] | undefined, limit = MAX_RECORDED_BODY): Promise<{ body: Uint8Array | null; error: string | null }> {
  if (tap.overflow) return { body: null, error: `body larger than ${limit / MIB} MiB; forwarded, not written` };
  let bytes = tap.bytes();
  const encodings = String(contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && name !== 'identity');
  for (const encoding of encodings.reverse()) {
    const decode = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
    if (decode === undefined) return { body: null, error: `content-encoding ${/^[a-z0-9-]{1,20}$/.test(encoding) ? encoding : '(unknown)'} is not decoded; body not written` };
    try {
      bytes = await decode(bytes, { maxOutputLength: limit });
    } catch {
      return { body: null, error: `the ${encoding} body could not be decoded (or inflates past ${limit / MIB} MiB); not written` };
    }
  }
  return { body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), error: null };
}
