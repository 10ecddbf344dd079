// Shared machinery of the wire-format importers: interning, wire identity, cache markers, lookback positions and
// the assembly of a ParsedRequest. Each importer only decides which block becomes which segment.

import type {
  CacheMarker,
  Category,
  MediaInfo,
  ParsedRequest,
  RequestNote,
  RequestOptions,
  Segment,
  UnknownShape,
  WireFormat,
} from '../model.ts';
import { contentHash } from '../text/hash.ts';
import { TextInterner } from '../text/intern.ts';
import { utf8Length } from '../text/utf8.ts';
import { copyWithout, isObject, type JsonObject } from '../input/json-value.ts';
import { OldestFirst } from '../text/oldest-first.ts';

interface WireStats {
  id: number;
  bytes: number;
  hash: string;
  loneSurrogate: boolean;
}

/**
 * An unpaired surrogate as JSON.stringify writes it: `\udXXX` (lower-case hex, D800–DFFF) after an even run of
 * backslashes, so a text that merely spells a backslash-u escape (`\\ud800` in the wire) does not count. A paired
 * surrogate is written as the character itself, never escaped.
 */
const ESCAPED_LONE_SURROGATE = /(?<!\\)(?:\\\\)*\\ud[89a-f][0-9a-f]{2}/;

/**
 * One per read: every text and wire of every request goes through the same interner, so a history resent on each
 * turn is stored once, and its byte length and hash are computed once.
 */
export class TextStore {
  readonly interner: TextInterner;
  /** Segments of elements already imported, reused when a later request resends the same element. */
  readonly elements = new ElementCache();
  private readonly stats = new Map<string, WireStats>();
  /** Segments built from a block (not reused from an earlier request): what a read's memory grows with. */
  builtSegments = 0;
  /** The path of the segment last built at each index of a request, any request (see sharedPath). */
  private readonly pathAt: string[] = [];

  constructor(interner: TextInterner = new TextInterner()) {
    this.interner = interner;
  }

  text(value: string): string {
    return this.interner.intern(value);
  }

  /**
   * `path` for the segment at `index` of its request, as the same string object as the previous one built at that
   * index when equal: requests repeat their paths (`messages[0].content[7]`), and a segment keeps its path, so a
   * history rebuilt on every request (a reordered one) would otherwise hold a copy per request. One comparison,
   * no hashing.
   */
  sharedPath(index: number, path: string): string {
    const known = this.pathAt[index];
    if (known === path) return known;
    this.pathAt[index] = path;
    return path;
  }

  /** The block's JSON as sent, without cache markers, interned, with its UTF-8 size and content hash. */
  wire(block: unknown): { wire: string; wireId: number; bytes: number; hash: string; loneSurrogate: boolean } {
    const wire = this.interner.intern(JSON.stringify(withoutCacheMarkers(block)) ?? 'null');
    let known = this.stats.get(wire);
    if (known === undefined) {
      // JSON.parse turned an escape such as \ud800 into a lone surrogate; the wire shows it escaped again. Every
      // UTF-8 encoder silently replaces it with U+FFFD, so it is checked once per distinct wire and reported.
      known = {
        id: this.stats.size,
        bytes: utf8Length(wire),
        hash: contentHash(wire),
        loneSurrogate: ESCAPED_LONE_SURROGATE.test(wire),
      };
      this.stats.set(wire, known);
    }
    return { wire, wireId: known.id, bytes: known.bytes, hash: known.hash, loneSurrogate: known.loneSurrogate };
  }

  get distinctTexts(): number {
    return this.interner.size;
  }
}

/** Everything an importer needs to know about where its body came from. */
export interface ImportContext {
  store: TextStore;
  file: number;
  line: number;
  index: number;
}

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

/** Anthropic lookback runs: consecutive blocks of one of these kinds share a position. */
export type RunKind = 'tool_use' | 'tool_result';

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

  constructor(
    private readonly store: TextStore,
    private readonly format: WireFormat,
  ) {}

  /**
   * Build the segments of one top-level element of the body (`tools[i]`, `messages[i]`, `input[i]`, or a whole
   * value such as a string `system`, with index -1). When an earlier request of this format had a JSON-identical
   * element at the same place, its segments are reused instead: an agent loop resends its whole history every
   * turn, and comparing parsed JSON (strings compare natively) is far cheaper than re-serializing and re-interning
   * every block. The reused segments are shared as they are when the element starts from the same lookback state
   * as when it was built (the usual case); otherwise the segments whose position differs are copied.
   */
  element(key: string, index: number, value: unknown, build: () => void): void {
    const cache = this.store.elements;
    // An agent loop resends its history in order: the element that followed this request's previous element last
    // time, then the one last seen at this place, are tried before fingerprinting (most hits need no fingerprint
    // walk, interleaved conversations included: each conversation's history forms its own chain).
    let entry =
      cache.findAfter(this.lastElement, this.format, key, index, value) ??
      cache.findAtPlace(this.format, key, index, value);
    // Computed on the fingerprint path; an element built below always went through it.
    let fingerprint = 0;
    if (entry === null) {
      fingerprint = jsonFingerprint(value);
      entry = cache.find(fingerprint, this.format, key, index, value);
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
    const added = cache.add(fingerprint, this.format, key, index, value, {
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
    const { wire, wireId, bytes, hash, loneSurrogate } = this.store.wire(spec.identity !== undefined ? spec.identity : spec.block);
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

  /** A top-level field that should be a list (or text) but is something else: kept and reported, not skipped. */
  malformed(key: string, value: unknown): void {
    if (value === undefined || value === null) return;
    this.unknown(key, `${key}:${Array.isArray(value) ? 'array' : typeof value}`, value, -1, null);
  }

  /**
   * A block whose shape the importer does not know: kept as an `other` segment carrying its JSON (so its tokens
   * are still counted) and listed in unknownShapes.
   */
  unknown(path: string, shape: string, block: unknown, messageIndex: number, role: string | null): void {
    this.unknownShapes.push({ path, shape: shapeName(shape) });
    this.add({
      category: 'other',
      path,
      text: JSON.stringify(withoutCacheMarkers(block)) ?? '',
      block,
      messageIndex,
      role,
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

export function emptyOptions(): RequestOptions {
  return {
    toolChoice: null,
    thinking: null,
    promptCacheKey: null,
    cacheRoutingUser: null,
    promptCacheRetention: null,
    promptCacheMode: null,
    stream: false,
    previousResponseId: false,
    mcpServers: false,
  };
}

const NOTE_MESSAGES: Record<RequestNote['code'], string> = {
  previous_response_id:
    'previous_response_id: the request continues server-side state that is not in the file; only the items it sends are counted',
  system_role_in_messages: 'a message with role "system" inside messages (mid-conversation system message)',
  unknown_shapes: 'blocks of an unknown shape were kept as "other" segments with their JSON',
  no_model: 'the request names no model',
  transcript_missing_tools: 'the transcript does not record the tool definitions that were sent',
  transcript_missing_system: 'the transcript does not record the system prompt that was sent',
  transcript_compacted: 'the transcript records a compaction of the history before this call',
  item_reference: 'item_reference: an input item is only referenced by id; its content is server-side state not in the file',
  lone_surrogate:
    'text holds an unpaired UTF-16 surrogate (a JSON escape such as \\ud800 without its partner); it is not valid Unicode and is counted as U+FFFD',
  missing_message_array:
    'the body has no message list for its wire format (messages for Anthropic Messages and Chat Completions, input for Responses); check --format',
  context_management:
    'context_management: the server may compact or edit the context, so what it bills is not what the file holds; left out of estimate-accuracy figures',
  foreign_fields:
    'the body has top-level content fields of another wire format; they are counted as "other" segments, not read as messages; check --format',
  provider_not_modelled:
    "a Gemini (Google) call rebuilt as Chat Completions: its tokens are estimated with an OpenAI tokenizer, and Google's cache rules and prices are not modelled (the recorded usage is the actual; any simulated cache beside it follows OpenAI's rules, not Google's)",
};

/**
 * Top-level fields that carry prompt content in each wire format (tools are common to all three). A body read
 * under the wrong format (`--format anthropic` on a Responses body) would otherwise lose another format's fields
 * without a word.
 */
const CONTENT_FIELDS: Record<WireFormat, readonly string[]> = {
  'anthropic-messages': ['system', 'messages'],
  'openai-chat': ['messages', 'functions'],
  'openai-responses': ['instructions', 'input'],
};

/**
 * Keep every content field that belongs to another wire format as an `other` segment at its own path (so its
 * tokens still count and the unknown-shape list names it) and return the note that says so, or null.
 */
export function keepForeignFields(builder: SegmentListBuilder, format: WireFormat, body: JsonObject): RequestNote | null {
  const own = new Set(CONTENT_FIELDS[format]);
  let found = false;
  for (const [other, fields] of Object.entries(CONTENT_FIELDS)) {
    if (other === format) continue;
    for (const field of fields) {
      if (own.has(field) || !(field in body) || body[field] === null) continue;
      own.add(field); // a field two other formats share is kept once
      builder.unknown(field, `foreign:${field}`, body[field], -1, null);
      found = true;
    }
  }
  return found ? note('foreign_fields') : null;
}

export function note(code: RequestNote['code']): RequestNote {
  return { code, message: NOTE_MESSAGES[code] };
}

export interface RequestParts {
  format: WireFormat;
  body: JsonObject;
  builder: SegmentListBuilder;
  messageCount: number;
  options: RequestOptions;
  topLevelCacheMarker: CacheMarker | null;
  notes: RequestNote[];
}

export function assembleRequest(parts: RequestParts, ctx: ImportContext): ParsedRequest {
  const model = typeof parts.body['model'] === 'string' ? parts.body['model'] : null;
  const notes = [...parts.notes];
  if (model === null) notes.push(note('no_model'));
  if (parts.builder.hasLoneSurrogate) notes.push(note('lone_surrogate'));
  if (parts.builder.unknownShapes.length > 0) notes.push(note('unknown_shapes'));
  return {
    index: ctx.index,
    line: ctx.line,
    file: ctx.file,
    format: parts.format,
    model,
    segments: parts.builder.segments,
    messageCount: parts.messageCount,
    topLevelCacheMarker: parts.topLevelCacheMarker,
    unknownShapes: parts.builder.unknownShapes,
    notes,
    customId: null,
    timestamp: null,
    recorded: null,
    options: parts.options,
  };
}

/** JSON of a value for `text` (tool definitions, call arguments, structured results). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? '';
}

/** What one top-level element of a body produced. */
interface ElementRecord {
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

interface CachedElement {
  fingerprint: number;
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

  find(fingerprint: number, format: WireFormat, key: string, index: number, value: unknown): CachedElement | null {
    const bucket = this.buckets.get(fingerprint);
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
  findAtPlace(format: WireFormat, key: string, index: number, value: unknown): CachedElement | null {
    const entry = this.latest.get(format)?.get(key)?.[index + 1];
    return entry !== undefined && matches(entry, value) ? entry : null;
  }

  /** The entry that followed `before` last time, when it is at this place and JSON-identical to `value`. */
  findAfter(before: CachedElement | null, format: WireFormat, key: string, index: number, value: unknown): CachedElement | null {
    const entry = before?.next ?? null;
    if (entry === null || !entry.live || entry.index !== index || entry.key !== key || entry.format !== format) return null;
    return matches(entry, value) ? entry : null;
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
  add(fingerprint: number, format: WireFormat, key: string, index: number, value: unknown, record: ElementRecord): CachedElement | null {
    const chars = stringChars(value);
    // One element larger than the whole budget is not worth keeping.
    if (chars > this.maxChars) return null;
    const entry: CachedElement = { fingerprint, format, key, index, value, flat: null, record, chars, next: null, live: true };
    const bucket = this.buckets.get(fingerprint);
    if (bucket === undefined) this.buckets.set(fingerprint, [entry]);
    else bucket.push(entry);
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
    const bucket = this.buckets.get(entry.fingerprint);
    if (bucket === undefined) return;
    const at = bucket.indexOf(entry);
    if (at >= 0) bucket.splice(at, 1);
    if (bucket.length === 0) this.buckets.delete(entry.fingerprint);
  }
}

/** Full JSON equality of a live entry's value with `value`. */
function matches(entry: CachedElement, value: unknown): boolean {
  if (entry.value === value) return true;
  entry.flat ??= flattenJson(entry.value);
  return matchesFlatJson(entry.flat, value);
}

/** Nodes a fingerprint looks at: enough to tell messages apart, few enough to stay cheap on huge elements. */
const FINGERPRINT_NODES = 48;
/** Strings up to this length are hashed whole; longer ones at STRING_SAMPLES evenly spaced characters. */
const FULLY_HASHED_CHARS = 64;
const STRING_SAMPLES = 16;

/**
 * A 32-bit fingerprint of a parsed JSON value from the first FINGERPRINT_NODES nodes in document order: their
 * types, key names (length and end characters), numbers, and each string's length and characters (all of a short
 * string, evenly spaced samples of a long one).
 * Cheap (no pass over long string contents); equal values always match, and collisions are settled by sameJson.
 */
export function jsonFingerprint(value: unknown): number {
  const state: FingerprintState = { hash: 0x811c9dc5, budget: FINGERPRINT_NODES };
  fingerprintWalk(value, state);
  return state.hash >>> 0;
}

interface FingerprintState {
  hash: number;
  budget: number;
}

function mix(state: FingerprintState, n: number): void {
  state.hash = Math.imul(state.hash ^ n, 16777619);
}

function fingerprintWalk(v: unknown, state: FingerprintState): void {
  if (state.budget-- <= 0) return;
  if (typeof v === 'string') {
    const n = v.length;
    mix(state, 0x51 ^ n);
    // Ids (tool_use_id, call ids) are short and differ in a few characters: five samples made whole
    // conversations share buckets, each probe then running sameJson against dozens of near-misses.
    // The hash is kept in a local while mixing characters (a property write per character showed in profiles).
    let hash = state.hash;
    if (n <= FULLY_HASHED_CHARS) {
      for (let i = 0; i < n; i++) hash = Math.imul(hash ^ v.charCodeAt(i), 16777619);
    } else {
      for (let k = 0; k < STRING_SAMPLES; k++) hash = Math.imul(hash ^ v.charCodeAt(Math.floor((k * (n - 1)) / (STRING_SAMPLES - 1))), 16777619);
    }
    state.hash = hash;
  } else if (typeof v === 'number') {
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
