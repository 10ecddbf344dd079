// The "optimized" scenario's view of a block: what its identity would be if the agent stopped sending values that
// change every request and serialized JSON deterministically. The actual scenario compares `segment.wire` as sent.
import type { Segment } from '../model.ts';

/** Placeholders that stand in for volatile values; fixed strings so two normalized texts compare with ===. */
export const VOLATILE_PLACEHOLDERS = {
  timestamp: '<timestamp>',
  uuid: '<uuid>',
  epoch: '<epoch>',
} as const;

// ISO-8601 date-times (date, 'T' or space, hh:mm, optional seconds, fraction and zone) and bare calendar dates.
// Letters/digits on either side mean the digits belong to something else (a hex id, a version string).
const ISO_DATE_TIME =
  /(?<![0-9A-Za-z])\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?(?![0-9A-Za-z])/g;
// 10-digit seconds or 13-digit milliseconds, optionally with a fraction (Python's time.time()). The range check
// below keeps ordinary large numbers (sizes, counts) out.
const EPOCH_CANDIDATE = /(?<![0-9A-Za-z.])(\d{13}|\d{10})(?:\.\d+)?(?![0-9A-Za-z])/g;

/** Plausible epoch range: 2001-09-09 (1e9 s) to 2100-01-01 (4,102,444,800 s). */
const EPOCH_MIN_SECONDS = 1_000_000_000;
const EPOCH_MAX_SECONDS = 4_102_444_800;

function isPlausibleEpoch(digits: string): boolean {
  const value = Number(digits);
  const seconds = digits.length === 13 ? value / 1000 : value;
  return seconds >= EPOCH_MIN_SECONDS && seconds <= EPOCH_MAX_SECONDS;
}

/** Hex digits of a UUID, in either case; hyphens at the offsets between the 8-4-4-4-12 groups. */
const UUID_LENGTH = 36;
const UUID_HYPHENS = [8, 13, 18, 23];

const isHex = (code: number) => (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);
const isAsciiAlnum = (code: number) =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);

/** Whether a UUID starts at `start`: 8-4-4-4-12 hex digits, with no ASCII letter or digit on either side. */
function uuidAt(text: string, start: number): boolean {
  if (start < 0 || start + UUID_LENGTH > text.length) return false;
  if (start > 0 && isAsciiAlnum(text.charCodeAt(start - 1))) return false;
  if (start + UUID_LENGTH < text.length && isAsciiAlnum(text.charCodeAt(start + UUID_LENGTH))) return false;
  let hyphen = 0;
  for (let i = 0; i < UUID_LENGTH; i++) {
    const code = text.charCodeAt(start + i);
    if (i === UUID_HYPHENS[hyphen]) {
      if (code !== 0x2d) return false;
      hyphen++;
    } else if (!isHex(code)) return false;
  }
  return true;
}

/**
 * Every UUID replaced by the placeholder — the same matches as
 * /(?<![0-9A-Za-z])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Za-z])/gi, found from
 * the hyphens instead: that regex tried its lookbehind and a hex run at every letter of prose and was the top
 * function of the flagship's cache analysis. A UUID's first hyphen is 8 characters after its start, so scanning
 * hyphens in order visits candidate starts in order, as the regex does.
 */
function replaceUuids(text: string): string {
  let out = '';
  let copied = 0;
  for (let hyphen = text.indexOf('-', 8); hyphen !== -1; hyphen = text.indexOf('-', hyphen + 1)) {
    const start = hyphen - 8;
    if (start < copied || !uuidAt(text, start)) continue;
    out += text.slice(copied, start) + VOLATILE_PLACEHOLDERS.uuid;
    copied = start + UUID_LENGTH;
    hyphen = copied - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Replaces ISO-8601 timestamps and dates, UUIDs and epoch-like integers with fixed placeholders, so a system
 * prompt that interpolates "now" compares equal from one request to the next.
 */
export function normalizeVolatile(text: string): string {
  // Cheap guard: every pattern needs at least one digit; most tool schemas and prose blocks skip all three passes.
  if (!/\d/.test(text)) return text;
  return replaceUuids(text.replace(ISO_DATE_TIME, VOLATILE_PLACEHOLDERS.timestamp)).replace(
    EPOCH_CANDIDATE,
    (match: string, digits: string) => (isPlausibleEpoch(digits) ? VOLATILE_PLACEHOLDERS.epoch : match),
  );
}

/** Whether the text holds at least one value normalizeVolatile would replace. */
export function hasVolatileValue(text: string): boolean {
  return normalizeVolatile(text) !== text;
}

/**
 * The same JSON with object keys sorted (by UTF-16 code units) at every depth, serialized compactly.
 * Text that is not JSON is returned unchanged: the identity then stays the exact text.
 */
export function canonicalJson(wire: string): string {
  let value: unknown;
  try {
    value = JSON.parse(wire);
  } catch {
    return wire;
  }
  try {
    // Keys already in sorted order everywhere (most blocks): the native serializer writes the same text.
    return keysSorted(value) ? JSON.stringify(value) : serializeSorted(value);
  } catch (error) {
    // Nesting deep enough to exhaust the stack: keep the exact text rather than fail the analysis.
    if (error instanceof RangeError) return wire;
    throw error;
  }
}

/**
 * Whether every object's keys, in the order JSON.stringify writes them (Object.keys), are already in the order
 * serializeSorted sorts them: then both write the same text.
 */
function keysSorted(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!keysSorted(value[i])) return false;
    return true;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && keys[i - 1]! > keys[i]!) return false;
    if (!keysSorted(record[keys[i]!])) return false;
  }
  return true;
}

// Writes the string directly instead of building sorted objects: a key named "__proto__" would otherwise be
// swallowed by the object literal's prototype setter.
function serializeSorted(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  // Built by concatenation: no array of parts per container (this runs once per distinct block of a log).
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + serializeSorted(value[i]);
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) out += (i > 0 ? ',' : '') + JSON.stringify(keys[i]) + ':' + serializeSorted(record[keys[i]!]);
  return out + '}';
}

/**
 * A call id routes a tool result to its call: a different id is a different prompt even when it looks like a
 * UUID or a timestamp, so ids are kept verbatim (the value of an `id`, `tool_use_id`, `tool_call_id` or
 * `call_id` key in compact JSON).
 */
const ROUTING_ID = /"(?:id|tool_use_id|tool_call_id|call_id)":"(?:[^"\\]|\\.)*"/g;

/** normalizeVolatile on everything but routing ids (see above). */
export function normalizeOutsideRoutingIds(json: string): string {
  if (!/\d/.test(json)) return json;
  let out = '';
  let copied = 0;
  for (const match of json.matchAll(ROUTING_ID)) {
    out += normalizeVolatile(json.slice(copied, match.index)) + match[0];
    copied = match.index + match[0].length;
  }
  return copied === 0 ? normalizeVolatile(json) : out + normalizeVolatile(json.slice(copied));
}

/**
 * Identity of a segment in the optimized scenario: canonical JSON (key order no longer matters), then volatile
 * values replaced outside routing ids. Canonicalizing first keeps the JSON parseable when an epoch is a bare number.
 * Pass a memo (one per analysis) to normalize each distinct interned wire string once.
 */
export function optimizedWire(segment: Pick<Segment, 'wire'>, memo?: Map<string, string>): string {
  const known = memo?.get(segment.wire);
  if (known !== undefined) return known;
  const identity = normalizeOutsideRoutingIds(canonicalJson(segment.wire));
  memo?.set(segment.wire, identity);
  return identity;
}

/**
 * Serialization order of a request's segments in the optimized scenario: tool definitions sorted by tool name
 * (then by optimized identity, for nameless or same-named tools) in the slots the tools occupied, every other
 * segment where it was. Returns segment indices, so token arrays stay aligned with `segments`.
 */
export function sortedTools(
  segments: readonly Pick<Segment, 'category' | 'toolName' | 'wire'>[],
  memo?: Map<string, string>,
): number[] {
  const order = segments.map((_, index) => index);
  const toolSlots = order.filter((index) => segments[index]?.category === 'tools');
  if (toolSlots.length < 2) return order;
  const keyed = toolSlots.map((index) => {
    const segment = segments[index]!;
    return { index, name: segment.toolName ?? '', identity: optimizedWire(segment, memo) };
  });
  keyed.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.identity, b.identity) || a.index - b.index);
  toolSlots.forEach((slot, rank) => {
    order[slot] = keyed[rank]!.index;
  });
  return order;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
