// Structural fingerprints and flat-list equality of parsed JSON values: how the element cache finds an element an
// earlier request already sent without re-serializing it.

import type { JsonObject } from '../input/json-value.ts';
import { FNV_OFFSET_BASIS, FNV_PRIME } from '../text/fnv.ts';

/** Nodes a fingerprint looks at: enough to tell messages apart, few enough to stay cheap on huge elements. */
const FINGERPRINT_NODES = 48;
/**
 * Characters a fingerprint hashes in full (over all its strings); a string past that budget is hashed at
 * STRING_SAMPLES evenly spaced characters. Whole strings keep same-length texts apart (a message that differs
 * only in a timestamp), the budget keeps a huge element (an image's base64) cheap.
 */
const FINGERPRINT_CHARS = 16 * 1024;
const STRING_SAMPLES = 16;

/**
 * A 32-bit fingerprint of a parsed JSON value from the first FINGERPRINT_NODES nodes in document order: their
 * types, key names (length and end characters), numbers, and each string's length and characters (all of them
 * within FINGERPRINT_CHARS, evenly spaced samples after that).
 * Equal values always match, and collisions are settled by full JSON equality (the element cache also caps
 * how many entries share a fingerprint).
 */
export function jsonFingerprint(value: unknown): number {
  const state: FingerprintState = { hash: FNV_OFFSET_BASIS, budget: FINGERPRINT_NODES, chars: FINGERPRINT_CHARS };
  fingerprintWalk(value, state);
  return state.hash >>> 0;
}

interface FingerprintState {
  hash: number;
  budget: number;
  /** Characters left to hash in full. */
  chars: number;
}

function mix(state: FingerprintState, n: number): void {
  state.hash = Math.imul(state.hash ^ n, FNV_PRIME);
}

/** Mixes a string's length and characters (see FINGERPRINT_CHARS) into the state. */
function mixString(state: FingerprintState, v: string): void {
  const n = v.length;
  mix(state, 0x51 ^ n);
  // The hash is kept in a local while mixing characters (a property write per character showed in profiles).
  let hash = state.hash;
  if (n <= state.chars) {
    state.chars -= n;
    for (let i = 0; i < n; i++) hash = Math.imul(hash ^ v.charCodeAt(i), FNV_PRIME);
  } else {
    for (let k = 0; k < STRING_SAMPLES; k++) hash = Math.imul(hash ^ v.charCodeAt(Math.floor((k * (n - 1)) / (STRING_SAMPLES - 1))), FNV_PRIME);
  }
  state.hash = hash;
}

function fingerprintWalk(v: unknown, state: FingerprintState): void {
  if (state.budget-- <= 0) return;
  if (typeof v === 'string') mixString(state, v);
  else if (typeof v === 'number') {
    mix(state, 0x4e);
    mix(state, v | 0);
    mix(state, Math.round((v % 1) * 1e6));
  } else if (typeof v === 'boolean') mix(state, v ? 0x54 : 0x46);
  else if (v === null) mix(state, 0x30);
  else if (Array.isArray(v)) {
    mix(state, 0x5b ^ v.length);
    for (let i = 0; i < v.length && state.budget > 0; i++) fingerprintWalk(v[i], state);
  } else if (typeof v === 'object') {
    const object = v as JsonObject;
    const keys = Object.keys(object);
    mix(state, 0x7b ^ keys.length);
    for (let i = 0; i < keys.length && state.budget > 0; i++) {
      const key = keys[i]!;
      mix(state, key.length);
      if (key.length > 0) mix(state, key.charCodeAt(0) ^ (key.charCodeAt(key.length - 1) << 8));
      fingerprintWalk(object[key], state);
    }
  }
}

/** Markers of a flattened value; never equal to a primitive leaf. */
const OBJECT_START = Symbol('object');
const ARRAY_START = Symbol('array');

/**
 * A parsed JSON value as one flat list, for comparing later values against it many times: objects are
 * [OBJECT_START, key count, key, value..., ...], arrays [ARRAY_START, length, items...], primitives themselves.
 * Comparing a fresh value against this allocates nothing, where walking both trees took two key arrays per object.
 */
export function flattenJson(value: unknown, into: unknown[] = []): unknown[] {
  if (value === null || typeof value !== 'object') into.push(value);
  else if (Array.isArray(value)) {
    into.push(ARRAY_START, value.length);
    for (let i = 0; i < value.length; i++) flattenJson(value[i], into);
  } else {
    const keys = Object.keys(value);
    into.push(OBJECT_START, keys.length);
    for (let i = 0; i < keys.length; i++) {
      into.push(keys[i]);
      flattenJson((value as JsonObject)[keys[i]!], into);
    }
  }
  return into;
}

/**
 * Whether `value` is the JSON value `flat` was made from, key order included (the wire keeps key order, so
 * reordered keys are a different block). Recursion depth is bounded by the nesting limit checked before parsing.
 */
export function matchesFlatJson(flat: readonly unknown[], value: unknown): boolean {
  return matchFrom(flat, 0, value) === flat.length;
}

/** Matches `value` against the flattened value starting at `at`: the index after it, or -1. */
function matchFrom(flat: readonly unknown[], at: number, value: unknown): number {
  const head = flat[at];
  if (head === OBJECT_START) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return -1;
    const count = flat[at + 1] as number;
    let next = at + 2;
    let seen = 0;
    // for-in walks own keys in the order Object.keys gives them (JSON.parse objects inherit no enumerable keys).
    for (const key in value) {
      if (seen++ >= count || flat[next] !== key) return -1;
      next = matchFrom(flat, next + 1, (value as JsonObject)[key]);
      if (next < 0) return -1;
    }
    return seen === count ? next : -1;
  }
  if (head === ARRAY_START) {
    if (!Array.isArray(value) || value.length !== flat[at + 1]) return -1;
    let next = at + 2;
    for (let i = 0; i < value.length && next >= 0; i++) next = matchFrom(flat, next, value[i]);
    return next;
  }
  return head === value ? at + 1 : -1;
}
