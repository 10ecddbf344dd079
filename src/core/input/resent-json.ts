// JSON.parse for JSONL records that resend what earlier records sent. An agent loop's log repeats its whole
// history on every line, and a gateway log interleaves many such loops: most of each line is array items (messages,
// tools, system blocks) whose exact text an earlier line already held. This parser walks the top levels of a record
// itself and, at each array item, first checks whether the text there starts with the text of the item it expects
// (the one that followed the previous item last time, or the one last seen at this place; a byte comparison, no
// hashing); if so it returns that item's parsed value again, the very same object, without reading the item. Other
// items are looked up by their exact text, and only new text is handed to JSON.parse.
//
// The result equals JSON.parse(line) (same values, key order, duplicate keys and "__proto__" keys as JSON.parse
// makes them); whatever the walk does not accept (invalid JSON, nesting beyond the limit) returns undefined so the
// caller parses the line the plain way and reports the error exactly as before. Values are shared between records:
// nothing downstream may mutate parsed input (the importers copy what they change).

import { OldestFirst } from '../text/oldest-first.ts';
import { endOfJsonString } from './depth.ts';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, isJsonSpace, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-bytes.ts';

/** Containers at this depth or deeper are parsed whole (JSON.parse of their text) instead of walked. */
const WALKED_DEPTH = 4;
/**
 * Shorter items are parsed whole, directly: remembering them costs more than parsing. Set low because an agent
 * loop's short messages (a brief reply, a one-line tool result) are resent on every line like the long ones: at 128
 * the bench's session-300 left half its messages to be parsed again on each line (218 ms for its 16 MB against
 * JSON.parse's 180; at 64, 25 ms), with no measurable change on the gateway-200mb log.
 */
const MIN_ITEM_CHARS = 64;
/** What an item costs the memory budget beyond its text (its record, its map entry), in characters. */
const ITEM_OVERHEAD_CHARS = 64;
const rememberedChars = (text: string) => text.length + ITEM_OVERHEAD_CHARS;
/** After this many characters of a file, reuse stays on only if it paid off. */
const TRIAL_CHARS = 8 * 1024 * 1024;
/** Fraction of a file's characters that must have come from reused items by the end of the trial. */
const MIN_REUSED_FRACTION = 0.25;
/** Distinct array places (key paths) whose last items are kept as predictions. */
const MAX_PLACES = 4096;
/** Characters of item text remembered per read; the oldest items are forgotten first. */
const MAX_REMEMBERED_CHARS = 16 * 1024 * 1024;

export interface ResentJsonOptions {
  maxRememberedChars?: number;
  trialChars?: number;
}

interface Item {
  /** The item's exact text (a copy that does not keep the record's line alive). */
  text: string;
  value: unknown;
  /** Nesting depth of the value (a primitive is 0, `[]` is 1). */
  depth: number;
  /** The item that followed this one in the record that last held both. */
  next: Item | null;
  live: boolean;
}

class Rejected extends Error {}
const REJECTED = new Rejected();

/** One per read: items of every file of the read are remembered together (a history may continue across files). */
export class ResentJsonParser {
  private readonly byText = new Map<string, Item>();
  /** Per place (the keys leading to an array) and index, the item last seen there. */
  private readonly latest = new Map<string, (Item | undefined)[]>();
  private readonly kept: OldestFirst<Item>;
  // The record being parsed.
  private text = '';
  private at = 0;
  private maxDepth = 0;
  /** Characters of the record taken from remembered items. */
  private reusedChars = 0;

  private readonly maxChars: number;
  private readonly trialChars: number;

  constructor(options: ResentJsonOptions = {}) {
    this.maxChars = options.maxRememberedChars ?? MAX_REMEMBERED_CHARS;
    this.trialChars = options.trialChars ?? TRIAL_CHARS;
    this.kept = new OldestFirst(this.maxChars, (item) => rememberedChars(item.text), (item) => this.forget(item));
  }

  /** A per-file switch: reuse is tried on each file and kept only where it pays off. */
  forFile(): FileParse {
    return new FileParse(this, this.trialChars);
  }

  /** Characters of the last record parsed that came from remembered items. */
  get lastReusedChars(): number {
    return this.reusedChars;
  }

  /** JSON.parse(text), or undefined when the text is not valid JSON or nests deeper than `maxDepth`. */
  parse(text: string, maxDepth: number): unknown {
    this.text = text;
    this.reusedChars = 0;
    this.at = 0;
    this.maxDepth = maxDepth;
    try {
      this.skipWhitespace();
      const value = this.value('', 0);
      this.skipWhitespace();
      return this.at === text.length ? value : undefined;
    } catch (error) {
      if (error === REJECTED || error instanceof SyntaxError) return undefined;
      throw error;
    } finally {
      this.text = '';
    }
  }

  /** The value at `at` (after whitespace), at container depth `depth`; `place` names where it sits. */
  private value(place: string, depth: number): unknown {
    const c = this.text.charCodeAt(this.at);
    if (c === OPEN_BRACE && depth < WALKED_DEPTH) return this.object(place, depth);
    if (c === OPEN_BRACKET && depth < WALKED_DEPTH) return this.array(place, depth);
    const start = this.at;
    this.at = this.endOfValue(start);
    return this.parsed(start, this.at, depth);
  }

  private object(place: string, depth: number): unknown {
    if (depth + 1 > this.maxDepth) throw REJECTED;
    const text = this.text;
    const out: Record<string, unknown> = {};
    this.at++;
    this.skipWhitespace();
    if (text.charCodeAt(this.at) === CLOSE_BRACE) {
      this.at++;
      return out;
    }
    for (;;) {
      if (text.charCodeAt(this.at) !== QUOTE) throw REJECTED;
      const keyStart = this.at;
      this.at = this.endOfString(keyStart + 1);
      const key = this.key(keyStart, this.at);
      this.skipWhitespace();
      if (text.charCodeAt(this.at) !== COLON) throw REJECTED;
      this.at++;
      this.skipWhitespace();
      const value = this.value(`${place}/${key}`, depth + 1);
      // JSON.parse makes "__proto__" an ordinary own key; an assignment would set the prototype instead.
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      this.skipWhitespace();
      const next = text.charCodeAt(this.at++);
      if (next === CLOSE_BRACE) return out;
      if (next !== COMMA) throw REJECTED;
      this.skipWhitespace();
    }
  }

  private array(place: string, depth: number): unknown[] {
    if (depth + 1 > this.maxDepth) throw REJECTED;
    const text = this.text;
    const out: unknown[] = [];
    this.at++;
    this.skipWhitespace();
    if (text.charCodeAt(this.at) === CLOSE_BRACKET) {
      this.at++;
      return out;
    }
    let places = this.latest.get(place);
    let previous: Item | null = null;
    for (let index = 0; ; index++) {
      const start = this.at;
      const item = this.item(places?.[index], previous, depth + 1);
      if (item === null) {
        // A short item, whole: one JSON.parse of its text costs less than walking it.
        out.push(this.parsed(start, this.at, depth + 1));
        previous = null;
      } else {
        out.push(item.value);
        if (previous !== null && previous.next !== item) previous.next = item;
        places ??= this.placesAt(place);
        places[index] = item;
        previous = item;
      }
      this.skipWhitespace();
      const next = text.charCodeAt(this.at++);
      if (next === CLOSE_BRACKET) return out;
      if (next !== COMMA) throw REJECTED;
      this.skipWhitespace();
    }
  }

  /**
   * The item at `at` when it is (or becomes) a remembered one; null for a short item, which the caller parses.
   * Either way `at` is moved past it.
   */
  private item(atPlace: Item | undefined, previous: Item | null, depth: number): Item | null {
    const text = this.text;
    const start = this.at;
    const expected = this.expected(previous?.next ?? null, start) ?? this.expected(atPlace ?? null, start);
    if (expected !== null) {
      if (depth + expected.depth > this.maxDepth) throw REJECTED;
      this.at = start + expected.text.length;
      this.reusedChars += expected.text.length;
      return expected;
    }
    const end = this.endOfValue(start);
    if (end - start < MIN_ITEM_CHARS) {
      this.at = end;
      return null;
    }
    const raw = text.slice(start, end);
    const known = this.byText.get(raw);
    if (known !== undefined) {
      if (depth + known.depth > this.maxDepth) throw REJECTED;
      this.at = end;
      this.reusedChars += raw.length;
      return known;
    }
    const value = JSON.parse(raw) as unknown;
    const valueDepth = this.checkedDepth(value, depth);
    this.at = end;
    return this.remember(raw, value, valueDepth);
  }

  /**
   * The items last seen in the array at `place`, by index. Places are only hints, so the table is simply emptied
   * when a log keeps inventing new ones (keys that differ on every line).
   */
  private placesAt(place: string): (Item | undefined)[] {
    if (this.latest.size >= MAX_PLACES) this.latest.clear();
    const places: (Item | undefined)[] = [];
    this.latest.set(place, places);
    return places;
  }

  /** `candidate` when the text at `start` is exactly its text followed by the end of a value, else null. */
  private expected(candidate: Item | null, start: number): Item | null {
    if (candidate === null || !candidate.live) return null;
    const end = start + candidate.text.length;
    // A slice compared with === is a memory comparison; startsWith(text, position) measured 25× slower here.
    return this.endsValue(end) && this.text.slice(start, end) === candidate.text ? candidate : null;
  }

  /** Whether a value may end at `i`: whitespace, a comma or a closing bracket follows. */
  private endsValue(i: number): boolean {
    const c = this.text.charCodeAt(i);
    return c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE || isJsonSpace(c);
  }

  /** JSON.parse of text[start, end), checked against the nesting limit from depth `depth`. */
  private parsed(start: number, end: number, depth: number): unknown {
    const value = JSON.parse(this.text.slice(start, end)) as unknown;
    this.checkedDepth(value, depth);
    return value;
  }

  /** Nesting depth of a value placed at `depth`, rejecting the record when it goes past the limit. */
  private checkedDepth(value: unknown, depth: number): number {
    const valueDepth = depthOf(value, this.maxDepth - depth + 1);
    if (depth + valueDepth > this.maxDepth) throw REJECTED;
    return valueDepth;
  }

  private remember(raw: string, value: unknown, depth: number): Item {
    // An item larger than the whole budget is used once and not remembered.
    if (rememberedChars(raw) > this.maxChars) return { text: '', value, depth, next: null, live: false };
    // A slice of the record would keep the whole line alive for as long as the item is remembered.
    const item: Item = { text: (raw + ' ').slice(0, -1), value, depth, next: null, live: true };
    this.byText.set(item.text, item);
    this.kept.add(item);
    return item;
  }

  private forget(item: Item): void {
    if (this.byText.get(item.text) === item) this.byText.delete(item.text);
    // A place or a predecessor may still point here: keep the object, release what the budget counted.
    item.live = false;
    item.next = null;
    item.value = null;
    item.text = '';
  }

  /** A key's text: sliced directly when it holds no escape or control character, else decoded by JSON.parse. */
  private key(start: number, end: number): string {
    const text = this.text;
    for (let i = start + 1; i < end - 1; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c === BACKSLASH) return JSON.parse(text.slice(start, end)) as string;
    }
    return text.slice(start + 1, end - 1);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let i = this.at;
    while (isJsonSpace(text.charCodeAt(i))) i++;
    this.at = i;
  }

  /** End of the value starting at `start`: past its closing quote or bracket, or at the character ending it. */
  private endOfValue(start: number): number {
    const text = this.text;
    const c = text.charCodeAt(start);
    if (c === QUOTE) return this.endOfString(start + 1);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      let depth = 0;
      for (let i = start; i < text.length; ) {
        const d = text.charCodeAt(i);
        if (d === QUOTE) {
          i = this.endOfString(i + 1);
          continue;
        }
        if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
        else if ((d === CLOSE_BRACE || d === CLOSE_BRACKET) && --depth === 0) return i + 1;
        i++;
      }
      throw REJECTED;
    }
    let i = start;
    while (i < text.length && !this.endsValue(i)) i++;
    if (i === start) throw REJECTED;
    return i;
  }

  /** Index just past the quote closing a string whose content starts at `from`. */
  private endOfString(from: number): number {
    const end = endOfJsonString(this.text, from);
    if (end < 0) throw REJECTED;
    return end;
  }
}

/** Reuse for one file: on while it pays off. */
export class FileParse {
  private reused = 0;
  private seen = 0;
  private on = true;

  constructor(
    private readonly parser: ResentJsonParser,
    private readonly trialChars: number,
  ) {}

  /** JSON.parse(text) with reuse, or undefined: invalid, too deep, or reuse is off for this file. */
  parse(text: string, maxDepth: number): unknown {
    if (!this.on) return undefined;
    this.seen += text.length;
    const value = this.parser.parse(text, maxDepth);
    this.reused += this.parser.lastReusedChars;
    if (this.seen > this.trialChars && this.reused < this.seen * MIN_REUSED_FRACTION) this.on = false;
    return value;
  }
}

/** Nesting depth of a parsed value (a primitive is 0), counting no further than `cap`. */
function depthOf(value: unknown, cap: number): number {
  if (typeof value !== 'object' || value === null || cap <= 0) return 0;
  let deepest = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && deepest < cap - 1; i++) deepest = Math.max(deepest, depthOf(value[i], cap - 1));
  } else {
    for (const key in value) {
      deepest = Math.max(deepest, depthOf((value as Record<string, unknown>)[key], cap - 1));
      if (deepest >= cap - 1) break;
    }
  }
  return deepest + 1;
}
