// Cache markers on blocks: Anthropic `cache_control` and OpenAI `prompt_cache_breakpoint`. A block's identity is
// its JSON without them (moving a marker changes no content).

import type { CacheMarker } from '../model.ts';
import { copyWithout, isObject } from '../input/json-value.ts';

const MARKER_KEYS = ['cache_control', 'prompt_cache_breakpoint'];

/** The block without `cache_control` / `prompt_cache_breakpoint`, key order kept (a moved marker is no change). */
export function withoutCacheMarkers(block: unknown): unknown {
  if (!isObject(block) || !MARKER_KEYS.some((key) => Object.hasOwn(block, key))) return block;
  return copyWithout(block, MARKER_KEYS);
}

/** A block's own marker: Anthropic cache_control (ttl defaults to 5m), or an OpenAI explicit breakpoint. */
export function cacheMarkerOf(block: unknown): CacheMarker | null {
  if (!isObject(block)) return null;
  const control = block['cache_control'];
  if (isObject(control)) return { ttl: control['ttl'] === '1h' ? '1h' : '5m' };
  // OpenAI's breakpoint TTL (30m) has no slot in CacheMarker; 5m marks it without implying the 1h surcharge.
  if (isObject(block['prompt_cache_breakpoint'])) return { ttl: '5m' };
  return null;
}

/** A block's JSON as sent, markers removed: what its wire identity is made of. */
export function wireJson(block: unknown): string {
  return JSON.stringify(withoutCacheMarkers(block)) ?? 'null';
}
