// The identity a block gets when its wire format allows two spellings of one rendered prompt: a string content
// and a one-text-block list holding the same text are the same prompt to the provider (an agent loop may send a
// tool result as a string on one turn and re-serialize it as a list on the next). Both spellings are written in
// the list form: the container (message, tool_result, output item) with its content replaced by the list, and
// for a list, its first block inside the container, so the fields that route it (role, tool_call_id, call_id)
// stay part of the identity. Later blocks of a list are their own identity.
import { withoutCacheMarkers } from './cache-markers.ts';
import type { JsonObject } from '../input/json-value.ts';

/** `container` with `key` holding `blocks` (cache markers removed), every other key in its place. */
export function withContentList(container: JsonObject, key: string, blocks: readonly unknown[]): JsonObject {
  const list = blocks.map(withoutCacheMarkers);
  // Key by key (no entry arrays): it runs for the first block of every new list.
  const out: JsonObject = {};
  for (const k of Object.keys(container)) out[k] = k === key ? list : container[k];
  if (!Object.hasOwn(out, key)) out[key] = list;
  return out;
}

/**
 * Identity of block `index` of the list under `key` of `container`: the first block inside its container, the
 * others alone (undefined: use the block itself).
 */
export function listBlockIdentity(container: JsonObject, key: string, block: unknown, index: number): JsonObject | undefined {
  return index === 0 ? withContentList(container, key, [block]) : undefined;
}
