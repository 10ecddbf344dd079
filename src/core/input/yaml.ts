// YAML documents (vcrpy cassettes and other YAML captures) → records, with the `yaml` package (eemeli/yaml: no
// Node APIs, so it runs in the browser worker too). Read as YAML 1.1, the version PyYAML writes: `!!binary` (and
// Ruby's `!binary`) becomes bytes; tags of Python objects (`!!python/unicode`) are read as their plain value. Anchors are bounded by the
// parser's alias limit (a "billion laughs" document is refused). A document with syntax errors (a cut-off file)
// gives its errors, located, then what was read before the break.

import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type ScalarTag, type Tags } from 'yaml';
import type { ListLines } from './list-lines.ts';
import type { RawRecord } from './raw-record.ts';

/** A first content line that only YAML starts with: a directive, a document marker, `key:` or a list item. */
export function looksLikeYaml(firstLine: string): boolean {
  return /^(?:%YAML|---(?:\s|$)|[A-Za-z_][\w .-]*:(?:\s|$)|- )/.test(firstLine.trimStart());
}

/**
 * Ruby's YAML (Psych, what Ruby VCR writes) tags base64 bytes `!binary`, a local tag, where PyYAML writes
 * `!!binary`: both become bytes (left unresolved, a Ruby cassette's gzip or event-stream body stayed base64 text
 * and its usage went unread).
 */
function withRubyBinary(tags: Tags): Tags {
  const binary = tags.find((tag): tag is ScalarTag => typeof tag === 'object' && 'tag' in tag && tag.tag === 'tag:yaml.org,2002:binary');
  return binary === undefined ? tags : [...tags, { ...binary, tag: '!binary', default: false }];
}

/** Errors listed per document before the rest are summed into the last one. */
const MAX_LISTED_ERRORS = 5;

/** The records of a YAML text whose first line is file line `firstLine`. */
export function yamlRecords(text: string, firstLine: number): RawRecord[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { version: '1.1', prettyErrors: true, customTags: withRubyBinary, lineCounter });
  const out: RawRecord[] = [];
  const shift = firstLine - 1;
  for (const error of doc.errors.slice(0, MAX_LISTED_ERRORS)) {
    const at = error.linePos?.[0];
    const line = (at?.line ?? 1) + shift;
    out.push({ line, error: `invalid YAML: ${firstSentence(error.message)} (${error.code}) at line ${line}${at ? `, column ${at.col}` : ''}` });
  }
  if (doc.errors.length > MAX_LISTED_ERRORS) out.push({ line: firstLine, error: `${doc.errors.length - MAX_LISTED_ERRORS} more YAML errors` });
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    out.push({ line: firstLine, error: `YAML not read: ${error instanceof Error ? firstSentence(error.message) : 'error'}` });
    return out;
  }
  if (value !== null && value !== undefined) {
    const listLines = yamlListLines(doc, lineCounter, shift);
    out.push(doc.errors.length > 0 ? { line: firstLine, value, cut: true, listLines } : { line: firstLine, value, listLines });
  }
  return out;
}

/** The file lines of the items of the lists one or two keys deep (see list-lines.ts), from the parsed nodes. */
function yamlListLines(doc: Document, lineCounter: LineCounter, shift: number): ListLines {
  const lists = new Map<string, number[]>();
  const visit = (node: unknown, path: string, keys: number): void => {
    if (isSeq(node)) {
      if (keys > 0) lists.set(path, node.items.map((item) => lineCounter.linePos((item as { range?: [number] }).range?.[0] ?? 0).line + shift));
      return;
    }
    if (!isMap(node) || keys >= 2) return;
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : null;
      if (key !== null) visit(pair.value, keys === 0 ? key : `${path}.${key}`, keys + 1);
    }
  };
  visit(doc.contents, '', 0);
  return (path) => lists.get(path);
}

/** The parser's message up to its first line break (it goes on to quote the text, which is never echoed). */
function firstSentence(message: string): string {
  return message.split('\n', 1)[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
