// Text lines → JSON records. A file is either JSONL (one value a line, blank lines skipped), one JSON document
// (a single body, possibly pretty-printed; a JSON array of bodies; a batch API body) or one YAML document (a
// cassette; yaml.ts). JSONL is handled one line at a time; a document needs its whole text. Which one a file is
// follows from its first non-blank line.

import { jsonListLines } from './list-lines.ts';
import { lineAndColumn, nestingOverflowOffset } from './depth.ts';
import { InputError, throwIfAborted } from './errors.ts';
import { describeCharacter, findJsonSyntaxError } from './json-syntax.ts';
import { formatBytes, type InputLimits } from './limits.ts';
import type { TextLine } from './lines.ts';
import type { FileParse } from './resent-json.ts';
import type { RawRecord } from './raw-record.ts';

/** A record: the parsed JSON value, or why it could not be parsed. `line` as in ReadError. */
export type { RawRecord } from './raw-record.ts';

/** How the file holds its records. */
export type RecordLayout = 'jsonl' | 'json-array' | 'json-document' | 'batch-body' | 'yaml-document';

export interface RecordSource {
  records: AsyncGenerator<RawRecord>;
  /** Known once the first record has been produced (or the generator has finished). */
  layout(): RecordLayout | null;
  /**
   * For a JSON array, the file line where element `record` (1-based) starts; null for other layouts. Worked out
   * only when first asked (an error message needs it), with one scan of the document.
   */
  elementLine(record: number): number | null;
}

/** `resent`: JSONL lines after the first are parsed with it (see resent-json.ts); omitted, plain JSON.parse. */
export function readRecords(
  lines: AsyncIterable<TextLine>,
  limits: InputLimits,
  signal?: AbortSignal,
  resent?: FileParse,
): RecordSource {
  const read: ReadState = { limits, signal, resent, layout: null, arrayDocument: null };
  let elementLines: number[] | null = null;
  function elementLine(record: number): number | null {
    if (read.layout !== 'json-array') return null;
    if (elementLines === null && read.arrayDocument !== null) {
      elementLines = arrayElementLines(read.arrayDocument.text, read.arrayDocument.firstLine);
      read.arrayDocument = null;
    }
    return elementLines?.[record - 1] ?? null;
  }
  return { records: generate(lines, read), layout: () => read.layout, elementLine };
}

/** One read's settings and what it has learnt so far (shared by the steps below). */
interface ReadState {
  readonly limits: InputLimits;
  readonly signal: AbortSignal | undefined;
  readonly resent: FileParse | undefined;
  layout: RecordLayout | null;
  /** The array document and its first line, kept until an error asks where its elements start. */
  arrayDocument: { text: string; firstLine: number } | null;
}

type ContentLine = { line: number; text: string };
type RawRecordError = Extract<RawRecord, { error: string }>;

async function* generate(lines: AsyncIterable<TextLine>, read: ReadState): AsyncGenerator<RawRecord> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = yield* leadingLines(iterator);
  if (first === null) {
    read.layout = 'jsonl';
    return;
  }
  const start = first.text.trimStart();
  if (!start.startsWith('[') && (yield* oneLineStart(iterator, read, first, start))) return;
  // Lines read ahead to decide the layout; a document keeps them in its text.
  const ahead: TextLine[] = [];
  if (start.startsWith('{') && (yield* brokenFirstJsonlLine(iterator, read, first, ahead))) return;
  // A document spread over several lines (or a JSON array): gather its text, bounded by the document limit.
  const gathered = await gatherDocument(iterator, read, first, ahead);
  // Line numbers of the document count from the file's first line; blank/unreadable leading lines shift them.
  const lineShift = first.line - 1;
  if (gathered.lineErrors.length > 0) {
    yield* gathered.lineErrors;
    // Lines that are JSON objects on their own make this JSONL with unreadable lines: read the rest. Otherwise
    // it is one document, and an unreadable line breaks all of it (reported above, once).
    if (gathered.texts.some((t) => isJsonObjectLine(t, read.limits.maxNestingDepth))) {
      read.layout = 'jsonl';
      yield* linesAsJsonl(gathered.texts, lineShift, read.limits);
    } else read.layout = 'json-document';
    return;
  }
  const whole = gathered.texts.join('\n');
  if (!start.startsWith('{') && !start.startsWith('[')) {
    read.layout = 'yaml-document';
    // The YAML parser is loaded only for a YAML file (most reads never need it).
    yield* (await import('./yaml.ts')).yamlRecords(whole, first.line);
    return;
  }
  yield* documentRecords(read, { whole, texts: gathered.texts, firstLine: first.line });
}

/** Leading blank lines and unreadable lines before the first content decide nothing; the latter are reported. */
async function* leadingLines(iterator: AsyncIterator<TextLine>): AsyncGenerator<RawRecord, ContentLine | null> {
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
    const item = next.value;
    if ('error' in item) yield item;
    else if ('text' in item && item.text.trim() !== '') return item;
  }
  return null;
}

/**
 * A first line that is not an array's start: one JSONL record (or a batch body on one line) when it parses, and
 * then the rest is JSONL; true when so read. A start that is neither JSON nor YAML is refused.
 */
async function* oneLineStart(
  iterator: AsyncIterator<TextLine>,
  read: ReadState,
  first: ContentLine,
  start: string,
): AsyncGenerator<RawRecord, boolean> {
  const parsed = parseRecord(first.text, first.line, read.limits.maxNestingDepth);
  if (!('error' in parsed)) {
    const batch = batchRequests(parsed.value);
    if (batch !== null) {
      // A batch API body written on one line.
      read.layout = 'batch-body';
      yield* numbered(batch, batch.length);
    } else {
      read.layout = 'jsonl';
      yield parsed;
    }
    yield* jsonlRest(iterator, read);
    return true;
  }
  if (!start.startsWith('{') && !(await import('./yaml.ts')).looksLikeYaml(start)) {
    // Neither JSON, JSONL nor YAML: say what kind of character the file starts with (never the text itself).
    const shown = describeCharacter(String.fromCodePoint(start.codePointAt(0)!));
    throw new InputError(`not JSON, JSONL or YAML: the first non-blank line starts with ${shown}`, first.line);
  }
  return false;
}

/**
 * A first line that does not parse: JSONL with a broken first record when the next non-blank line is a complete
 * object on its own (never true inside a pretty-printed document), else a multi-line document. Deciding here keeps
 * a huge JSONL log with a bad first line streaming instead of buffered as a document. The lines read to decide
 * are left in `ahead` when it is a document; true when read as JSONL.
 */
async function* brokenFirstJsonlLine(
  iterator: AsyncIterator<TextLine>,
  read: ReadState,
  first: ContentLine,
  ahead: TextLine[],
): AsyncGenerator<RawRecord, boolean> {
  const maxDepth = read.limits.maxNestingDepth;
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
    ahead.push(next.value);
    if ('text' in next.value && next.value.text.trim() !== '') break;
  }
  const second = ahead[ahead.length - 1];
  if (second === undefined || !('text' in second) || !isJsonObjectLine(second.text, maxDepth)) return false;
  read.layout = 'jsonl';
  yield parseRecord(first.text, first.line, maxDepth);
  for (const item of ahead) {
    if ('error' in item) yield item;
    else if ('text' in item && !isBlank(item.text)) yield parseRecord(item.text, item.line, maxDepth);
  }
  yield* jsonlRest(iterator, read);
  return true;
}

/** The document's lines (an unreadable one as an empty line, its error kept apart), the first one included. */
async function gatherDocument(
  iterator: AsyncIterator<TextLine>,
  read: ReadState,
  first: ContentLine,
  ahead: TextLine[],
): Promise<{ texts: string[]; lineErrors: RawRecord[] }> {
  const { limits, signal } = read;
  const texts: string[] = [first.text];
  const lineErrors: RawRecord[] = [];
  let chars = first.text.length;
  for (;;) {
    throwIfAborted(signal);
    let item: TextLine;
    const held = ahead.shift();
    if (held !== undefined) item = held;
    else {
      const next = await iterator.next();
      if (next.done) break;
      item = next.value;
    }
    if ('error' in item) {
      lineErrors.push(item);
      texts.push('');
      continue;
    }
    if ('blank' in item) {
      // Kept as empty lines: the document's line numbers count them.
      for (let i = 0; i < item.blank; i++) texts.push('');
      chars += item.blank;
    } else {
      texts.push(item.text);
      chars += item.text.length + 1;
    }
    if (chars > limits.maxDocumentBytes) throw documentTooLarge(limits, first.line);
  }
  return { texts, lineErrors };
}

/** A whole JSON document's text, its lines and the file line it starts on. */
interface JsonDocument {
  whole: string;
  texts: string[];
  firstLine: number;
}

/** The records of a JSON document read whole: an array's elements, a batch body's requests, or the one value. */
async function* documentRecords(read: ReadState, document: JsonDocument): AsyncGenerator<RawRecord> {
  const { whole, firstLine } = document;
  const parsed = parseRecord(whole, firstLine, read.limits.maxNestingDepth, firstLine - 1);
  if ('error' in parsed) {
    yield* unparsedDocument(read, document, parsed);
    return;
  }
  if (Array.isArray(parsed.value)) {
    read.layout = 'json-array';
    read.arrayDocument = { text: whole, firstLine };
    // Array elements are numbered 1-based: the record number stands in for the line.
    yield* numbered(parsed.value, parsed.value.length);
    return;
  }
  const batch = batchRequests(parsed.value);
  if (batch !== null) {
    // The Message Batches API body {"requests":[{custom_id, params}, ...]}: its requests are the records.
    read.layout = 'batch-body';
    yield* numbered(batch, batch.length);
    return;
  }
  read.layout = 'json-document';
  yield { ...parsed, listLines: jsonListLines(whole, firstLine) };
}

/** A document that does not parse as one: JSONL whose first line is broken, or a broken (maybe cut off) document. */
async function* unparsedDocument(read: ReadState, document: JsonDocument, parsed: RawRecordError): AsyncGenerator<RawRecord> {
  const { whole, texts, firstLine } = document;
  const maxDepth = read.limits.maxNestingDepth;
  const lineShift = firstLine - 1;
  // Not one document. If several lines parse on their own it is JSONL whose first line is broken.
  const tooDeep = nestingOverflowOffset(whole, maxDepth) >= 0;
  if (!tooDeep && texts.length > 1 && texts.some((t, i) => i > 0 && isJsonObjectLine(t, maxDepth))) {
    read.layout = 'jsonl';
    yield* linesAsJsonl(texts, lineShift, read.limits);
    return;
  }
  read.layout = 'json-document';
  yield parsed;
  // A document cut off (a capture that stopped mid-write): what came before the break is still read.
  if (tooDeep || !parsed.error.includes('the text ends before the JSON does')) return;
  const salvaged = await salvageTruncated(whole, firstLine, maxDepth);
  if (Array.isArray(salvaged)) {
    read.layout = 'json-array';
    // The last element is the one the break cut through: it is left out (the error above says where).
    yield* numbered(salvaged, salvaged.length - 1);
  } else if (salvaged !== undefined) yield { line: firstLine, value: salvaged, cut: true };
}

/** The first `count` values as records numbered from 1. */
function* numbered(values: unknown[], count: number): Generator<RawRecord> {
  for (let i = 0; i < count; i++) yield { line: i + 1, value: values[i] };
}

/**
 * A JSON text cut off before its end, completed by closing what is open (jsonrepair, used only for a text whose one
 * error is its early end): the value read before the break, or undefined when even that does not parse. Loaded
 * only then: every other read (and every start of the CLI) goes without it.
 */
async function salvageTruncated(text: string, line: number, maxDepth: number): Promise<unknown> {
  const { jsonrepair } = await import('jsonrepair');
  let repaired: string;
  try {
    repaired = jsonrepair(text);
  } catch {
    return undefined;
  }
  const record = parseRecord(repaired, line, maxDepth);
  return 'value' in record ? record.value : undefined;
}

function documentTooLarge(limits: InputLimits, line: number): InputError {
  return new InputError(
    `a single JSON document larger than the limit of ${formatBytes(limits.maxDocumentBytes)}; ` +
      'write one request a line (JSONL) so it can be streamed',
    line,
  );
}

async function* jsonlRest(iterator: AsyncIterator<TextLine>, read: ReadState): AsyncGenerator<RawRecord> {
  const { signal, resent } = read;
  const maxDepth = read.limits.maxNestingDepth;
  for (;;) {
    throwIfAborted(signal);
    const next = await iterator.next();
    if (next.done) return;
    const item = next.value;
    if ('error' in item) {
      yield item;
      continue;
    }
    if ('blank' in item || isBlank(item.text)) continue;
    const value = resent?.parse(item.text, maxDepth);
    yield value === undefined ? parseRecord(item.text, item.line, maxDepth) : { line: item.line, value };
  }
}

function* linesAsJsonl(texts: string[], lineShift: number, limits: InputLimits): Generator<RawRecord> {
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!;
    if (isBlank(text)) continue;
    yield parseRecord(text, i + 1 + lineShift, limits.maxNestingDepth);
  }
}

/**
 * Parse one JSON text and check its nesting depth. For a multi-line document, `lineShift` converts the parser's
 * position into a file line.
 *
 * Parsed first, checked after: JSON.parse does not recurse, and walking the parsed containers (stopping below
 * the limit) costs far less than the character scan that locates an overflow, which now runs only when there is
 * one. Should JSON.parse throw on some input, the scan still decides whether it is too deep before any syntax
 * error is reported, so every message stays as it was.
 */
export function parseRecord(text: string, line: number, maxDepth: number, lineShift?: number): RawRecord {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    const overflow = nestingOverflowOffset(text, maxDepth);
    const at: PlacedText = { text, line, lineShift };
    return overflow >= 0 ? tooDeep(at, overflow, maxDepth) : syntaxError(at);
  }
  // A text shorter than the limit cannot nest deeper than it (the scan's own shortcut). The walk and the scan
  // agree on valid JSON; the scan gives the offset to report.
  if (text.length > maxDepth && nestsDeeperThan(value, maxDepth)) {
    return tooDeep({ text, line, lineShift }, nestingOverflowOffset(text, maxDepth), maxDepth);
  }
  return { line, value };
}

/** Whether a parsed value holds a container nested deeper than `limit` (the top-level container is level 1). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsDeeperThan(value[i], limit - 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) if (nestsDeeperThan(record[key], limit - 1)) return true;
  return false;
}

/** A text that failed to parse, where it is: its (first) file line, and for a multi-line document the shift. */
interface PlacedText {
  text: string;
  line: number;
  lineShift: number | undefined;
}

/** The depth error, located at the character that opens the first container beyond the limit. */
function tooDeep(at: PlacedText, overflow: number, maxDepth: number): RawRecord {
  return { line: locate(at, overflow), error: `JSON nested deeper than ${maxDepth} levels${where(at, overflow)}` };
}

function syntaxError(at: PlacedText): RawRecord {
  const problem = findJsonSyntaxError(at.text);
  if (problem === null) return { line: at.line, error: 'invalid JSON' };
  return { line: locate(at, problem.offset), error: `invalid JSON: ${problem.message}${where(at, problem.offset)}` };
}

function locate(at: PlacedText, offset: number): number {
  return at.lineShift === undefined ? at.line : lineAndColumn(at.text, offset).line + at.lineShift;
}

function where(at: PlacedText, offset: number): string {
  if (at.lineShift === undefined) return ` at column ${offset + 1}`;
  const place = lineAndColumn(at.text, offset);
  return ` at line ${place.line + at.lineShift}, column ${place.column}`;
}

/**
 * The 1-based file line on which each top-level element of a JSON array document starts (the document's first
 * line is `firstLine`). One pass, aware of strings and escapes; the text is known to be valid JSON.
 */
export function arrayElementLines(text: string, firstLine: number): number[] {
  const lines: number[] = [];
  let line = firstLine;
  let depth = 0;
  let inString = false;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line++;
      continue;
    }
    if (inString) {
      if (c === 0x5c) i++; // backslash: the escaped character cannot end the string (an escaped newline is \n)
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
    if (expectElement && depth === 1 && c !== 0x5d) {
      lines.push(line);
      expectElement = false;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && depth === 1) expectElement = true;
  }
  return lines;
}

/** The `requests` array of a batch API body (an object holding only that array and no request fields). */
function batchRequests(value: unknown): unknown[] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const requests = record['requests'];
  if (!Array.isArray(requests) || 'messages' in record || 'input' in record) return null;
  return requests;
}

function isBlank(text: string): boolean {
  return text.length === 0 || text.trim() === '';
}

function isJsonObjectLine(text: string, maxDepth: number): boolean {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return false;
  return 'value' in parseRecord(t, 0, maxDepth);
}
