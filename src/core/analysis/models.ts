// Resolves the model that prices each request: the override when given, else the id the request names.
// With --prices, a model the file names is priced at the file's rates, dated by the file. A request of a batch
// file is priced at the Batch API's half; a call whose usage says it ran in fast mode, at the fast-mode rates.
import type { ParsedRequest } from '../model.ts';
import { atBatchPrice, atFastPrice, BATCH_FACTOR, lookupModel } from '../pricing/lookup.ts';
import { overrideFor, type PriceOverrides } from '../pricing/overrides.ts';
import type { ModelUse, ResolvedModel } from './types.ts';

export function resolveModel(request: Pick<ParsedRequest, 'model' | 'batch'> & { recorded?: ParsedRequest['recorded'] }, override: string | null, prices: PriceOverrides | null = null): ResolvedModel {
  const resolved = resolvedAtListPrice(request, override, prices);
  let pricing = resolved.pricing;
  if (pricing === null) return resolved;
  const fast = request.recorded?.speed === 'fast';
  // A model whose fast-mode price the table lacks keeps the standard rates (the model line says so).
  if (fast) pricing = atFastPrice(pricing) ?? pricing;
  if (request.batch !== true) return fast ? { ...resolved, pricing, fastMode: true } : resolved;
  const routeNote = resolved.routeNote === undefined ? BATCH_NOTE : `${resolved.routeNote}, ${BATCH_NOTE}`;
  return { ...resolved, pricing: atBatchPrice(pricing), routeNote, ...(fast && { fastMode: true as const }) };
}

const BATCH_NOTE = `Batch API, ${BATCH_FACTOR * 100}% of the list price`;

function resolvedAtListPrice(request: Pick<ParsedRequest, 'model'>, override: string | null, prices: PriceOverrides | null): ResolvedModel {
  const id = override ?? request.model;
  if (id === null || id === '') return { id: null, source: 'none', pricing: null, via: null };
  const match = lookupModel(id);
  const source = override === null ? 'request' : 'override';
  const negotiated = prices === null ? null : overrideFor(prices, id, match?.pricing ?? null);
  if (negotiated !== null) {
    return { id, source, pricing: negotiated, via: match?.via ?? null, priceSource: { source: prices!.source, pricedOn: prices!.pricedOn } };
  }
  const resolved: ResolvedModel = { id, source, pricing: match?.pricing ?? null, via: match?.via ?? null };
  if (match?.routeNote) resolved.routeNote = match.routeNote;
  return resolved;
}

/** Each distinct model id with its request count, in first-seen order. */
export function modelUseOf(models: readonly ResolvedModel[]): ModelUse[] {
  const uses = new Map<string | null, ModelUse>();
  for (const model of models) {
    let use = uses.get(model.id);
    if (use === undefined) {
      use = { id: model.id, requests: 0, known: model.pricing !== null, pricedAs: model.pricing?.id ?? null };
      if (model.pricing !== null) {
        use.via = model.via;
        use.pricedOn = model.priceSource?.pricedOn ?? model.pricing.pricedOn;
        use.priceSource = model.priceSource === undefined ? 'table' : 'prices-file';
      }
      uses.set(model.id, use);
    }
    use.requests++;
    if (model.fastMode === true) use.fastRequests = (use.fastRequests ?? 0) + 1;
  }
  return [...uses.values()];
}
