// Human summary of an analysis for the terminal: tokens by category per file and per request, the model each
// request is priced as (and when the prices were checked), estimates marked with ≈, errors with their place.
import { duplicateLines } from './duplicates.ts';
import type { Analysis, AnalysisFile, ModelUse, TokenTotals } from '../../core/analysis/types.ts';
import { lookupModel } from '../../core/pricing/lookup.ts';
import { allUsageOnly, CATEGORIES, recordedPromptTokens, type Category, type ParsedRequest } from '../../core/model.ts';
import type { RequestTokens } from '../../core/tokens/counter.ts';
import { ownSgr } from '../terminal-safe.ts';
import { formatBand, formatCount, formatTokens } from '../../core/text/format.ts';

/** The one token formatter (core/text), named here too for the report's callers. */
export { formatTokens };

export interface TerminalOptions {
  color: boolean;
  verbose: boolean;
}

export interface Style {
  bold: (text: string) => string;
  dim: (text: string) => string;
  warn: (text: string) => string;
}

export function styleOf({ color }: { color: boolean }): Style {
  const wrap = (open: number, close: number) => (text: string) => (color ? `${ownSgr(open)}${text}${ownSgr(close)}` : text);
  return { bold: wrap(1, 22), dim: wrap(2, 22), warn: wrap(33, 39) };
}

const number = new Intl.NumberFormat('en-US');

export function categoryList(byCategory: Partial<Record<Category, number>>, { overhead, exact }: { overhead: number; exact: boolean }): string {
  const parts: string[] = [];
  for (const category of CATEGORIES) {
    const value = byCategory[category];
    // The unrecorded setup is inferred from recorded usage: never an exact count.
    if (value !== undefined && value > 0) parts.push(`${category} ${formatTokens(value, exact && category !== 'setup_inferred')}`);
  }
  if (overhead !== 0) parts.push(`overhead ${formatTokens(overhead, exact)}`);
  return parts.length > 0 ? parts.join(' · ') : 'nothing counted';
}

export function totalsLine(totals: TokenTotals): string {
  const exact = totals.requests > 0 && totals.exactRequests === totals.requests;
  const exactness =
    totals.exactRequests === totals.requests
      ? 'all exact'
      : totals.exactRequests === 0
        ? 'all estimated'
        : `exact for ${totals.exactRequests} of ${totals.requests} requests`;
  return `${formatTokens(totals.tokens, exact)} tokens (${exactness})`;
}

function plural(count: number, noun: string): string {
  return `${number.format(count)} ${noun}${count === 1 ? '' : 's'}`;
}

function fileHeading(file: AnalysisFile, index: number): string {
  const format = file.format ?? 'unreadable';
  const envelope = file.envelope !== 'none' && file.envelope !== '' ? `, ${file.envelope} envelope` : '';
  return `file ${index + 1}: ${file.name} (${format}${envelope}, ${plural(file.requests, 'request')}${
    file.errors > 0 ? `, ${plural(file.errors, 'error')}` : ''
  })`;
}

function modelLines(analysis: Analysis, style: Style): string[] {
  const lines: string[] = [];
  for (const use of analysis.modelUse) {
    const count = plural(use.requests, 'request');
    if (use.id === null) {
      lines.push(style.warn(`  no model named (${count}): not priced; pass --model <id>`));
      continue;
    }
    const resolved = analysis.models.find((model) => model.id === use.id);
    const pricing = resolved?.pricing ?? null;
    if (pricing === null) {
      lines.push(style.warn(`  model ${use.id} (${count}): unknown model, not priced (no entry in the price table)`));
      continue;
    }
    const form = resolved?.via === 'api' || !resolved?.via ? '' : `, ${resolved.via} id`;
    const route = resolved?.routeNote === undefined ? '' : `, ${resolved.routeNote}`;
    const fast = fastModeNote(use);
    const from = resolved?.source === 'override' ? ' (--model)' : '';
    const dated = resolved?.priceSource ? `rates from ${resolved.priceSource.source} (--prices), dated ${resolved.priceSource.pricedOn}` : `prices as of ${pricing.pricedOn}`;
    lines.push(`  model ${use.id}${from} (${count}): priced as ${pricing.displayName}${form}${route}${fast}, ${dated}`);
  }
  return lines;
}

/** How a model's calls that ran in fast mode were priced (", all in fast mode, at 6× the list price"), or ''. */
export function fastModeNote(use: ModelUse): string {
  if (use.fastRequests === undefined) return '';
  const which = use.fastRequests === use.requests ? 'all in fast mode' : `${formatCount(use.fastRequests)} in fast mode`;
  const factor = use.pricedAs === null ? null : (lookupModel(use.pricedAs)?.pricing.fastModeFactor ?? null);
  return factor === null ? `, ${which}, whose price the table lacks: priced at the standard rates, below what was billed` : `, ${which}, at ${factor}× the list price`;
}

function requestLine(analysis: Analysis, i: number, tokens: RequestTokens): string {
  const request = analysis.requests[i];
  const model = analysis.models[i];
  if (!request || !model) return '';
  const where = `#${request.index} line ${request.line}`;
  const modelText = model.id ?? 'no model';
  return `  ${where.padEnd(16)} ${modelText.padEnd(24)} ${formatTokens(tokens.total, tokens.exact).padStart(9)}  ${categoryList(tokens.byCategory, {
    overhead: tokens.overheadTotal,
    exact: tokens.exact,
  })}`;
}

function verboseLines(analysis: Analysis, i: number, tokens: RequestTokens, style: Style): string[] {
  const request = analysis.requests[i];
  if (!request) return [];
  const lines = request.segments.map((segment, s) =>
    style.dim(
      `      ${segment.path.padEnd(32)} ${segment.category.padEnd(11)} ${formatTokens(tokens.segments[s] ?? 0, tokens.exact).padStart(8)}${
        segment.cacheMarker ? `  cache_control ${segment.cacheMarker.ttl}` : ''
      }`,
    ),
  );
  const { framing, toolsPreamble, toolUseSystem } = tokens.overhead;
  lines.push(style.dim(`      overhead: framing ${framing}, tools preamble ${toolsPreamble}, tool-use system prompt ${toolUseSystem}`));
  const notes = [...request.notes.map((note) => note.code), ...tokens.notes];
  if (notes.length > 0) lines.push(style.dim(`      notes: ${[...new Set(notes)].join(', ')}`));
  // A shape estimated less well than the rest on projects the estimate was not fitted on (docs/tokens.md).
  if (tokens.band !== undefined) lines.push(style.dim(`      estimate within ${formatBand(tokens.band)} (this shape's held-out error)`));
  return lines;
}

/** Notes shown without -v: the body was probably read under the wrong wire format, or the file has no bodies. */
const FORMAT_WARNINGS = new Set(['missing_message_array', 'foreign_fields', 'usage_only']);

/** One warning per such note in a file: its text, how many requests, where the first is, which fields were kept. */
export function formatWarningLines(analysis: Analysis, f: number, style: Style): string[] {
  const seen = new Map<string, { message: string; count: number; first: string; fields: Set<string> }>();
  for (const request of analysis.requests) {
    if (request.file !== f) continue;
    for (const note of request.notes) {
      if (!FORMAT_WARNINGS.has(note.code)) continue;
      let entry = seen.get(note.code);
      if (!entry) {
        entry = { message: note.message, count: 0, first: `#${request.index} line ${request.line}`, fields: new Set() };
        seen.set(note.code, entry);
      }
      entry.count += 1;
      if (note.code === 'foreign_fields') {
        for (const shape of request.unknownShapes) if (shape.shape.startsWith('foreign:')) entry.fields.add(shape.path);
      }
    }
  }
  return [...seen.values()].map((entry) => {
    const fields = entry.fields.size > 0 ? ` Fields: ${[...entry.fields].join(', ')}.` : '';
    return style.warn(`  warning: ${entry.message} (${plural(entry.count, 'request')}, first ${entry.first}).${fields}`);
  });
}

/** The recorded figures of a file whose every request is usage-only (no bodies), or null. */
function usageOnlyLine(requests: readonly ParsedRequest[]): string | null {
  if (!allUsageOnly(requests)) return null;
  let prompt = 0;
  let read = 0;
  let output = 0;
  const days = new Set<string>();
  for (const request of requests) {
    const r = request.recorded;
    if (r !== null) {
      prompt += recordedPromptTokens(r);
      read += r.cacheRead;
      output += r.output;
    }
    if (request.timestamp !== null) days.add(new Date(request.timestamp).toISOString().slice(0, 10));
  }
  const span = days.size === 0 ? 'no recorded times' : `${plural(days.size, 'day')} (${[...days].sort()[0]} to ${[...days].sort().at(-1)})`;
  const hit = prompt > 0 ? `${((100 * read) / prompt).toFixed(1)}%` : 'n/a';
  return `  usage only: ${plural(requests.length, 'recorded call')} over ${span}, recorded prompt ${prompt.toLocaleString('en-US')} tokens (cache hit rate ${hit}), output ${output.toLocaleString('en-US')}; no request bodies, so nothing to break down (cost below is from the recorded usage)`;
}

export function renderTerminalReport(analysis: Analysis, options: TerminalOptions): string {
  const style = styleOf(options);
  const out: string[] = [];
  out.push(
    style.bold(
      `ctxray analyze: ${plural(analysis.files.length, 'file')}, ${plural(analysis.requests.length, 'request')}${
        analysis.errors.length > 0 ? `, ${plural(analysis.errors.length, 'unreadable record')}` : ''
      }`,
    ),
  );
  out.push(...modelLines(analysis, style));
  out.push(...duplicateLines(analysis.duplicateCalls, (file) => analysis.files[file]?.name ?? `file ${file + 1}`));
  if (analysis.requests.some((_, i) => !(analysis.tokens[i]?.exact ?? true))) {
    out.push(style.dim('  ≈ marks estimates: Claude counts always, OpenAI counts with tools, media or unverified framing'));
  }
  analysis.files.forEach((file, f) => {
    out.push('', style.bold(fileHeading(file, f)));
    out.push(`  total ${totalsLine(file.totals)}`);
    const fileExact = file.totals.exactRequests === file.totals.requests;
    out.push(`  by category: ${categoryList(file.totals.byCategory, { overhead: file.totals.overhead, exact: fileExact })}`);
    out.push(...formatWarningLines(analysis, f, style));
    const usageOnly = usageOnlyLine(analysis.requests.filter((request) => request.file === f));
    if (usageOnly !== null) out.push(usageOnly);
    analysis.tokens.forEach((tokens, i) => {
      // A usage-only file has no bodies: its requests have nothing of their own to list.
      if (analysis.requests[i]?.file !== f || usageOnly !== null) return;
      out.push(requestLine(analysis, i, tokens));
      if (options.verbose) out.push(...verboseLines(analysis, i, tokens, style));
    });
  });
  if (analysis.files.length > 1) {
    out.push('', style.bold(`all files: ${totalsLine(analysis.totals)}`));
    const allExact = analysis.totals.exactRequests === analysis.totals.requests;
    out.push(`  by category: ${categoryList(analysis.totals.byCategory, { overhead: analysis.totals.overhead, exact: allExact })}`);
  }
  if (analysis.errors.length > 0) {
    out.push('', style.warn(style.bold('unreadable records (skipped; the rest was analyzed):')));
    for (const error of analysis.errors) {
      const name = analysis.files[error.file]?.name ?? `file ${error.file + 1}`;
      out.push(style.warn(`  ${name}${error.line > 0 && error.recordNumber === undefined ? `:${error.line}` : ''}: ${error.message}`));
    }
  }
  return out.join('\n') + '\n';
}
