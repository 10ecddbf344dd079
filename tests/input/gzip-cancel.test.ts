// Stopping a gzip read early must not cancel the decompressor while a chunk is still on its way. Node's
// DecompressionStream adapter delivers a chunk from a resume it scheduled (process.nextTick) when the last read was
// served; delivered after cancel(), enqueue throws an uncaught ERR_INVALID_STATE (nodejs/node#64529). The double
// below delivers its chunks the same way and counts the ones that arrive after it was cancelled.
import { describe, expect, it } from 'vitest';
import { gunzipChunks } from '../../src/core/input/gzip.ts';
import { InputError } from '../../src/core/input/errors.ts';

function lateDeliveringDecompressor(counts: { late: number; cancelled: boolean }): () => TransformStream<Uint8Array, Uint8Array> {
  return () => {
    const readable = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          process.nextTick(() => {
            try {
              controller.enqueue(new Uint8Array(1000));
            } catch {
              counts.late++; // the real adapter throws here, uncaught
            }
          });
        },
        cancel() {
          counts.cancelled = true;
        },
      },
      { highWaterMark: 8 },
    );
    const writable = new WritableStream<Uint8Array>();
    return { readable, writable } as TransformStream<Uint8Array, Uint8Array>;
  };
}

async function* oneChunk(): AsyncGenerator<Uint8Array> {
  yield new Uint8Array([0x1f, 0x8b]);
}

describe('gunzipChunks stopping early', () => {
  it('at the size limit: throws the limit error, cancels the decompressor, and no chunk arrives after that', async () => {
    const counts = { late: 0, cancelled: false };
    const read = async () => {
      for await (const chunk of gunzipChunks(oneChunk(), 2_500, undefined, lateDeliveringDecompressor(counts))) void chunk;
    };
    await expect(read()).rejects.toThrow(InputError);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(counts.cancelled).toBe(true);
    expect(counts.late).toBe(0);
  });

  it('when the consumer stops reading: cancels only after a delivery already scheduled has landed', async () => {
    const counts = { late: 0, cancelled: false };
    for await (const chunk of gunzipChunks(oneChunk(), 1_000_000, undefined, lateDeliveringDecompressor(counts))) {
      if (chunk.byteLength > 0) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(counts.cancelled).toBe(true);
    expect(counts.late).toBe(0);
  });
});
