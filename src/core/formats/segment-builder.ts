// The segment builder: turns the blocks an importer walks into the segments of one request, with their lookback
// positions, interned texts and wire identities, reusing the segments of elements an earlier request sent.

import type { Category, MediaInfo, Segment, UnknownShape, WireFormat } from '../model.ts';
import type { TextStore } from '../text/store.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';
import { cacheMarkerOf, wireJson, withoutCacheMarkers } from './cache-markers.ts';
import { elementCacheOf, type CachedElement, type ElementCache, type ElementProbe, type ElementRecord, type RunKind } from './element-cache.ts';
import { jsonFingerprint } from './json-fingerprint.ts';

/** Everything an importer needs to know about where its body came from. */
export interface ImportContext {
  store: TextStore;
  file: number;
  line: number;
  index: number;
}

export interface SegmentSpec {
  category: Category;
  path: string;
  /** What tokenizers count (interned by the builder). */
  text: string;
  /** The block as sent: its cache marker is read from it, and its JSON (markers removed) becomes `wire`. */
  block: unknown;
  /**
   * What the provider renders when that is not the block as written: the form `wire` is made of instead of
   * `block` (markers removed). Shorthand that renders the same prompt gets the same identity this way: a string
   * content is written as the one-text-block list it stands for, and the first block of a list carries the fields
   * of its message (role, call id) that a string content's message would carry.
   */
  identity?: unknown;
  messageIndex: number;
  role: string | null;
  toolName?: string | null;
  callId?: string | null;
  media?: MediaInfo | null;
  cacheable: boolean;
  run?: RunKind | null;
  /**
   * Media nested inside another block (an image inside a tool_result): shares its parent's position; its bytes are
   * also part of the parent's wire.
   */
  nested?: boolean;
}

/** The message a block belongs to: its index (-1 outside the messages) and role. */
export interface BlockOwner {
  readonly messageIndex: number;
  readonly role: string | null;
}

/** The owner of a block outside the messages (tools, a system field, a foreign field). */
export const OUTSIDE_MESSAGES: BlockOwner = { messageIndex: -1, role: null };

export class SegmentListBuilder {
  readonly segments: Segment[] = [];
  readonly unknownShapes: UnknownShape[] = [];
  /**
   * Lookback state after the segments so far: each block is one position, except that a run of consecutive
   * tool_use blocks (or of consecutive tool_result blocks) is one. Runs continue across message boundaries: the API
   * merges consecutive same-role turns into one, and a tool_use run and a tool_result run never touch.
   */
  private position = -1;
  private previousRun: RunKind | null = null;
  /** Run kind and nesting of each segment built here (not reused), for the element being built. */
  private readonly runs: (RunKind | null)[] = [];
  private readonly nested: boolean[] = [];
  /** Segments whose text holds an unpaired surrogate, counted so element() can tell whether its build added one. */
  private loneSurrogateSegments = 0;
  /** The cache entry of this request's previous element (null at the start, or when it was not cached). */
  private lastElement: CachedElement | null = null;

  private readonly elements: ElementCache;
  /** The element being looked up, refilled for each one (see ElementProbe). */
  private readonly probe: ElementProbe;

  constructor(
    private readonly store: TextStore,
    private readonly format: WireFormat,
  ) {
    this.elements = elementCacheOf(store);
    this.probe = { format, key: '', index: 0, value: null };
  }

  /**
   * Build the segments of one top-level element of the body (`tools[i]`, `messages[i]`, `input[i]`, or a whole
   * value such as a string `system`, with index -1). When an earlier request of this format had a JSON-identical
   * element at the same place, its segments are reused instead: an agent loop resends its whole history every
   * turn, and comparing parsed JSON (strings compare natively) is far cheaper than re-serializing and re-interning
   * every block. The reused segments are shared as they are when the element starts from the same lookback state
   * as when it was built (the usual case); otherwise the segments whose position differs are copied.
   */
  element(key: string, index: number, value: unknown, build: () => void): void {
    const cache = this.elements;
    const probe = this.probe;
    probe.key = key;
    probe.index = index;
    probe.value = value;
    // An agent loop resends its history in order: the element that followed this request's previous element last
    // time, then the one last seen at this place, are tried before fingerprinting (most hits need no fingerprint
    // walk, interleaved conversations included: each conversation's history forms its own chain).
    let entry = cache.findAfter(this.lastElement, probe) ?? cache.findAtPlace(probe);
    // Computed on the fingerprint path; an element built below always went through it.
    let fingerprint = 0;
    if (entry === null) {
      fingerprint = jsonFingerprint(value);
      entry = cache.find(fingerprint, probe);
    }
    if (entry !== null) {
      cache.link(this.lastElement, entry);
      this.lastElement = entry;
      this.reuse(entry.record);
      return;
    }
    const start = this.segments.length;
    const unknownStart = this.unknownShapes.length;
    const surrogatesBefore = this.loneSurrogateSegments;
    const entryPosition = this.position;
    const entryRun = this.previousRun;
    this.runs.length = 0;
    this.nested.length = 0;
    build();
    // Refilled: a build may look up elements of its own.
    probe.key = key;
    probe.index = index;
    probe.value = value;
    const added = cache.add(fingerprint, probe, {
      segments: this.segments.slice(start),
      runs: this.runs.slice(),
      nested: this.nested.slice(),
      unknown: this.unknownShapes.slice(unknownStart),
      loneSurrogate: this.loneSurrogateSegments > surrogatesBefore,
      entryPosition,
      entryRun,
      exitPosition: this.position,
      exitRun: this.previousRun,
    });
    cache.link(this.lastElement, added);
    this.lastElement = added;
  }

  private reuse(record: ElementRecord): void {
    if (record.entryPosition === this.position && record.entryRun === this.previousRun) {
      // Same lookback state as when it was built: every segment keeps its position.
      for (let i = 0; i < record.segments.length; i++) this.segments.push(record.segments[i]!);
      this.position = record.exitPosition;
      this.previousRun = record.exitRun;
    } else {
      for (let i = 0; i < record.segments.length; i++) {
        const segment = record.segments[i]!;
        const position = this.advance(record.runs[i]!, record.nested[i]!);
        // Shared with earlier requests: copied, never mutated, when its position differs here.
        this.segments.push(segment.position === position ? segment : atPosition(segment, position));
      }
    }
    if (record.unknown.length > 0) this.unknownShapes.push(...record.unknown);
    if (record.loneSurrogate) this.loneSurrogateSegments++;
  }

  /** The lookback position of the next segment; nested media share their parent's position. */
  private advance(run: RunKind | null, nested: boolean): number {
    if (!nested) {
      if (run === null || run !== this.previousRun) this.position++;
      this.previousRun = run;
    }
    return Math.max(this.position, 0);
  }

  /** True when some segment text of this request holds an unpaired surrogate (reported as a note). */
  get hasLoneSurrogate(): boolean {
    return this.loneSurrogateSegments > 0;
  }

  add(spec: SegmentSpec): Segment {
    const { wire, wireId, bytes, hash, loneSurrogate } = this.store.wire(wireJson(spec.identity !== undefined ? spec.identity : spec.block));
    const run = spec.run ?? null;
    const nested = spec.nested === true;
    const segment: Segment = {
      category: spec.category,
      path: this.store.sharedPath(this.segments.length, spec.path),
      text: this.store.text(spec.text),
      wire,
      bytes,
      hash,
      wireId,
      cacheMarker: cacheMarkerOf(spec.block),
      position: this.advance(run, nested),
      messageIndex: spec.messageIndex,
      role: spec.role,
      toolName: spec.toolName ?? null,
      callId: spec.callId ?? null,
      media: spec.media ?? null,
      cacheable: spec.cacheable,
    };
    this.store.builtSegments++;
    // A reused element (element()) carries its flag instead of passing through here again.
    if (loneSurrogate) this.loneSurrogateSegments++;
    this.segments.push(segment);
    this.runs.push(run);
    this.nested.push(nested);
    return segment;
  }

  /** Message `m` (at `path`) as an object; anything else is kept as an unknown block and gives null. */
  messageObject(path: string, message: unknown, m: number): JsonObject | null {
    if (isObject(message)) return message;
    this.unknown(path, typeof message, message, { messageIndex: m, role: null });
    return null;
  }

  /** The items of a top-level field that should be a list; none when it is something else (kept, see malformed). */
  listOf(key: string, value: unknown): unknown[] {
    if (Array.isArray(value)) return value;
    this.malformed(key, value);
    return [];
  }

  /** A top-level field that should be a list (or text) but is something else: kept and reported, not skipped. */
  malformed(key: string, value: unknown): void {
    if (value === undefined || value === null) return;
    this.unknown(key, `${key}:${Array.isArray(value) ? 'array' : typeof value}`, value, OUTSIDE_MESSAGES);
  }

  /**
   * A block whose shape the importer does not know: kept as an `other` segment carrying its JSON (so its tokens
   * are still counted) and listed in unknownShapes.
   */
  unknown(path: string, shape: string, block: unknown, owner: BlockOwner): void {
    this.unknownShapes.push({ path, shape: shapeName(shape) });
    this.add({
      category: 'other',
      path,
      text: JSON.stringify(withoutCacheMarkers(block)) ?? '',
      block,
      messageIndex: owner.messageIndex,
      role: owner.role,
      cacheable: false,
    });
  }
}

/** A copy of `segment` at another lookback position, field by field (a spread costs microseconds per segment in V8). */
function atPosition(segment: Segment, position: number): Segment {
  const { category, path, text, wire, bytes, hash, wireId, cacheMarker, messageIndex, role, toolName, callId, media, cacheable } = segment;
  return { category, path, text, wire, bytes, hash, wireId, cacheMarker, position, messageIndex, role, toolName, callId, media, cacheable };
}

/** Shape names come from `type`/`role` fields of untrusted input: keep them short and identifier-like. */
function shapeName(shape: string): string {
  const clean = shape.replace(/[^A-Za-z0-9_.:-]/g, '').slice(0, 64);
  return clean === '' ? '(no type)' : clean;
}

