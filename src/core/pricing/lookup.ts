// Model id → priced model. Accepts the API id, dated snapshots, Bedrock ids (with or without a geo or `global.`
// prefix, a `-v1:0` suffix, an ARN or a LiteLLM `bedrock/converse/` route), Vertex `@date` ids, OpenRouter /
// LiteLLM `vendor/model` ids and Azure `azure/` ids (routes.ts peels them). Anything else is unknown: the caller
// reports it, nothing is guessed. A route whose published price differs prices at that route's price: Bedrock
// regional endpoints bill Claude 4.5 and later 10% above the global one.
import { BEDROCK_REGIONAL_FACTOR, dashedClaudeId, peelRoute } from './routes.ts';
import { MODELS, type PricedModel } from './table.ts';
import type { ModelMatch } from './types.ts';
import { boundedMemo } from '../text/bounded-memo.ts';

export type MatchVia = 'api' | 'snapshot' | 'bedrock' | 'vertex' | 'openrouter' | 'azure';

export interface PricedMatch extends ModelMatch {
  pricing: PricedModel;
  /** Which id form matched; reports say "priced as X (Bedrock id)". */
  via: MatchVia;
  /** What the route changed in the price, for reports ("Bedrock regional endpoint, +10%"), or null. */
  routeNote: string | null;
}

const BEDROCK_VERSION = /-v\d+(?::\d+)?$/;

interface Index {
  api: Map<string, PricedModel>;
  snapshot: Map<string, PricedModel>;
  bedrock: Map<string, PricedModel>;
  vertex: Map<string, PricedModel>;
}

function buildIndex(): Index {
  const index: Index = { api: new Map(), snapshot: new Map(), bedrock: new Map(), vertex: new Map() };
  for (const model of MODELS) {
    index.api.set(model.id, model);
    for (const alias of model.aliases) index.snapshot.set(alias, model);
    if (model.vertexId) index.vertex.set(model.vertexId, model);
    if (model.bedrockId) index.bedrock.set(model.bedrockId.replace(BEDROCK_VERSION, ''), model);
  }
  return index;
}

let cachedIndex: Index | null = null;
function index(): Index {
  cachedIndex ??= buildIndex();
  return cachedIndex;
}

type BareMatch = { pricing: PricedModel; via: 'api' | 'snapshot' | 'bedrock' | 'vertex' };

/** A bare id (no route wrapper) against the table. */
function matchBare(id: string): BareMatch | null {
  const { api, snapshot, bedrock, vertex } = index();
  const direct = api.get(id);
  if (direct) return { pricing: direct, via: 'api' };
  const dated = snapshot.get(id);
  if (dated) return { pricing: dated, via: 'snapshot' };
  if (id.includes('@')) {
    // Vertex spells a dated release name@date (a second release of a name: name-v2@date), the API name-date.
    const viaVertex = vertex.get(id) ?? snapshot.get(id.replace(/(?:-v\d+)?@/, '-'));
    return viaVertex ? { pricing: viaVertex, via: 'vertex' } : null;
  }
  if (id.startsWith('anthropic.')) {
    const base = id.replace(BEDROCK_VERSION, '');
    const listed = bedrock.get(base);
    if (listed) return { pricing: listed, via: 'bedrock' };
    // Bedrock ids are `anthropic.` + a dated API id (any release, e.g. a `-v2:0` second one), and since Claude 4.7
    // `anthropic.` + the API id with no date.
    const unprefixed = base.slice('anthropic.'.length);
    const undated = api.get(unprefixed) ?? snapshot.get(unprefixed);
    if (undated && undated.vendor === 'anthropic') return { pricing: undated, via: 'bedrock' };
  }
  return null;
}

const regionalCopies = new Map<string, PricedModel>();

/** The model at Bedrock's regional-endpoint price: every rate, tiers included, × the premium. */
function atRegionalPrice(model: PricedModel): PricedModel {
  let copy = regionalCopies.get(model.id);
  if (copy === undefined) {
    copy = scaledPricing(model, BEDROCK_REGIONAL_FACTOR);
    regionalCopies.set(model.id, copy);
  }
  return copy;
}

/**
 * The Batch APIs (Anthropic Message Batches, OpenAI Batch) bill half of every rate; the cache multipliers and a
 * route's premium stack with it (docs/pricing.md).
 */
export const BATCH_FACTOR = 0.5;

/** Keyed by the model object: a --prices file's rates for an id differ from the table's. */
const batchCopies = new WeakMap<PricedModel, PricedModel>();
const fastCopies = new WeakMap<PricedModel, PricedModel>();

/** The model at the Batch APIs' price. */
export function atBatchPrice(model: PricedModel): PricedModel {
  return scaledOnce(batchCopies, model, BATCH_FACTOR);
}

/** The model at its fast-mode price (every rate times `fastModeFactor`), or null when the table has none. */
export function atFastPrice(model: PricedModel): PricedModel | null {
  return model.fastModeFactor === null ? null : scaledOnce(fastCopies, model, model.fastModeFactor);
}

/** One scaled copy per model and factor kind: every request of a batch (or in fast mode) shares it. */
function scaledOnce(copies: WeakMap<PricedModel, PricedModel>, model: PricedModel, factor: number): PricedModel {
  let copy = copies.get(model);
  if (copy === undefined) {
    copy = scaledPricing(model, factor);
    copies.set(model, copy);
  }
  return copy;
}

/** Every rate of a model, tiers and dated rates included, × `factor` (to a millionth of a dollar per MTok). */
function scaledPricing(model: PricedModel, factor: number): PricedModel {
  const scale = (price: number): number => Math.round(price * factor * 1e6) / 1e6;
  const orNull = (price: number | null): number | null => (price === null ? null : scale(price));
  const tier = model.longPromptTier;
  return {
    ...model,
    input: scale(model.input),
    output: scale(model.output),
    cacheRead: scale(model.cacheRead),
    cacheWrite5m: orNull(model.cacheWrite5m),
    cacheWrite1h: orNull(model.cacheWrite1h),
    longPromptTier: tier && { ...tier, input: scale(tier.input), output: scale(tier.output), cacheRead: scale(tier.cacheRead), cacheWrite5m: scale(tier.cacheWrite5m), cacheWrite1h: scale(tier.cacheWrite1h) },
    cacheReadBefore: model.cacheReadBefore && { ...model.cacheReadBefore, cacheRead: scale(model.cacheReadBefore.cacheRead) },
  };
}

/**
 * The priced model an id names, or null when the table has no entry for it. Matched once per id (a log names a few
 * models, each on thousands of calls; the table does not change at run time): the match is shared, read it only.
 */
export const lookupModel: (requestedId: string) => PricedMatch | null = boundedMemo(matchModel, 4096);

function matchModel(requestedId: string): PricedMatch | null {
  const peeled = peelRoute(requestedId);
  if (peeled.bare === '') return null;
  const dashed = dashedClaudeId(peeled.bare);
  const match = matchBare(peeled.bare) ?? (peeled.route === 'openrouter' && dashed !== null ? matchBare(dashed) : null);
  if (match === null) return null;
  if (peeled.route === 'bedrock' && match.via !== 'vertex') {
    // An in-Region id (no prefix) and a geographic profile are regional endpoints; `global.` is the list price.
    if (peeled.geo !== 'global' && match.pricing.bedrockRegionalPremium) {
      return { pricing: atRegionalPrice(match.pricing), requestedId, via: 'bedrock', routeNote: 'Bedrock regional endpoint, +10%' };
    }
    return { pricing: match.pricing, requestedId, via: 'bedrock', routeNote: null };
  }
  const via = peeled.route === 'openrouter' || peeled.route === 'azure' ? peeled.route : match.via;
  return { pricing: match.pricing, requestedId, via, routeNote: null };
}

/**
 * Price per MTok that applies to a whole request under the documented long-prompt rules:
 * Haiku 5.5 above 100K prompt tokens, OpenAI GPT-6.x / gpt-5.6-sol above 272K input tokens.
 */
export function effectivePricing(model: PricedModel, promptTokens: number): PricedModel {
  const tier = model.longPromptTier;
  if (tier && promptTokens > tier.aboveTokens) {
    return {
      ...model,
      input: tier.input,
      output: tier.output,
      cacheRead: tier.cacheRead,
      cacheWrite5m: tier.cacheWrite5m,
      cacheWrite1h: tier.cacheWrite1h,
    };
  }
  const modifier = model.longContextModifier;
  if (modifier && promptTokens > modifier.aboveTokens) {
    const scale = (price: number | null): number | null => (price === null ? null : price * modifier.inputFactor);
    return {
      ...model,
      input: model.input * modifier.inputFactor,
      cacheRead: model.cacheRead * modifier.inputFactor,
      cacheWrite5m: scale(model.cacheWrite5m),
      cacheWrite1h: scale(model.cacheWrite1h),
      output: model.output * modifier.outputFactor,
    };
  }
  return model;
}
