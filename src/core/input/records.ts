// Text lines → JSON records. A file is either JSONL (one value a line, blank lines skipped), one JSON document
// (a single body, possibly pretty-printed; a JSON array of bodies; a batch API body) or one YAML document (a
// cassette; yaml.ts). JSONL is handled one line at a time; a document needs its whole text. Which one a file is
// follows from its first non-blank line.

import { lineAndColumn, nestingOverflowOffset } from './depth.ts';
import { InputError, throwIfAborted } from './errors.ts';
import { describeCharacter, findJsonSyntaxError } from './json-syntax.ts';
import { formatBytes, type InputLimits } from './limits.ts';
import type { TextLine } from './lines.ts';
import type { FileParse } from './resent-json.ts';
import { looksLikeYaml, yamlRecords } from './yaml.ts';
import { jsonrepair } from 'jsonrepair';

/** A record: the parsed JSON value, or why it could not be parsed. `line` as in ReadError. */
import type { RawRecord } from './raw-record.ts';

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
  let layout: RecordLayout | null = null;
  // The array document and its first line, kept until an error asks where its elements start.
  let arrayDocument: { text: string; firstLine: number } | null = null;
  let elementLines: number[] | null = null;
  function elementLine(record: number): number | null {
    if (layout !== 'json-array') return null;
    if (elementLines === null && arrayDocument !== null) {
      elementLines = arrayElementLines(arrayDocument.text, arrayDocument.firstLine);
      arrayDocument = null;
    }
    return elementLines?.[record - 1] ?? null;
  }
  async function* generate(): AsyncGenerator<RawRecord> {
    const iterator = lines[Symbol.asyncIterator]();
    let first: TextLine | null = null;
    // Leading blank lines and unreadable lines before the first content decide nothing; report the latter.
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      const item = next.value;
      if ('error' in item) {
        yield item;
        continue;
      }
      if ('blank' in item || item.text.trim() === '') continue;
      first = item;
      break;
    }
    if (first === null || !('text' in first)) {
      layout = 'jsonl';
      return;
    }
    const start = first.text.trimStart();
    if (!start.startsWith('[')) {
      const parsed = parseRecord(first.text, first.line, limits.maxNestingDepth);
      if (!('error' in parsed)) {
        const batch = batchRequests(parsed.value);
        if (batch !== null) {
          // A batch API body written on one line.
          layout = 'batch-body';
          for (let i = 0; i < batch.length; i++) yield { line: i + 1, value: batch[i] };
        } else {
          layout = 'jsonl';
          yield parsed;
        }
        yield* jsonlRest(iterator, limits, signal, resent);
        return;
      }
      if (!start.startsWith('{') && !looksLikeYaml(start)) {
        // Neither JSON, JSONL nor YAML: say what kind of character the file starts with (never the text itself).
        const shown = describeCharacter(String.fromCodePoint(start.codePointAt(0)!));
        throw new InputError(`not JSON, JSONL or YAML: the first non-blank line starts with ${shown}`, first.line);
      }
    }
    // Lines read ahead to decide the layout; a document keeps them in its text.
    const ahead: TextLine[] = [];
    if (start.startsWith('{')) {
      // A first line that does not parse: JSONL with a broken first record when the next non-blank line is a
      // complete object on its own (never true inside a pretty-printed document), else a multi-line document.
      // Deciding here keeps a huge JSONL log with a bad first line streaming instead of buffered as a document.
      for (;;) {
        const next = await iterator.next();
        if (next.done) break;
        ahead.push(next.value);
        if ('text' in next.value && next.value.text.trim() !== '') break;
      }
      const second = ahead[ahead.length - 1];
      if (second !== undefined && 'text' in second && isJsonObjectLine(second.text, limits.maxNestingDepth)) {
        layout = 'jsonl';
        yield parseRecord(first.text, first.line, limits.maxNestingDepth);
        for (const item of ahead) {
          if ('error' in item) yield item;
          else if ('text' in item && !isBlank(item.text)) yield parseRecord(item.text, item.line, limits.maxNestingDepth);
        }
        yield* jsonlRest(iterator, limits, signal, resent);
        return;
      }
    }
    // A document spread over several lines (or a JSON array): gather its text, bounded by the document limit.
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
        if (chars > limits.maxDocumentBytes) throw documentTooLarge(limits, first.line);
        continue;
      }
      texts.push(item.text);
      chars += item.text.length + 1;
      if (chars > limits.maxDocumentBytes) throw documentTooLarge(limits, first.line);
    }
    // Line numbers of the document count from the file's first line; blank/unreadable leading lines shift them.
    const lineShift = first.line - 1;
    if (lineErrors.length > 0) {
      yield* lineErrors;
      // Lines that are JSON objects on their own make this JSONL with unreadable lines: read the rest. Otherwise
      // it is one document, and an unreadable line breaks all of it (reported above, once).
      if (texts.some((t) => isJsonObjectLine(t, limits.maxNestingDepth))) {
        layout = 'jsonl';
        yield* linesAsJsonl(texts, lineShift, limits);
      } else layout = 'json-document';
      return;
    }
    const whole = texts.join('\n');
    if (!start.startsWith('{') && !start.startsWith('[')) {
      layout = 'yaml-document';
      yield* yamlRecords(whole, first.line);
      return;
    }
    const parsed = parseRecord(whole, first.line, limits.maxNestingDepth, lineShift);
    if ('error' in parsed) {
      // Not one document. If several lines parse on their own it is JSONL whose first line is broken.
      const tooDeep = nestingOverflowOffset(whole, limits.maxNestingDepth) >= 0;
      if (!tooDeep && texts.length > 1 && texts.some((t, i) => i > 0 && isJsonObjectLine(t, limits.maxNestingDepth))) {
        layout = 'jsonl';
        yield* linesAsJsonl(texts, lineShift, limits);
        return;
      }
      layout = 'json-document';
      yield parsed;
      // A document cut off (a capture that stopped mid-write): what came before the break is still read.
      if (!tooDeep && parsed.error.includes('the text ends before the JSON does')) {
        const salvaged = salvageTruncated(whole, first.line, limits.maxNestingDepth);
        if (Array.isArray(salvaged)) {
          layout = 'json-array';
          // The last element is the one the break cut through: it is left out (the error above says where).
          for (let i = 0; i < salvaged.length - 1; i++) yield { line: i + 1, value: salvaged[i] };
        } else if (salvaged !== undefined) yield { line: first.line, value: salvaged, cut: true };
      }
      return;
    }
    if (Array.isArray(parsed.value)) {
      layout = 'json-array';
      arrayDocument = { text: whole, firstLine: first.line };
      // Array elements are numbered 1-based: the record number stands in for the line.
      for (let i = 0; i < parsed.value.length; i++) yield { line: i + 1, value: parsed.value[i] };
      return;
    }
    const batch = batchRequests(parsed.value);
    if (batch !== null) {
      // The Message Batches API body {"requests":[{custom_id, params}, ...]}: its requests are the records.
      layout = 'batch-body';
      for (let i = 0; i < batch.length; i++) yield { line: i + 1, value: batch[i] };
      return;
    }
    layout = 'json-document';
    yield parsed;
  }
  return { records: generate(), layout: () => layout, elementLine };
}

/**
 * A JSON text cut off before its end, completed by closing what is open (jsonrepair, used only for a text whose one
 * error is its early end): the value read before the break, or undefined when even that does not parse.
 */
function salvageTruncated(text: string, line: number, maxDepth: number): unknown {
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

async function* jsonlRest(
  iterator: AsyncIterator<TextLine>,
  limits: InputLimits,
  signal: AbortSignal | undefined,
  resent: FileParse | undefined,
): AsyncGenerator<RawRecord> {
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
    const value = resent?.parse(item.text, limits.maxNestingDepth);
    yield value === undefined ? parseRecord(item.text, item.line, limits.maxNestingDepth) : { line: item.line, value };
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
    return overflow >= 0 ? tooDeep(text, overflow, line, maxDepth, lineShift) : syntaxError(text, line, lineShift);
  }
  // A text shorter than the limit cannot nest deeper than it (the scan's own shortcut). The walk and the scan
  // agree on valid JSON; the scan gives the offset to report.
  if (text.length > maxDepth && nestsDeeperThan(value, maxDepth)) {
    return tooDeep(text, nestingOverflowOffset(text, maxDepth), line, maxDepth, lineShift);
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

/** The depth error, located at the character that opens the first container beyond the limit. */
function tooDeep(text: string, overflow: number, line: number, maxDepth: number, lineShift: number | undefined): RawRecord {
  return {
    line: locate(text, overflow, line, lineShift),
    error: `JSON nested deeper than ${maxDepth} levels${where(text, overflow, lineShift)}`,
  };
}

function syntaxError(text: string, line: number, lineShift: number | undefined): RawRecord {
  const problem = findJsonSyntaxError(text);
  if (problem === null) return { line, error: 'invalid JSON' };
  return {
    line: locate(text, problem.offset, line, lineShift),
    error: `invalid JSON: ${problem.message}${where(text, problem.offset, lineShift)}`,
  };
}

function locate(text: string, offset: number, line: number, lineShift: number | undefined): number {
  return lineShift === undefined ? line : lineAndColumn(text, offset).line + lineShift;
}

function where(text: string, offset: number, lineShift: number | undefined): string {
  if (lineShift === undefined) return ` at column ${offset + 1}`;
  const at = lineAndColumn(text, offset);
  return ` at line ${at.line + lineShift}, column ${at.column}`;
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
