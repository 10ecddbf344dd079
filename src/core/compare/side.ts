// One side of a comparison: the headline figures of an analysis record (ctxray.analysis/2, of files or of a
// folder), read from the record alone so a comparison needs no input text. A record that is not one is refused
// with the key that is wrong.
import { ANALYSIS_SCHEMA } from '../analysis/record.ts';

/** The figures `compareSides` compares, each from one key of the record. */
export interface CompareSide {
  generatedBy: string;
  pricedOn: string;
  requests: number;
  /** Σ request token counts (`totals.tokens`). */
  tokens: number;
  byCategory: Record<string, number>;
  /** USD: `totals.cost`, null when the record has no cache analysis (nothing priced). */
  cost: { actual: number; optimized: number; potentialSavings: number; recordedRequests: number; simulatedRequests: number } | null;
  /** From `summary.totals` (recorded usage where recorded, else the simulation). */
  promptTokens: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  /** cacheRead ÷ promptTokens; null without a summary or prompt. */
  hitRate: number | null;
  /** Misses by cause (`misses`): count, tokens, USD. */
  misses: Record<string, { count: number; tokens: number; cost: number }>;
  /** Findings by code: from `findings` (every code) or else `summary.topFindings` (a folder's costliest ten). */
  findings: Record<string, { severity: string; findings: number; requests: number }>;
  findingsSource: 'findings' | 'summary' | 'none';
  /** Unreadable records (`errors`). */
  errors: number;
  /** sessions[] rows, when the record has them. */
  sessions: number | null;
}

export class CompareInputError extends Error {
  constructor(
    readonly side: string,
    readonly key: string,
    message: string,
  ) {
    super(`${side}: ${key}: ${message}`);
  }
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function numberAt(object: Json, key: string, where: { side: string; path: string }): number {
  const value = object[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new CompareInputError(where.side, `${where.path}.${key}`, `expected a number, got ${describe(value)}`);
  return value;
}

function objectAt(object: Json, key: string, where: { side: string; path: string }): Json {
  const value = object[key];
  if (!isObject(value)) throw new CompareInputError(where.side, `${where.path}.${key}`.replace(/^\./, ''), `expected an object, got ${describe(value)}`);
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string "${value.slice(0, 40)}"` : typeof value;
}

function costOf(totals: Json, side: string): CompareSide['cost'] {
  if (totals['cost'] === undefined) return null;
  const where = { side, path: 'totals.cost' };
  const cost = objectAt(totals, 'cost', { side, path: 'totals' });
  const basis = isObject(cost['basis']) ? cost['basis'] : {};
  return {
    actual: numberAt(cost, 'actual', where),
    optimized: numberAt(cost, 'optimized', where),
    potentialSavings: numberAt(cost, 'potentialSavings', where),
    recordedRequests: typeof basis['recordedRequests'] === 'number' ? basis['recordedRequests'] : 0,
    simulatedRequests: typeof basis['simulatedRequests'] === 'number' ? basis['simulatedRequests'] : 0,
  };
}

function missesOf(record: Json, side: string): CompareSide['misses'] {
  const misses: CompareSide['misses'] = {};
  const rows = record['misses'];
  if (rows === undefined) return misses;
  if (!Array.isArray(rows)) throw new CompareInputError(side, 'misses', `expected an array, got ${describe(rows)}`);
  rows.forEach((row: unknown, i) => {
    const where = { side, path: `misses[${i}]` };
    if (!isObject(row) || typeof row['cause'] !== 'string') throw new CompareInputError(side, `misses[${i}].cause`, 'expected a cause code');
    const into = (misses[row['cause']] ??= { count: 0, tokens: 0, cost: 0 });
    into.count += numberAt(row, 'count', where);
    into.tokens += numberAt(row, 'tokens', where);
    into.cost += numberAt(row, 'cost', where);
  });
  return misses;
}

function findingsOf(record: Json, side: string): Pick<CompareSide, 'findings' | 'findingsSource'> {
  const findings: CompareSide['findings'] = {};
  const located = record['findings'];
  if (Array.isArray(located)) {
    located.forEach((finding: unknown, i) => {
      if (!isObject(finding) || typeof finding['code'] !== 'string' || !Array.isArray(finding['requests'])) {
        throw new CompareInputError(side, `findings[${i}]`, 'expected a finding with code and requests[]');
      }
      const into = (findings[finding['code']] ??= { severity: String(finding['severity']), findings: 0, requests: 0 });
      into.findings++;
      into.requests += finding['requests'].length;
    });
    return { findings, findingsSource: 'findings' };
  }
  const summary = record['summary'];
  const top = isObject(summary) ? summary['topFindings'] : undefined;
  if (!Array.isArray(top)) return { findings, findingsSource: 'none' };
  top.forEach((row: unknown, i) => {
    const where = { side, path: `summary.topFindings[${i}]` };
    if (!isObject(row) || typeof row['code'] !== 'string') throw new CompareInputError(side, `${where.path}.code`, 'expected a finding code');
    findings[row['code']] = { severity: String(row['severity']), findings: numberAt(row, 'findings', where), requests: numberAt(row, 'requests', where) };
  });
  return { findings, findingsSource: 'summary' };
}

function summaryFigures(record: Json, side: string): Pick<CompareSide, 'promptTokens' | 'cacheRead' | 'cacheWrite' | 'hitRate'> {
  const summary = record['summary'];
  if (!isObject(summary)) return { promptTokens: null, cacheRead: null, cacheWrite: null, hitRate: null };
  const totals = objectAt(summary, 'totals', { side, path: 'summary' });
  const where = { side, path: 'summary.totals' };
  const promptTokens = numberAt(totals, 'promptTokens', where);
  const cacheRead = numberAt(totals, 'cacheRead', where);
  return { promptTokens, cacheRead, cacheWrite: numberAt(totals, 'cacheWrite', where), hitRate: promptTokens > 0 ? cacheRead / promptTokens : null };
}

/** How much of a file's start `isAnalysisRecordHead` needs: `analyze --json` writes its schema first. */
export const RECORD_HEAD_BYTES = 256;

/** Whether a file that starts with `head` is an analysis record (read as one) rather than a log to analyse. */
export function isAnalysisRecordHead(head: string): boolean {
  return /^\s*\{\s*"schema"\s*:\s*"ctxray\.analysis\//.test(head);
}

/** The figures of one analysis record; `side` names it in errors ("before", "after" or a file name). */
export function compareSideOf(record: unknown, side: string): CompareSide {
  if (!isObject(record)) throw new CompareInputError(side, 'record', `expected a JSON object, got ${describe(record)}`);
  if (record['schema'] !== ANALYSIS_SCHEMA) {
    throw new CompareInputError(side, 'schema', `expected "${ANALYSIS_SCHEMA}", got ${describe(record['schema'])}`);
  }
  const totals = objectAt(record, 'totals', { side, path: '' });
  const where = { side, path: 'totals' };
  const byCategory: Record<string, number> = {};
  const categories = objectAt(totals, 'byCategory', where);
  for (const category of Object.keys(categories)) byCategory[category] = numberAt(categories, category, { side, path: 'totals.byCategory' });
  const errors = record['errors'];
  const sessions = record['sessions'];
  return {
    generatedBy: typeof record['generatedBy'] === 'string' ? record['generatedBy'] : '',
    pricedOn: typeof record['pricedOn'] === 'string' ? record['pricedOn'] : '',
    requests: numberAt(totals, 'requests', where),
    tokens: numberAt(totals, 'tokens', where),
    byCategory,
    cost: costOf(totals, side),
    ...summaryFigures(record, side),
    misses: missesOf(record, side),
    ...findingsOf(record, side),
    errors: Array.isArray(errors) ? errors.length : 0,
    sessions: Array.isArray(sessions) ? sessions.length : null,
  };
}
