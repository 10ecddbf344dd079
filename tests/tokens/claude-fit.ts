// The Claude estimate's fit and its leave-one-project-out evaluation, over the committed per-request features
// (tests/tokens/data/claude-usage-features.jsonl, written by scripts/claude-estimate-features.ts from recorded
// cassettes of other projects). The model is the shipped estimate's form (src/core/tokens/claude.ts): o200k_base
// counts × a factor per text kind and tokenizer, framing per request / message / tool call, a hidden tool-use
// prompt per model group and tool_choice, thinking instructions, images by the pixel rule, PDF pages.
// Fit: iteratively reweighted least squares on the relative error, pulled toward L1, with a weak ridge toward
// the documented or previous value (a parameter no request of the training projects exercises keeps it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CLAUDE_ADAPTIVE_THINKING_TOKENS,
  CLAUDE_OUTPUT_FORMAT_TOKENS,
  CLAUDE_PER_MESSAGE_TOKENS,
  CLAUDE_REQUEST_BASE_TOKENS,
  CLAUDE_TASK_BUDGET_TOKENS,
  CLAUDE_TEXT_DOCUMENT_TOKENS,
  CLAUDE_TEXT_FACTORS,
  CLAUDE_THINKING_TOKENS,
  CLAUDE_TOKENS_PER_PDF_PAGE,
  CLAUDE_TOOL_CALL_TOKENS,
  CLAUDE_TOOL_SYSTEM,
  NEW_TOKENIZER_FACTOR,
  type ClaudeToolPromptGroup,
} from '../../src/core/tokens/claude.ts';
import { claudeEstimateBand } from '../../src/core/tokens/claude-band.ts';

export interface FeatureRow {
  project: string;
  repo: string;
  path: string;
  commit: string;
  interaction: number;
  model: string | null;
  recorded: number;
  shipped: number;
  newTokenizer: boolean;
  toolPrompt: string | null;
  thinkingMode: 'enabled' | 'adaptive' | null;
  messages: number;
  toolCalls: number;
  prose: number;
  code: number;
  tools: number;
  thinking: number;
  segments: number;
  images: number;
  inlineImages: number;
  unknownImages: number;
  pdfPages: number;
  unknownDocuments: number;
  textDocuments: number;
  outputFormats: number;
  taskBudgets: number;
}

export const FEATURES_FILE = path.join(import.meta.dirname, 'data', 'claude-usage-features.jsonl');

export function readFeatures(file = FEATURES_FILE): FeatureRow[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as FeatureRow);
}

const KINDS = ['prose', 'code', 'tools', 'thinking'] as const;
const GROUPS = Object.keys(CLAUDE_TOOL_SYSTEM) as ClaudeToolPromptGroup[];

/** Parameter names in column order, with the shipped value (the ridge's target and the in-sample check). */
export function shippedParameters(): Map<string, number> {
  const p = new Map<string, number>([
    ['base', CLAUDE_REQUEST_BASE_TOKENS],
    ['perMessage', CLAUDE_PER_MESSAGE_TOKENS],
    ['perToolCall', CLAUDE_TOOL_CALL_TOKENS],
  ]);
  for (const tokenizer of ['older', 'newer'] as const) for (const kind of KINDS) p.set(`${tokenizer}.${kind}`, CLAUDE_TEXT_FACTORS[tokenizer][kind]);
  for (const group of GROUPS) for (const choice of ['auto', 'any'] as const) p.set(`tool:${group}:${choice}`, CLAUDE_TOOL_SYSTEM[group][choice]);
  p.set('thinkingEnabled', CLAUDE_THINKING_TOKENS);
  p.set('thinkingAdaptive', CLAUDE_ADAPTIVE_THINKING_TOKENS);
  p.set('pdfPage', CLAUDE_TOKENS_PER_PDF_PAGE);
  p.set('textDocument', CLAUDE_TEXT_DOCUMENT_TOKENS);
  return p;
}

const NAMES = [...shippedParameters().keys()];
const INDEX = new Map(NAMES.map((name, i) => [name, i]));

/** One request's design row (coefficients of each parameter) and the fixed tokens no parameter covers. */
export function designRow(row: FeatureRow): { x: Float64Array; fixed: number } {
  const x = new Float64Array(NAMES.length);
  const set = (name: string, value: number): void => {
    const j = INDEX.get(name)!;
    x[j] = x[j]! + value;
  };
  const scale = row.newTokenizer ? NEW_TOKENIZER_FACTOR : 1;
  set('base', 1);
  set('perMessage', row.messages);
  set('perToolCall', row.toolCalls);
  for (const kind of KINDS) set(`${row.newTokenizer ? 'newer' : 'older'}.${kind}`, row[kind]);
  if (row.toolPrompt !== null) set(`tool:${row.toolPrompt}`, 1);
  if (row.thinkingMode === 'enabled') set('thinkingEnabled', 1);
  if (row.thinkingMode === 'adaptive' && !row.newTokenizer) set('thinkingAdaptive', 1);
  set('pdfPage', row.pdfPages * scale);
  set('textDocument', row.textDocuments * scale);
  const fixed = Math.round(row.images * scale) + Math.round((row.outputFormats * CLAUDE_OUTPUT_FORMAT_TOKENS + row.taskBudgets * CLAUDE_TASK_BUDGET_TOKENS) * scale);
  return { x, fixed };
}

export function predict(row: FeatureRow, parameters: Float64Array): number {
  const { x, fixed } = designRow(row);
  let total = fixed;
  for (let j = 0; j < x.length; j++) total += x[j]! * parameters[j]!;
  return Math.round(total);
}

/** Solves A·b = c in place (Gaussian elimination with partial pivoting; A is small and well conditioned by the ridge). */
function solve(a: Float64Array[], c: Float64Array): Float64Array {
  const n = c.length;
  for (let k = 0; k < n; k++) {
    let pivot = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(a[i]![k]!) > Math.abs(a[pivot]![k]!)) pivot = i;
    [a[k], a[pivot]] = [a[pivot]!, a[k]!];
    [c[k], c[pivot]] = [c[pivot]!, c[k]!];
    for (let i = k + 1; i < n; i++) {
      const f = a[i]![k]! / a[k]![k]!;
      for (let j = k; j < n; j++) a[i]![j]! -= f * a[k]![j]!;
      c[i]! -= f * c[k]!;
    }
  }
  const b = new Float64Array(n);
  for (let k = n - 1; k >= 0; k--) {
    let sum = c[k]!;
    for (let j = k + 1; j < n; j++) sum -= a[k]![j]! * b[j]!;
    b[k] = sum / a[k]![k]!;
  }
  return b;
}

/** Ridge weight toward the prior, in units of one request's squared relative error at a 100% parameter change. */
const RIDGE = 0.5;
const ITERATIONS = 25;

export function fit(rows: readonly FeatureRow[]): Float64Array {
  const prior = Float64Array.from(shippedParameters().values());
  const design = rows.map(designRow);
  let beta: Float64Array = Float64Array.from(prior);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const n = prior.length;
    const a = Array.from({ length: n }, () => new Float64Array(n));
    const c = new Float64Array(n);
    rows.forEach((row, i) => {
      const { x, fixed } = design[i]!;
      let predicted = fixed;
      for (let j = 0; j < n; j++) predicted += x[j]! * beta[j]!;
      const relative = Math.abs(predicted - row.recorded) / row.recorded;
      // Relative error, reweighted toward L1 (a request 40% off weighs like one 4% off, not 100 times more).
      const w = 1 / (row.recorded * row.recorded * Math.max(relative, 0.02));
      const target = row.recorded - fixed;
      for (let j = 0; j < n; j++) {
        if (x[j] === 0) continue;
        c[j]! += w * x[j]! * target;
        for (let k = 0; k < n; k++) if (x[k] !== 0) a[j]![k]! += w * x[j]! * x[k]!;
      }
    });
    for (let j = 0; j < n; j++) {
      const lambda = RIDGE / (prior[j]! * prior[j]! || 1);
      a[j]![j]! += lambda;
      c[j]! += lambda * prior[j]!;
    }
    beta = solve(a, c);
  }
  return beta;
}

export interface Scored {
  row: FeatureRow;
  predicted: number;
  error: number;
}

/** Each project scored by the fit of all the others. */
export function leaveOneProjectOut(rows: readonly FeatureRow[]): Scored[] {
  const projects = [...new Set(rows.map((r) => r.project))];
  const scored: Scored[] = [];
  for (const project of projects) {
    const beta = fit(rows.filter((r) => r.project !== project));
    for (const row of rows.filter((r) => r.project === project)) {
      const predicted = predict(row, beta);
      scored.push({ row, predicted, error: Math.abs(predicted - row.recorded) / row.recorded });
    }
  }
  return scored;
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * q) - 1)] ?? Number.NaN;
}

/** The band the shipped estimate gives this request's shape (src/core/tokens/claude-band.ts), from its features. */
export function bandOf(row: FeatureRow, total: number): number | null {
  return claudeEstimateBand({
    unknownMedia: row.unknownImages > 0 || row.unknownDocuments > 0,
    pdf: row.pdfPages > row.unknownDocuments,
    image: row.inlineImages > 0,
    newTokenizer: row.newTokenizer,
    total,
  });
}

export function parameterNames(): readonly string[] {
  return NAMES;
}
