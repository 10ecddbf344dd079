// Reads the real fixtures (in place, from ../shared/fixtures/real) with their recorded usage and runs the
// analysis on each file, pairing every request with the prompt size the provider recorded for it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { analyzeInput } from '../../src/core/analysis/analyze.ts';
import type { Analysis } from '../../src/core/analysis/types.ts';
import type { RequestTokens } from '../../src/core/tokens/counter.ts';

export const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/real');
export const fixturesPresent = existsSync(FIXTURES);

export interface RecordedCase {
  file: string;
  /** 0-based request line, as `request_line` in the usage file. */
  requestLine: number;
  model: string | null;
  body: Record<string, unknown>;
  tokens: RequestTokens;
  /** Prompt size the provider recorded: OpenAI prompt/input tokens, Anthropic input + cache read + cache write. */
  recorded: number | null;
}

export interface FileRun {
  file: string;
  analysis: Analysis;
  cases: RecordedCase[];
}

function recordedPrompt(usage: Record<string, unknown> | undefined): number | null {
  if (!usage) return null;
  const n = (key: string): number => (typeof usage[key] === 'number' ? (usage[key] as number) : 0);
  if (typeof usage.prompt_tokens === 'number') return usage.prompt_tokens;
  if ('cache_read_input_tokens' in usage || 'cache_creation_input_tokens' in usage) {
    return n('input_tokens') + n('cache_read_input_tokens') + n('cache_creation_input_tokens');
  }
  return typeof usage.input_tokens === 'number' ? usage.input_tokens : null;
}

export function requestFiles(dir: string): string[] {
  // A skipped describe still runs its body to collect the tests: without the fixtures there is nothing to list.
  if (!fixturesPresent) return [];
  return readdirSync(path.join(FIXTURES, dir))
    .filter((name) => /\.jsonl?$/.test(name) && !name.includes('.usage.'))
    .sort();
}

export async function runFixture(dir: string, name: string): Promise<FileRun> {
  const full = path.join(FIXTURES, dir, name);
  const bytes = new Uint8Array(readFileSync(full));
  const analysis = await analyzeInput([{ name, bytes }]);
  const text = readFileSync(full, 'utf8');
  const bodies = name.endsWith('.jsonl')
    ? text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>)
    : [JSON.parse(text) as Record<string, unknown>];
  const usagePath = full.replace(/\.jsonl?$/, '.usage.jsonl');
  const usage = new Map<number, Record<string, unknown>>();
  if (existsSync(usagePath)) {
    for (const line of readFileSync(usagePath, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as { request_line: number; usage: { final?: Record<string, unknown>; message_start?: Record<string, unknown> } };
      // Streams record the prompt in message_start; non-streamed responses in the final usage.
      usage.set(row.request_line, row.usage.final ?? row.usage.message_start ?? {});
    }
  }
  const cases = analysis.requests.map((request, i) => ({
    file: name,
    requestLine: request.line - 1,
    model: request.model,
    body: bodies[request.line - 1] ?? {},
    tokens: analysis.tokens[i]!,
    recorded: recordedPrompt(usage.get(request.line - 1)),
  }));
  return { file: name, analysis, cases };
}

export interface ErrorStats {
  count: number;
  exactMatches: number;
  /** Absolute percentage errors. */
  median: number;
  p90: number;
  mean: number;
  max: number;
}

export function errorStats(cases: readonly RecordedCase[]): ErrorStats {
  const errors = cases
    .filter((c) => c.recorded !== null && c.recorded > 0)
    .map((c) => (Math.abs(c.tokens.total - c.recorded!) / c.recorded!) * 100)
    .sort((a, b) => a - b);
  const at = (q: number): number => errors[Math.min(errors.length - 1, Math.ceil(q * errors.length) - 1)] ?? 0;
  return {
    count: errors.length,
    exactMatches: cases.filter((c) => c.recorded !== null && c.tokens.total === c.recorded).length,
    median: at(0.5),
    p90: at(0.9),
    mean: errors.length === 0 ? 0 : errors.reduce((a, b) => a + b, 0) / errors.length,
    max: errors[errors.length - 1] ?? 0,
  };
}

export function describeStats(label: string, stats: ErrorStats): string {
  const f = (n: number): string => n.toFixed(1);
  return `${label}: ${stats.count} requests, ${stats.exactMatches} equal to recorded, |error| median ${f(stats.median)}%, p90 ${f(stats.p90)}%, mean ${f(stats.mean)}%, max ${f(stats.max)}%`;
}

export function caseLine(c: RecordedCase): string {
  const error = c.recorded ? (((c.tokens.total - c.recorded) / c.recorded) * 100).toFixed(1) + '%' : '-';
  return `  ${c.file}:${c.requestLine + 1} ${c.model ?? '?'} counted ${c.tokens.exact ? '' : '≈'}${c.tokens.total} recorded ${c.recorded ?? '-'} (${error}) ${c.tokens.notes.join(',')}`;
}
