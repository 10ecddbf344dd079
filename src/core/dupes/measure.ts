// Measurement: UTF-8 bytes, unicode-whitespace v1.0 tokens and SHA-256 per block; exact whole-block duplicates.
// Texts repeat heavily in resent-history logs, so each distinct string is encoded and hashed once.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { countWhitespaceTokens } from '../tokens/whitespace.ts';
import type { BlockOrigin, SourceBlock } from './types.ts';

export interface MeasuredBlock {
  index: number;
  bytes: number;
  tokens: number;
  /** SHA-256 of the block's UTF-8 bytes, 64 lowercase hex digits. */
  hash: string;
  origin?: BlockOrigin;
}

export interface DuplicateGroup {
  hash: string;
  /** How many blocks carry this content. */
  occurrences: number;
  /** Their block indices, ascending; the first is the original, the rest are copies. */
  indices: number[];
  copies: number;
  bytesPerBlock: number;
  tokensPerBlock: number;
  wastedBytes: number;
  wastedTokens: number;
}

export interface DupesTotals {
  blocks: number;
  bytes: number;
  tokens: number;
  /** Copies after the first, summed over all groups. */
  duplicateBlocks: number;
  wastedBytes: number;
  wastedTokens: number;
}

export interface Measurement {
  blocks: MeasuredBlock[];
  duplicates: DuplicateGroup[];
  totals: DupesTotals;
}

interface TextFacts {
  bytes: number;
  tokens: number;
  hash: string;
}

const encoder = new TextEncoder();

/** Lone surrogates encode as U+FFFD (3 bytes), as every WHATWG UTF-8 encoder does. */
function factsOf(text: string): TextFacts {
  const utf8 = encoder.encode(text);
  return { bytes: utf8.length, tokens: countWhitespaceTokens(text), hash: bytesToHex(sha256(utf8)) };
}

/**
 * Measures blocks one at a time, so a caller that must stay responsive (the web worker) can pause between slices;
 * `measureBlocks` is the same in one go. Blocks are indexed in the order they are added.
 */
export class BlockMeasurer {
  private readonly factsByText = new Map<string, TextFacts>();
  private readonly indicesByHash = new Map<string, number[]>();
  private readonly blocks: MeasuredBlock[] = [];
  private bytes = 0;
  private tokens = 0;

  add({ text, origin, scope }: SourceBlock): void {
    const index = this.blocks.length;
    let facts = this.factsByText.get(text);
    if (facts === undefined) {
      facts = factsOf(text);
      this.factsByText.set(text, facts);
    }
    const block: MeasuredBlock = { index, bytes: facts.bytes, tokens: facts.tokens, hash: facts.hash };
    if (origin !== null) block.origin = origin;
    this.blocks.push(block);
    this.bytes += facts.bytes;
    this.tokens += facts.tokens;
    // A NUL never occurs in a hex hash: the key cannot collide across scopes.
    const key = scope === undefined ? facts.hash : `${scope}\u0000${facts.hash}`;
    const seen = this.indicesByHash.get(key);
    if (seen === undefined) this.indicesByHash.set(key, [index]);
    else seen.push(index);
  }

  finish(): Measurement {
    const { blocks } = this;
    const duplicates: DuplicateGroup[] = [];
    let duplicateBlocks = 0;
    let wastedBytes = 0;
    let wastedTokens = 0;
    // Map iteration follows first insertion, so groups come out in order of their first occurrence.
    for (const indices of this.indicesByHash.values()) {
      if (indices.length < 2) continue;
      const first = blocks[indices[0] as number] as MeasuredBlock;
      const hash = first.hash;
      const copies = indices.length - 1;
      const group: DuplicateGroup = {
        hash,
        occurrences: indices.length,
        indices,
        copies,
        bytesPerBlock: first.bytes,
        tokensPerBlock: first.tokens,
        wastedBytes: copies * first.bytes,
        wastedTokens: copies * first.tokens,
      };
      duplicates.push(group);
      duplicateBlocks += copies;
      wastedBytes += group.wastedBytes;
      wastedTokens += group.wastedTokens;
    }
    return {
      blocks,
      duplicates,
      totals: { blocks: blocks.length, bytes: this.bytes, tokens: this.tokens, duplicateBlocks, wastedBytes, wastedTokens },
    };
  }
}

export function measureBlocks(source: readonly SourceBlock[]): Measurement {
  const measurer = new BlockMeasurer();
  for (const block of source) measurer.add(block);
  return measurer.finish();
}
