// Model id → priced model. Accepts the API id, dated snapshots, Bedrock ids (with or without a geo prefix and
// `-v1:0` suffix) and Vertex `@date` ids. Anything else is unknown: the caller reports it, nothing is guessed.
import { MODELS, type PricedModel } from './table.ts';
import type { ModelMatch } from './types.ts';

export interface PricedMatch extends ModelMatch {
  pricing: PricedModel;
  /** Which id form matched; reports say "priced as X (Bedrock id)". */
  via: 'api' | 'snapshot' | 'bedrock' | 'vertex';
}

const BEDROCK_GEO = /^(?:us|eu|apac|global)\./;
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

/** The priced model an id names, or null when the table has no entry for it. */
export function lookupModel(requestedId: string): PricedMatch | null {
  const id = requestedId.trim().toLowerCase();
  if (id === '') return null;
  const { api, snapshot, bedrock, vertex } = index();
  const direct = api.get(id);
  if (direct) return { pricing: direct, requestedId, via: 'api' };
  const dated = snapshot.get(id);
  if (dated) return { pricing: dated, requestedId, via: 'snapshot' };
  if (id.includes('@')) {
    const viaVertex = vertex.get(id);
    return viaVertex ? { pricing: viaVertex, requestedId, via: 'vertex' } : null;
  }
  const withoutGeo = id.replace(BEDROCK_GEO, '');
  if (withoutGeo.startsWith('anthropic.')) {
    const base = withoutGeo.replace(BEDROCK_VERSION, '');
    const listed = bedrock.get(base);
    if (listed) return { pricing: listed, requestedId, via: 'bedrock' };
    // Since Claude 4.7, Bedrock ids are `anthropic.` + the API id with no date.
    const undated = api.get(base.slice('anthropic.'.length));
    if (undated && undated.provider === 'anthropic') return { pricing: undated, requestedId, via: 'bedrock' };
  }
  return null;
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
