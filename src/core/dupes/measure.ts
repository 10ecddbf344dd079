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

export function measureBlocks(source: readonly SourceBlock[]): Measurement {
  const factsByText = new Map<string, TextFacts>();
  const indicesByHash = new Map<string, number[]>();
  const blocks: MeasuredBlock[] = [];
  let bytes = 0;
  let tokens = 0;
  for (let index = 0; index < source.length; index++) {
    const { text, origin, scope } = source[index] as SourceBlock;
    let facts = factsByText.get(text);
    if (facts === undefined) {
      facts = factsOf(text);
      factsByText.set(text, facts);
    }
    const block: MeasuredBlock = { index, bytes: facts.bytes, tokens: facts.tokens, hash: facts.hash };
    if (origin !== null) block.origin = origin;
    blocks.push(block);
    bytes += facts.bytes;
    tokens += facts.tokens;
    // A NUL never occurs in a hex hash: the key cannot collide across scopes.
    const key = scope === undefined ? facts.hash : `${scope}\u0000${facts.hash}`;
    const seen = indicesByHash.get(key);
    if (seen === undefined) indicesByHash.set(key, [index]);
    else seen.push(index);
  }

  const duplicates: DuplicateGroup[] = [];
  let duplicateBlocks = 0;
  let wastedBytes = 0;
  let wastedTokens = 0;
  // Map iteration follows first insertion, so groups come out in order of their first occurrence.
  for (const indices of indicesByHash.values()) {
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
    totals: { blocks: blocks.length, bytes, tokens, duplicateBlocks, wastedBytes, wastedTokens },
  };
}
