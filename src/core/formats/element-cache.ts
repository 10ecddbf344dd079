// The importers' element cache: segments of top-level body elements already imported, reused when a later request
// of the read resends a JSON-identical element at the same place (an agent loop resends its whole history).

import type { Segment, UnknownShape, WireFormat } from '../model.ts';
import type { JsonObject } from '../input/json-value.ts';
import { OldestFirst } from '../text/oldest-first.ts';
import type { TextStore } from '../text/store.ts';
import { flattenJson, matchesFlatJson } from './json-fingerprint.ts';
import { FNV_PRIME } from '../text/fnv.ts';

/** Anthropic lookback runs: consecutive blocks of one of these kinds share a position. */
export type RunKind = 'tool_use' | 'tool_result';

/** What one top-level element of a body produced. */
export interface ElementRecord {
  segments: Segment[];
  runs: (RunKind | null)[];
  nested: boolean[];
  unknown: UnknownShape[];
  /** Some segment text of the element holds an unpaired surrogate. */
  loneSurrogate: boolean;
  /** Lookback state before and after the element in the request that built it. */
  entryPosition: number;
  entryRun: RunKind | null;
  exitPosition: number;
  exitRun: RunKind | null;
}

/**
 * Which element is looked up: the place (format, top-level key, index; -1 for a whole value) and its parsed value.
 * The builder keeps one and refills it for each element, so a lookup allocates nothing.
 */
export interface ElementProbe {
  format: WireFormat;
  key: string;
  index: number;
  value: unknown;
}

export interface CachedElement {
  /** The bucket it was filed under: its fingerprint mixed with its index (see bucketOf). */
  bucket: number;
  format: WireFormat;
  key: string;
  index: number;
  value: unknown;
  /** `value` flattened on its first comparison (see flattenJson); most elements are never compared. */
  flat: unknown[] | null;
  record: ElementRecord;
  chars: number;
  /** The entry that came right after this one in the request that last contained both. */
  next: CachedElement | null;
  /** False once evicted: a `next` pointer may still reach it, but it no longer matches or holds its value. */
  live: boolean;
}

/**
 * Elements already imported, found by a structural fingerprint and confirmed by full JSON equality. It works for
 * interleaved conversations too (a gateway log), not just for the previous turn. Bounded by what the parsed
 * values it compares against take (their characters plus a per-node overhead); the oldest entries go first.
 */
export class ElementCache {
  private readonly buckets = new Map<number, CachedElement[]>();
  /** Per format and key, the entry last added or found at each index (index + 1: a whole value has index -1). */
  private readonly latest = new Map<WireFormat, Map<string, (CachedElement | undefined)[]>>();
  private readonly kept: OldestFirst<CachedElement>;

  constructor(private readonly maxChars = 64 * 1024 * 1024) {
    this.kept = new OldestFirst(maxChars, (entry) => entry.chars, (entry) => this.evict(entry));
  }

  find(fingerprint: number, probe: ElementProbe): CachedElement | null {
    const { format, key, index, value } = probe;
    const bucket = this.buckets.get(bucketOf(fingerprint, index));
    if (bucket === undefined) return null;
    for (const entry of bucket) {
      if (entry.index === index && entry.key === key && entry.format === format && matches(entry, value)) {
        this.placesOf(format, key)[index + 1] = entry;
        return entry;
      }
    }
    return null;
  }

  /** The element last added or found at this place, when JSON-identical to `value`. */
  findAtPlace(probe: ElementProbe): CachedElement | null {
    const entry = this.latest.get(probe.format)?.get(probe.key)?.[probe.index + 1];
    return entry !== undefined && matches(entry, probe.value) ? entry : null;
  }

  /** The entry that followed `before` last time, when it is at this place and JSON-identical to `value`. */
  findAfter(before: CachedElement | null, probe: ElementProbe): CachedElement | null {
    const entry = before?.next ?? null;
    if (entry === null || !entry.live || entry.index !== probe.index || entry.key !== probe.key || entry.format !== probe.format) return null;
    return matches(entry, probe.value) ? entry : null;
  }

  /** Records that `after` followed `before` in a request (both may be null: not cached). */
  link(before: CachedElement | null, after: CachedElement | null): void {
    if (before !== null && before.next !== after) before.next = after;
  }

  private placesOf(format: WireFormat, key: string): (CachedElement | undefined)[] {
    let byKey = this.latest.get(format);
    if (byKey === undefined) {
      byKey = new Map();
      this.latest.set(format, byKey);
    }
    let places = byKey.get(key);
    if (places === undefined) {
      places = [];
      byKey.set(key, places);
    }
    return places;
  }

  /** The new entry, or null when the element is too large to keep. */
  add(fingerprint: number, probe: ElementProbe, record: ElementRecord): CachedElement | null {
    const { format, key, index, value } = probe;
    const chars = stringChars(value);
    // One element larger than the whole budget is not worth keeping.
    if (chars > this.maxChars) return null;
    const key32 = bucketOf(fingerprint, index);
    const entry: CachedElement = { bucket: key32, format, key, index, value, flat: null, record, chars, next: null, live: true };
    const bucket = this.buckets.get(key32);
    if (bucket === undefined) this.buckets.set(key32, [entry]);
    else {
      // The oldest leaves the bucket (it stays reachable by its place and its chain link): a probe compares with
      // at most BUCKET_CAP entries, whatever the input.
      if (bucket.length >= BUCKET_CAP) bucket.shift();
      bucket.push(entry);
    }
    this.placesOf(format, key)[index + 1] = entry;
    this.kept.add(entry);
    return entry;
  }

  private evict(entry: CachedElement): void {
    // Release what the budget counted even while another entry's `next` still points here.
    entry.live = false;
    entry.value = null;
    entry.flat = null;
    entry.next = null;
    const places = this.latest.get(entry.format)?.get(entry.key);
    if (places !== undefined && places[entry.index + 1] === entry) places[entry.index + 1] = undefined;
    const bucket = this.buckets.get(entry.bucket);
    if (bucket === undefined) return;
    const at = bucket.indexOf(entry);
    if (at >= 0) bucket.splice(at, 1);
    if (bucket.length === 0) this.buckets.delete(entry.bucket);
  }
}

/**
 * Entries a bucket keeps. Distinct elements of one fingerprint are rare (a collision, or elements that differ only
 * past the fingerprint's first nodes); without a cap, 20,000 such requests compared each new element with every
 * earlier one.
 */
const BUCKET_CAP = 8;

/** The bucket of a fingerprint at an index: entries at other indexes never match, so they are kept apart. */
function bucketOf(fingerprint: number, index: number): number {
  return Math.imul(fingerprint ^ (index + 1), FNV_PRIME) >>> 0;
}

/** Full JSON equality of a live entry's value with `value`. */
function matches(entry: CachedElement, value: unknown): boolean {
  if (entry.value === value) return true;
  entry.flat ??= flattenJson(entry.value);
  if (!matchesFlatJson(entry.flat, value)) return false;
  // Another parse of the same JSON: kept instead, since later records hand out this one again (the resent parser
  // returns the object it remembered, and a file's first record is parsed apart from the rest), so the next lookup
  // is a pointer comparison instead of a walk. Equal JSON: the flattened form and the budget still hold.
  entry.value = value;
  return true;
}

/**
 * What one parsed node costs beyond its characters, in characters: its object header and slots, and the entry's
 * own record. Without it, an element of a few short strings counted ~40 characters, and a history of 820,000
 * one-line messages out of place (a reordered history, never matched) was all kept: ~600 bytes each.
 */
const NODE_CHARS = 32;

/** What keeping a parsed JSON value alive costs, roughly, in characters: its strings plus NODE_CHARS a node. */
function stringChars(value: unknown): number {
  if (typeof value === 'string') return NODE_CHARS + value.length;
  if (Array.isArray(value)) {
    let total = NODE_CHARS;
    for (const item of value) total += stringChars(item);
    return total;
  }
  if (typeof value === 'object' && value !== null) {
    let total = NODE_CHARS;
    for (const key of Object.keys(value)) total += key.length + stringChars((value as JsonObject)[key]);
    return total;
  }
  return 8;
}

const caches = new WeakMap<TextStore, ElementCache>();

/** The element cache of a read: one per text store, so it lives and dies with the read. */
export function elementCacheOf(store: TextStore): ElementCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = new ElementCache();
    caches.set(store, cache);
  }
  return cache;
}
