// Concatenated gzip members with a decompressor that, like Chromium's DecompressionStream, stops after the first
// member with "Junk found after end of compressed data" (Node's decodes all members, so it cannot show this).
import { Gunzip } from 'fflate';
import { describe, expect, it } from 'vitest';
import { gunzipChunks, nextMemberStart } from '../../src/core/input/gzip.ts';
import { gzip } from './helpers.ts';

/** A gzip TransformStream that decodes one member only and errors on anything after it (test double). */
function singleMemberGunzip(): TransformStream<Uint8Array, Uint8Array> {
  /** fflate calls onmember for each member after the first, once its header has been read. */
  let laterMembers = 0;
  let output: TransformStreamDefaultController<Uint8Array> | null = null;
  const inflater = new Gunzip((data) => {
    if (laterMembers === 0 && data.byteLength > 0) output!.enqueue(data);
  });
  inflater.onmember = () => {
    laterMembers++;
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      output = controller;
    },
    transform(chunk) {
      inflater.push(chunk);
      if (laterMembers > 0) throw new TypeError('Junk found after end of compressed data.');
    },
    flush() {
      inflater.push(new Uint8Array(0), true);
    },
  });
}

async function* chunksOf(data: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.byteLength; at += size) yield data.slice(at, at + size);
}

async function decodeAll(data: Uint8Array, chunkSize: number): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const part of gunzipChunks(chunksOf(data, chunkSize), 1e9, undefined, singleMemberGunzip)) parts.push(part);
  return new TextDecoder().decode(Buffer.concat(parts));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

describe('gzip members with a one-member decompressor', () => {
  const texts = ['first member\n', 'second member, a little longer\n', 'x'.repeat(70_000) + '\n'];
  const joined = concat(...texts.map((t) => gzip(t)));

  it.each([1, 3, 7, 64, 100_000])('resumes at each member with %i-byte input chunks', async (size) => {
    expect(await decodeAll(joined, size)).toBe(texts.join(''));
  });

  it('still reports trailing bytes that are not a gzip member', async () => {
    const data = concat(gzip('only member\n'), new Uint8Array([0, 0, 0, 0, 1, 2, 3]));
    await expect(decodeAll(data, 5)).rejects.toThrow(/^gzip data is truncated or corrupt after 12 decompressed bytes/);
  });
});

describe('nextMemberStart', () => {
  // A member that decompressed to 300 bytes ends with ISIZE 2c 01 00 00.
  const trailerEnd = [0xaa, 0xbb, 0xcc, 0xdd, 0x2c, 0x01, 0x00, 0x00];

  it('finds the magic right after the trailer', () => {
    const rest = nextMemberStart([new Uint8Array([1, 2, ...trailerEnd.slice(0, 5)]), new Uint8Array([...trailerEnd.slice(5), 0x1f, 0x8b, 0x08, 0x00])], 300);
    expect([...rest!]).toEqual([0x1f, 0x8b, 0x08, 0x00]);
  });

  it('accepts a magic cut short by the end of the input given so far (Chromium fails on its first byte)', () => {
    expect([...nextMemberStart([new Uint8Array([...trailerEnd, 0x1f])], 300)!]).toEqual([0x1f]);
    expect([...nextMemberStart([new Uint8Array([...trailerEnd, 0x1f, 0x8b])], 300)!]).toEqual([0x1f, 0x8b]);
  });

  it('finds nothing when the size does not match or no magic follows', () => {
    expect(nextMemberStart([new Uint8Array([...trailerEnd, 0x1f, 0x8b, 0x08])], 301)).toBeNull();
    expect(nextMemberStart([new Uint8Array([...trailerEnd, 0x00, 0x00, 0x00])], 300)).toBeNull();
    expect(nextMemberStart([new Uint8Array([...trailerEnd, 0x1f, 0x00])], 300)).toBeNull();
  });
});
