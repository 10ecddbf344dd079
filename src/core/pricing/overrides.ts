// Negotiated rates (`--prices FILE`): a JSON document that replaces some or all of a model's prices, or prices a
// model the table does not know by naming one whose cache rules and tokenizer it shares. Validated whole before any
// analysis runs: every problem is reported with its place in the file (docs/pricing.md, "Your own prices").
import { findJsonSyntaxError } from '../input/json-syntax.ts';
import { isObject, type JsonObject } from '../input/json-value.ts';
import { lookupModel, type PricedMatch } from './lookup.ts';
import type { PricedModel } from './types.ts';

export const PRICES_SCHEMA = 'ctxray.prices/1';

const PRICE_FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite5m', 'cacheWrite1h'] as const;
type PriceField = (typeof PRICE_FIELDS)[number];
const ENTRY_FIELDS = new Set<string>([...PRICE_FIELDS, 'like', 'displayName']);
const TOP_FIELDS = new Set(['schema', 'source', 'pricedOn', 'models']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** USD per MTok above this is taken for a typo (the dearest list price is $150). */
const MAX_PRICE = 10_000;

export interface PriceOverrides {
  source: string;
  pricedOn: string;
  /** Lower-cased id (as written in requests, or the canonical id it resolves to) → the model at the file's rates. */
  models: ReadonlyMap<string, PricedModel>;
}

export class PricesFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'PricesFileError';
  }
}

/** Parses and validates a prices file's text; throws PricesFileError listing every located problem. */
export function parsePriceOverrides(text: string, fileName: string): PriceOverrides {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const at = findJsonSyntaxError(text);
    throw new PricesFileError([`${fileName}: not JSON${at === null ? '' : ` (${lineColumn(text, at.offset)}: ${at.message})`}`]);
  }
  const problems: string[] = [];
  const where = (path: string, message: string) => problems.push(`${fileName}: ${path}: ${message}`);
  if (!isObject(value)) throw new PricesFileError([`${fileName}: expected a JSON object {"schema": "${PRICES_SCHEMA}", "models": {…}}, got ${describe(value)}`]);
  for (const key of Object.keys(value)) if (!TOP_FIELDS.has(key)) where(key, `unknown field (expected ${[...TOP_FIELDS].join(', ')})`);
  if (value['schema'] !== PRICES_SCHEMA) where('schema', `must be "${PRICES_SCHEMA}" (got ${describe(value['schema'])})`);
  const source = value['source'];
  if (typeof source !== 'string' || source.trim() === '') where('source', `must name where the rates come from, e.g. "contract 2026-11" (got ${describe(source)})`);
  const pricedOn = value['pricedOn'];
  if (typeof pricedOn !== 'string' || !DATE.test(pricedOn) || Number.isNaN(Date.parse(pricedOn))) where('pricedOn', `must be a date YYYY-MM-DD (got ${describe(pricedOn)})`);
  const models = new Map<string, PricedModel>();
  const entries = value['models'];
  if (!isObject(entries) || Object.keys(entries).length === 0) where('models', `must be an object of model id → prices with at least one entry (got ${describe(entries)})`);
  else {
    for (const [id, entry] of Object.entries(entries)) {
      const model = entryModel(id, entry, (field, message) => where(`models[${JSON.stringify(id)}]${field === '' ? '' : `.${field}`}`, message));
      if (model !== null) models.set(id.trim().toLowerCase(), model);
    }
  }
  if (problems.length > 0) throw new PricesFileError(problems);
  return { source: source as string, pricedOn: pricedOn as string, models };
}

type Problem = (field: string, message: string) => void;

function entryModel(id: string, entry: unknown, problem: Problem): PricedModel | null {
  if (!isObject(entry)) {
    problem('', `must be an object of prices (USD per million tokens), got ${describe(entry)}`);
    return null;
  }
  let ok = knownFieldsOnly(entry, problem);
  const like = entry['like'];
  if (like !== undefined && typeof like !== 'string') {
    problem('like', `must be a model id the table knows (got ${describe(like)})`);
    return null;
  }
  const base: PricedMatch | null = lookupModel(like ?? id);
  if (base === null) {
    problem(like === undefined ? '' : 'like', like === undefined ? 'the price table has no such model: add "like": "<a known model id>" to take its cache rules and tokenizer, with "input" and "output"' : `the price table has no model ${JSON.stringify(like)}`);
    return null;
  }
  const prices: Partial<Record<PriceField, number | null>> = {};
  ok = readPrices(entry, prices, problem) && ok;
  if (like !== undefined && (prices.input === undefined || prices.output === undefined)) {
    problem('', 'a model priced "like" another needs its own "input" and "output"');
    ok = false;
  }
  const displayName = entry['displayName'];
  if (displayName !== undefined && typeof displayName !== 'string') {
    problem('displayName', `must be a string (got ${describe(displayName)})`);
    ok = false;
  }
  if (!ok) return null;
  return negotiatedModel(like === undefined ? base.pricing : { ...base.pricing, id, aliases: [] }, prices, displayName);
}

/** False (each reported) when the entry has fields a prices entry does not. */
function knownFieldsOnly(entry: JsonObject, problem: Problem): boolean {
  let ok = true;
  for (const key of Object.keys(entry)) {
    if (!ENTRY_FIELDS.has(key)) {
      problem(key, `unknown field (expected ${[...ENTRY_FIELDS].join(', ')})`);
      ok = false;
    }
  }
  return ok;
}

/** The entry's prices into `prices`; false (each reported) when one is not a price. */
function readPrices(entry: JsonObject, prices: Partial<Record<PriceField, number | null>>, problem: Problem): boolean {
  let ok = true;
  for (const field of PRICE_FIELDS) {
    const price = entry[field];
    if (price === undefined) continue;
    const nullable = field === 'cacheWrite5m' || field === 'cacheWrite1h';
    if (price === null && nullable) prices[field] = null;
    else if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price > MAX_PRICE) {
      problem(field, `must be a number of USD per million tokens, 0 to ${MAX_PRICE}${nullable ? ', or null' : ''} (got ${describe(price)})`);
      ok = false;
    } else prices[field] = price;
  }
  return ok;
}

/** `model` at the file's prices. */
function negotiatedModel(model: PricedModel, prices: Partial<Record<PriceField, number | null>>, displayName: unknown): PricedModel {
  // A long-prompt tier is the table's figures for the table's rates: with negotiated rates it no longer holds.
  const tiersKept = Object.keys(prices).length === 0;
  return {
    ...model,
    ...prices,
    displayName: typeof displayName === 'string' ? displayName : `${model.displayName} (negotiated)`,
    longPromptTier: tiersKept ? model.longPromptTier : null,
    longContextModifier: tiersKept ? model.longContextModifier : null,
    cacheReadBefore: tiersKept ? model.cacheReadBefore : null,
  } as PricedModel;
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The file's model for a request's id: by the id as written, else by the canonical id the table resolves it to. */
export function overrideFor(overrides: PriceOverrides, requestedId: string, resolved: PricedModel | null): PricedModel | null {
  return overrides.models.get(requestedId.trim().toLowerCase()) ?? (resolved === null ? null : (overrides.models.get(resolved.id) ?? null));
}
